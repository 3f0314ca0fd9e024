# Guest side of tests/tools/record-logs/run (busybox sh): make the disks
# talk (partition scans, a scsi_debug medium error, a virtio I/O error),
# then print the kernel log as /dev/kmsg records and as dmesg text, the
# /proc tables, and the sysfs entries diskalias reads, between "== NAME" lines.
sleep 1
disk=
for d in /sys/block/sd*; do
	case $(cat $d/device/model 2>/dev/null) in
	scsi_debug*) disk=${d##*/} ;;
	esac
done
# One MBR partition on the scsi_debug disk, sectors 2048-14335.
{
	dd if=/dev/zero bs=446 count=1 2>/dev/null
	printf '\000\376\377\377\203\376\377\377\000\010\000\000\000\060\000\000'
	dd if=/dev/zero bs=48 count=1 2>/dev/null
	printf '\125\252'
} >/tmp/mbr
dd if=/tmp/mbr of=/dev/$disk bs=512 count=1 conv=fsync 2>/dev/null
blockdev --rereadpt /dev/$disk
sleep 1
opts=/sys/bus/pseudo/drivers/scsi_debug/opts
echo 2 >$opts
dd if=/dev/$disk of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null
sleep 1
dd if=/dev/${disk}1 of=/dev/null bs=512 skip=2612 count=1 2>/dev/null
sleep 1
echo 0 >$opts
dd if=/dev/vda of=/dev/null bs=512 skip=4660 count=1 2>/dev/null
sleep 1
echo "== kmsg"
/test/kmsgdump
echo "== dmesg"
dmesg
echo "== partitions"
cat /proc/partitions
echo "== diskstats"
cat /proc/diskstats
echo "== sys"
attrs() { # attrs DIR NAME...: "F path value" for each attribute there
	dir=$1
	shift
	for f in "$@"; do
		[ -f "$dir/$f" ] && echo "F ${dir#/}/$f $(cat "$dir/$f")"
	done
	[ -L "$dir/subsystem" ] && echo "L ${dir#/}/subsystem $(readlink "$dir/subsystem")"
}
for e in /sys/class/block/*; do
	echo "L ${e#/} $(readlink "$e")"
	d=$(realpath "$e")
	attrs "$d" dev size partition ro removable wwid serial hidden
	[ -L "$d/device" ] || continue
	echo "L ${d#/}/device $(readlink "$d/device")"
	p=$(realpath "$d/device")
	while [ "${p#/sys/devices/}" != "$p" ]; do
		attrs "$p" vendor model wwid serial
		p=${p%/*}
	done
done | sort -u
echo "== end"
