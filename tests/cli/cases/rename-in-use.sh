# rename refuses while the old name is in use through its link, and says where.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias dblog serial:S4EVNX0M123456
T
mkdir -p "$ROOT/proc/self" "$ROOT/etc/mdadm"
cat >"$ROOT/proc/self/mountinfo" <<'M'
22 27 0:21 / /proc rw,relatime - proc proc rw
27 1 8:33 / /srv/data rw,relatime shared:1 - ext4 /dev/disk/by-alias/bay07p1 rw
28 1 8:34 / /srv/bay07 rw,relatime - ext4 /dev/sdc2 rw
29 1 8:35 / /srv/other rw,relatime - ext4 /dev/disk/by-alias/bay07x rw
M
cat >"$ROOT/etc/fstab" <<'F'
# /dev/disk/by-alias/bay07p1 /srv/data ext4 defaults 0 2   (a comment is no use)
/dev/disk/by-alias/bay07p1 /srv/data ext4 defaults 0 2
/dev/disk/by-alias/dblog1 /var/log ext4 defaults 0 2
F
echo 'crypt1 /dev/disk/by-alias/bay07p2 none luks' >"$ROOT/etc/crypttab"
echo 'ARRAY /dev/md0 devices=/dev/disk/by-alias/bay07,/dev/sdd' >"$ROOT/etc/mdadm/mdadm.conf"
echo '/dev/disk/by-alias/bay07 -a' >"$ROOT/etc/smartd.conf"
# Refused: every place is named; the table is unchanged. Case of the argument does not
# matter; a link spelt otherwise (/dev/disk/by-alias/bay07x) is another name.
da rename BAY07 shelf1-bay07
cat "$ROOT/etc/diskalias.conf"
# A name in use nowhere renames at once.
rm "$ROOT/etc/fstab"
da rename dblog fastlog
# --force: renamed, and the old link is kept on the device.
da rename --force bay07 shelf1-bay07
cat "$ROOT/etc/diskalias.conf"
cat "$ROOT/run/diskalias/renamed"
da apply
# udev rules would say the same for the device:
DISKALIAS_SYSROOT=$ROOT env -i DISKALIAS_SYSROOT=$ROOT DEVTYPE=partition PARTN=1 DEVPATH=/d/sdc/sdc1 ID_WWN=0x5000c500a1b2c3d4 "$bin" udev sdc1
# When the disk is named otherwise, the old name goes at the next apply.
table <<'T'
alias shelf1-bay07 wwn:0x5000c500a1b2c3d5
alias fastlog serial:S4EVNX0M123456
T
da apply
cat "$ROOT/run/diskalias/renamed" 2>&1 | sed 's/^/renamed: /'
# Where udev runs, the renamed device gets a change event.
mkdir -p "$ROOT/run/udev" && touch "$ROOT/run/udev/control"
for k in sdd; do : >"$ROOT/sys/class/block/$k/uevent"; done
da rename shelf1-bay07 bay08
echo "sdd uevent: $(cat "$ROOT/sys/class/block/sdd/uevent")"
da rename nothing x
