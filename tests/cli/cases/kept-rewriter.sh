# The rewriter filter keeps (run/diskalias/rewriter-MODE): used while the
# devices (the kernel's uevent count, udev's entries and links), the
# table's files and bytes, the caller and the mode are as they were; never
# after any of them changed, never when it is not the caller's or root's,
# a link, or spoiled; never made from a table or a scan with a problem.
# Two disks trade WWNs in sysfs (A: sdc is bay03; B: sdc is bay04) without
# the kernel saying so, and the snapshot of the devices is removed: a
# filter that answers A used the kept rewriter, one that answers B built
# its own from sysfs.
fixture sas-jbod24
run=$ROOT/run/diskalias
kept=$run/rewriter-alias
seq=$ROOT/sys/kernel/uevent_seqnum
printf 'alias bay03 wwn:0x5000c50000000003\nalias bay04 wwn:0x5000c50000000004\n' | table
# shellcheck source=../trade-wwns.bash
source "$here/trade-wwns.bash"
state() {
	trade_wwns "$1"
	rm -f "$run/devices"
}
uevent() { echo $(($(cat "$seq") + 1)) >"$seq"; }
made() { test -e "$kept" && echo "kept" || echo "none kept"; }
f() { echo "sdc sdd /dev/sdc1 0:0:2:0 sdw" | da filter "$@"; }
state A
echo "# no uevent count (an old kernel, a recorded machine): built each time, none kept"
f
made
mkdir -p "$ROOT/sys/kernel"
echo 4711 >"$seq"
f
made
echo "# B without a uevent: the kept one answers, A"
state B
f
echo "# a uevent: B"
uevent
f
echo "# A, and udev wrote an entry: A"
state A
touch "$ROOT/run/udev/data/b8:99"
f
echo "# the table edited, its time put back: the new table"
state B
uevent
f >/dev/null
state A
sed -i 's/bay03/bay33/' "$ROOT/etc/diskalias.conf"
touch -d '2020-01-01 00:00:00' "$ROOT/etc/diskalias.conf"
f
echo "# a drop-in added: it names sdw"
state B
mkdir -p "$ROOT/etc/diskalias.d"
echo 'alias spare wwn:0x5000c500a1b2c54a' >"$ROOT/etc/diskalias.d/spare.conf"
f
echo "# a drop-in's bytes changed, its time put back: the new drop-in"
state A
sed -i 's/spare/spar2/' "$ROOT/etc/diskalias.d/spare.conf"
touch -d '2020-01-01 00:00:00' "$ROOT/etc/diskalias.d/spare.conf"
f
echo "# each mode keeps its own: annotate and reverse, then A from each"
f --annotate
echo "bay33 spar2" | da filter --reverse
state B
f --annotate
echo "bay33 spar2" | da filter --reverse
ls "$run" | grep rewriter
echo "# a bad line: told every time, nothing kept"
rm -f "$run"/rewriter-*
echo 'alias bay03 wwn:nonsense' >>"$ROOT/etc/diskalias.d/spare.conf"
f
f
made
echo "# a scan with a problem: told every time, nothing kept"
sed -i '$d' "$ROOT/etc/diskalias.d/spare.conf"
dev=$(cat "$ROOT/sys/class/block/sdx/dev")
uev=$(cat "$ROOT/sys/class/block/sdx/uevent")
rm "$ROOT/sys/class/block/sdx/dev" "$ROOT/sys/class/block/sdx/uevent"
uevent
f
f
made
echo "$dev" >"$ROOT/sys/class/block/sdx/dev"
echo "$uev" >"$ROOT/sys/class/block/sdx/uevent"
echo "# name and resolve keep theirs and answer from them (A), but only what the map would answer alike"
state A
uevent
da name sdc >/dev/null
da resolve bay33 >/dev/null
state B
da name sdc sdd /dev/sdc sdc1 /dev/sdc1
da resolve bay33 BAY04 bay33p1
echo "# anything else in the arguments (an address, a partition that is not there, a kernel name to resolve): the map answers all (B)"
da name sdc 0:0:2:0
da name sdd sdc9
da resolve bay33 /dev/disk/by-alias/bay04
da resolve sdc bay33
echo "# spoiled (cut short; a slot pointing out of the file; another format): not read, replaced"
uevent
keep() {
	state "$1"
	uevent
	f >/dev/null
	state "$2"
}
spoil() {
	python3 -c '
import struct, sys
path, how = sys.argv[1], sys.argv[2]
b = bytearray(open(path, "rb").read())
if how == "cut":
    b = b[: len(b) // 2]
elif how == "magic":
    b[5] = ord("9")
else:
    # The slots follow the headers and the four length sets.
    img = 64
    maxlen, nslots = struct.unpack_from("=QQ", b, img + 8)
    words = struct.unpack_from("=I", b, img + 8 + 24 + 12)[0]
    slots = img + 10544 + 4 * 256 * words * 8
    for i in range(nslots):
        if struct.unpack_from("=I", b, slots + 8 * i + 4)[0]:
            struct.pack_into("=I", b, slots + 8 * i + 4, 0x7ffffff0)
            break
open(path, "wb").write(b)
' "$kept" "$1"
}
for how in cut slot magic; do
	keep A B
	spoil $how
	f
done
echo "# not root's or the caller's, or others could write it: not read, replaced"
keep A B
chown nobody "$kept"
f
echo "owner now: $(stat -c %U "$kept")"
keep A B
chmod 666 "$kept"
f
echo "mode now: $(stat -c %a "$kept")"
echo "# a planted link: not followed, replaced"
keep A B
echo "precious" >"$PWD/target"
rm -f "$kept"
ln -s "$PWD/target" "$kept"
f
echo "target: $(cat "$PWD/target"); kept a link: $(test -L "$kept" && echo yes || echo no)"
echo "# dmesg and run name from the devices, never from a kept rewriter"
keep A B
echo "sdc" | da run -- cat
