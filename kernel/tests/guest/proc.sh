# Test 4: an alias changes nothing in /proc/partitions, /proc/diskstats or
# the names in sysfs: tools parse them and open /dev/NAME.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
check "partition ${disk}1 appears" make_partition $disk
sync
snapshot() {
	cat /proc/partitions >/tmp/partitions.$1
	cat /proc/diskstats >/tmp/diskstats.$1
	ls /sys/block /sys/class/block /sys/dev/block /dev >/tmp/names.$1
	cat /sys/block/$disk/uevent /sys/block/$disk/${disk}1/uevent | grep -v '^ALIAS=' >/tmp/uevent.$1
}
snapshot before
for a in bay07 dblog; do
	echo $a >$A
	snapshot $a
	for f in partitions diskstats names uevent; do
		cmp /tmp/$f.before /tmp/$f.$a >/dev/null &&
			ok "$f identical with alias $a" ||
			{ not_ok "$f differs with alias $a"; diff /tmp/$f.before /tmp/$f.$a; }
	done
done
echo >$A
snapshot after
for f in partitions diskstats names uevent; do
	cmp -s /tmp/$f.before /tmp/$f.after && ok "$f identical after clearing" ||
		not_ok "$f differs after clearing"
done
grep -q " ${disk}1\$" /tmp/partitions.bay07 && ok "/proc/partitions names ${disk}1" ||
	not_ok "/proc/partitions: $(cat /tmp/partitions.bay07)"
cat /tmp/partitions.bay07
finish
