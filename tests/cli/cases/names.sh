# Every alias name rule of SPEC section 2, through set (exit 1, nothing written).
fixture host-virtio
for n in sdc sdc1 sdcard sdaa hda vdb2 xvda1 nvme0n1 nvme0n1p2 mmcblk0 mmcblk0p1 loop7 dm-3 \
	md127 md127p1 sr0 nbd0 zram0 ram0 rbd0 pmem1 8:32 42 . .. -x _x 'a b' a/b "$(printf 'a\tb')" \
	a234567890123456789012345678901234567890123456789012345678901234x ''; do
	da set "$n" serial:X
done
test -e "$ROOT/etc/diskalias.conf" && echo "table written" || echo "no table written"
for n in ssd-cache bay07 dblog slot-a3 db.log_2+x 7bay hdd-01 Sda; do
	da set "$n" serial:"S-$n"
done
cat "$ROOT/etc/diskalias.conf"
# Collisions: equal, equal but for case, partition names both ways.
da set bay07 serial:NEW
da set BAY07 serial:NEW
da set bay07p1 serial:NEW
da set dblog2 serial:NEW
da set slot serial:NEW
da set slot1 serial:NEW
da rename slot slot-a3
# disk1p's partitions are disk1p1, disk1p2 (as disk1's would be): each is
# found in any case, and disk1 cannot join it.
fixture sas-jbod24
table <<'T'
alias disk1p wwn:0x5000c500a1b2c3f6
T
da resolve disk1p disk1p1 DISK1P1 disk1p01 disk1p0
da name sdc sdc1
echo "sdc1 failed" | "$bin" filter
echo "DISK1P1 failed" | "$bin" filter -r
da set disk1 sda
da set DISK1 sda
da set disk1p1 sda
