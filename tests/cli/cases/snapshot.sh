# The snapshot of the last scan (run/diskalias/devices): used while the
# kernel's uevent count and udev's entries and links are as they were,
# never after a device came, went or changed; never when it is not the
# caller's or root's, or spoiled; never made by a scan that met a problem.
# Two disks trade WWNs in sysfs (state A: sdc is bay03; B: sdc is bay04)
# without the kernel saying so: what is answered tells whether the
# snapshot was used.
fixture sas-jbod24
snap=$ROOT/run/diskalias/devices
seq=$ROOT/sys/kernel/uevent_seqnum
printf 'alias bay03 wwn:0x5000c50000000003\nalias bay04 wwn:0x5000c50000000004\n' | table
# shellcheck source=../trade-wwns.bash
source "$here/trade-wwns.bash"
state() { trade_wwns "$1"; }
uevent() { echo $(($(cat "$seq") + 1)) >"$seq"; }
made() { test -e "$snap" && echo "snapshot made" || echo "no snapshot"; }
# name answers from a kept rewriter first (kept-rewriter.sh): none here.
dn() {
	rm -f "$ROOT"/run/diskalias/rewriter-*
	da name "$@"
}
state A
echo "# no uevent count (an old kernel, a recorded machine): a scan each time, no snapshot"
dn sdc sdd
made
mkdir -p "$ROOT/sys/kernel"
echo 4711 >"$seq"
dn sdc sdd
made
echo "# B without a uevent (no kernel changes a disk so): the snapshot answers, A"
state B
dn sdc sdd
echo "# a uevent: B"
uevent
dn sdc sdd
echo "# A, and udev wrote an entry: A"
state A
touch "$ROOT/run/udev/data/b8:99"
dn sdc sdd
echo "# B, and udev removed a link: B"
state B
rm "$ROOT/dev/disk/by-id/$(ls "$ROOT/dev/disk/by-id" | grep -m 1 '^wwn-.*part')"
dn sdc sdd
echo "# spoiled (cut short, another format): not read, replaced"
state A
uevent
dn sdc >/dev/null
state B
head -c 1000 "$snap" >"$snap.new" && mv "$snap.new" "$snap"
dn sdc
state A
uevent
dn sdc >/dev/null
state B
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[6] = ord("9"); open(sys.argv[1], "wb").write(b)' "$snap"
dn sdc
echo "# not root's or the caller's, or others could write it: not read, replaced"
state A
uevent
dn sdc >/dev/null
state B
chown nobody "$snap"
dn sdc
echo "owner now: $(stat -c %U "$snap")"
state A
uevent
dn sdc >/dev/null
state B
chmod 666 "$snap"
dn sdc
echo "mode now: $(stat -c %a "$snap")"
echo "# a planted link: not followed, replaced"
uevent
echo "precious" >"$PWD/target"
rm -f "$snap"
ln -s "$PWD/target" "$snap"
dn sdc
echo "target: $(cat "$PWD/target"); snapshot a link: $(test -L "$snap" && echo yes || echo no)"
echo "# a scan with a problem leaves no snapshot: the problem is told every time"
rm -f "$snap"
uevent
dev=$(cat "$ROOT/sys/class/block/sdx/dev")
uev=$(cat "$ROOT/sys/class/block/sdx/uevent")
rm "$ROOT/sys/class/block/sdx/dev" "$ROOT/sys/class/block/sdx/uevent"
dn sdc
dn sdc
made
echo "# filter makes one, resolve answers from it (B, though sysfs says A)"
echo "$dev" >"$ROOT/sys/class/block/sdx/dev"
echo "$uev" >"$ROOT/sys/class/block/sdx/uevent"
uevent
echo "sd 0:0:2:0: [sdc] error on sdc1, sdd" | da filter
made
state A
da resolve bay03 bay04
echo "# list: a naming command's snapshot lacks sizes and models: list scans (A)"
state B
uevent
dn sdc >/dev/null
state A
da list -o NAME,ALIAS,SIZE | sed -n '4,5p'
echo "# list's own snapshot answers list and name alike (A, though sysfs says B)"
state B
da list -o NAME,ALIAS,SIZE | sed -n '4,5p'
dn sdc sdd
echo "# a list of other columns reads what this one lacks (B)"
da list -o NAME,ALIAS,MODEL | sed -n '4,5p'
echo "# an md array's members change without a uevent: list always scans there"
fixture vm-virtio
mkdir -p "$ROOT/sys/kernel"
echo 1 >"$ROOT/sys/kernel/uevent_seqnum"
da list -o NAME,HOLDERS >/dev/null
test -e "$ROOT/run/diskalias/devices" && echo "snapshot made by list"
rm "$ROOT/sys/class/block/md127/slaves/vdc1" "$ROOT/sys/class/block/vdc1/holders/md127"
da list -o NAME,HOLDERS | grep -A1 'vdc1'
