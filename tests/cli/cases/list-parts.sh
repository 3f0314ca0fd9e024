# A long list is printed a part at a time (256 lines), each part a table
# of its own: the parts must read as one table. 90 SAS disks (271 lines,
# two parts); the widest name in the first part, the last disk's serial
# longer than any before it, and aliases whose disks are absent, wider
# than anything before them (one not printable ASCII), last.
# --width fits the list to a terminal that wide, which is one table: the
# same bytes.
gen="$here/../../bench/gen.py"
rm -rf "$ROOT"
python3 "$gen" sysroot "$ROOT" 90
export DISKALIAS_SYSROOT=$ROOT
# sda's partition 128 (259:0, as the kernel numbers it): the widest name
# of the tree is in the first part, under its disk.
disk=$(realpath "$ROOT/sys/block/sda")
cp -a "$disk/sda2" "$disk/sda128"
echo 128 >"$disk/sda128/partition"
echo 259:0 >"$disk/sda128/dev"
printf 'MAJOR=259\nMINOR=0\nDEVNAME=sda128\nDEVTYPE=partition\nPARTN=128\n' >"$disk/sda128/uevent"
ln -s "$(readlink "$ROOT/sys/class/block/sda2" | sed 's/sda2$/sda128/')" "$ROOT/sys/class/block/sda128"
ln -s "../../devices/${disk#"$ROOT"/sys/devices/}/sda128" "$ROOT/sys/dev/block/259:0"
sn='Z1Z00089S (a serial with blanks, longer than any other)'
printf "\\0\\x80\\0\\x$(printf %02x ${#sn})%s" "$sn" >"$(realpath "$ROOT/sys/block/sdcl/device")/vpd_pg80"
# Every model not ASCII, sdb's the widest: more cells than a part for
# libsmartcols to measure with three MODEL columns.
for m in "$ROOT"/sys/devices/*/*/*/host*/port-*/expander-*/port-*/end_device-*/target*/*/model; do
	printf 'ST4000NM\303\244  \n' >"$m"
done
printf 'ST4000NM\303\244-\303\244-\303\244\n' >"$(realpath "$ROOT/sys/block/sdb/device")/model"
{
	python3 "$gen" table 90
	echo "alias a-spare-disk-with-a-long-name wwn:0x5000c50000ffffff"
	echo "alias spare-2 serial:S序列号-0001"
	echo "alias spare-bay slot:0x500605b0deadbeef/12345"
} | table
one_table() {
	if cmp -s <("$bin" list "$@" 2>&1) <("$bin" list --width 100000 "$@" 2>&1); then
		echo "list $*: as one table"
	else
		echo "list $*: not as one table"
		diff <("$bin" list "$@" 2>&1) <("$bin" list --width 100000 "$@" 2>&1) | head -5
	fi
}
one_table
one_table -o NAME,ALIAS,SERIAL,STATE
one_table -s -o NAME,SIZE,SERIAL
one_table -n -o ALIAS,IDENTITY,STATE
one_table -a -o +PATH
# No disk here is in a bay: ENCLOSURE and SLOT are as wide as their
# headings, but in the last part, where the absent bay is.
one_table -o NAME,ENCLOSURE,SLOT,STATE
one_table -o NAME,MODEL,SERIAL,MODEL,MODEL
da list -o NAME,ALIAS,SERIAL,STATE | sed -n '1,2p;271,$p'
echo "# raw: the headings once"
"$bin" list -r | grep -c '^NAME '
echo "# JSON: one array, every disk with its two partitions, and the absent"
"$bin" list -J -o NAME,ALIAS,SERIAL | python3 -c '
import json, sys
top = json.load(sys.stdin)["blockdevices"]
print(len(top), "top,", sum(len(d.get("children", [])) for d in top), "children")
print(top[0]["name"], top[89]["serial"], top[-1])'
