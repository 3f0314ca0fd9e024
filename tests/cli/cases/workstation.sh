# SATA SSD, NVMe, a USB stick (serial, no WWN) and an SD card.
fixture workstation
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,MODEL,SERIAL,WWN,PATH,ID,RM
da set ssd sda
da set stick sdb
da set keys sdb1
da set card mmcblk0
da set --by label home sda2
da set nvme-boot /dev/nvme0n1
cat "$ROOT/etc/diskalias.conf"
da list -o NAME,ALIAS,ALIASES,IDENTITY
da resolve stick1 cardp1 ssd2 home nvme-bootp1
# Each device's numbers and partition number come from its uevent file, one
# read, where the tree has one (a kernel's always does): the same devices as
# from the dev and partition attributes, and the attributes still count
# where a uevent file is missing, cut short or garbled.
cols=NAME,MAJ:MIN,TYPE,SIZE,ALIAS
"$bin" list -r -o $cols >"$scratch/with-uevent"
find "$ROOT/sys/devices" -name uevent -path '*/block/*' | sort >"$scratch/uevents"
echo "uevent files of block devices: $(grep -c . "$scratch/uevents")"
while read -r u; do mv "$u" "$u.kept"; done <"$scratch/uevents"
"$bin" list -r -o $cols | cmp -s - "$scratch/with-uevent" && echo "without them: the same list"
i=0
while read -r u; do
	case $((i++ % 3)) in
	0) head -n 1 "$u.kept" >"$u" ;;
	1) sed 's/^MAJOR=.*/MAJOR=8x/' "$u.kept" >"$u" ;;
	2) grep -v '^DEVTYPE=' "$u.kept" >"$u" ;;
	esac
done <"$scratch/uevents"
"$bin" list -r -o $cols | cmp -s - "$scratch/with-uevent" && echo "with them cut short or garbled: the same list"
while read -r u; do mv "$u.kept" "$u"; done <"$scratch/uevents"
