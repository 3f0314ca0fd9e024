# Guest side of tests/tools/record-logs/storage (busybox sh): udev names the
# disks, md and dm are built, the errors happen, then the kernel log, the
# steps taken and the recorded sysroot (a base64 tar) are printed between
# "== NAME" lines.
step() { echo "$*" >>/tmp/steps; "$@" >>/tmp/steps.out 2>&1; }
by_serial() { # by_serial SERIAL: the kernel name of the disk with that serial
	for l in /dev/disk/by-id/*"$1" /dev/disk/by-id/usb-*"$1"-0:0; do
		[ -L "$l" ] && basename "$(readlink "$l")" && return
	done
}
/lib/qemu-test/start-udev
/lib/qemu-test/start-journald || echo "journald did not start" >>/tmp/steps
mkdir -p /run/mdadm
sata0=$(by_serial SATA-ERR-0)
sata1=$(by_serial SATA-MD-1)
peer=$(by_serial VBLK-MD-2)
# The second namespace by its link: 6.12 scans namespaces in parallel, and
# nsid 2 can be nvme0n1.
nvme2=$(by_serial NVME-TWO-NS_2)
slow=$(by_serial NVME-SLOW)
stick=$(by_serial USB-STICK-1)
echo "sata0=$sata0 sata1=$sata1 peer=$peer nvme2=$nvme2 slow=$slow stick=$stick" >>/tmp/steps
# md RAID1 of the second SATA disk's first partition and the virtio disk.
step mdadm --create /dev/md0 --run --assume-clean --level=1 --raid-devices=2 --metadata=1.2 \
	--name=data --uuid=0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9 /dev/${sata1}1 /dev/$peer
udevadm settle --timeout=60
# device-mapper: vg0-data, linear over its second partition.
size=$(cat /sys/class/block/${sata1}2/size)
step dmsetup create --noudevsync vg0-data --table "0 $size linear /dev/${sata1}2 0"
udevadm trigger --action=change /sys/class/block/dm-0 2>/dev/null
udevadm settle --timeout=60
sleep 1
# The errors: a SATA read (libata's error handling), an NVMe read.
step dd if=/dev/$sata0 of=/dev/null bs=512 skip=4660 count=1 iflag=direct
sleep 2
step dd if=/dev/$nvme2 of=/dev/null bs=512 skip=4660 count=1 iflag=direct
sleep 1
# The slow drive, throttled by the host to one I/O a second: six reads at
# once, the last ones outlast the 2 s I/O timeout and the driver aborts them.
echo "HOTPLUG slow-on"
sleep 3
for i in 1 2 3 4 5 6; do
	dd if=/dev/$slow of=/dev/null bs=4096 skip=$((1000 + 8 * i)) count=1 iflag=direct 2>/dev/null &
done
wait
echo "six reads of $slow at once" >>/tmp/steps
sleep 1
# The stick unplugged, and plugged in again.
echo "HOTPLUG usb-del"
t=60
while [ -e /dev/disk/by-alias/stick ] && [ $t -gt 0 ]; do sleep 1; t=$((t - 1)); done
echo "stick unplugged ($t s left)" >>/tmp/steps
sleep 1
echo "HOTPLUG usb-add"
t=60
while [ ! -e /dev/disk/by-alias/stick ] && [ $t -gt 0 ]; do sleep 1; t=$((t - 1)); done
udevadm settle --timeout=60
echo "stick back as $(by_serial USB-STICK-1)" >>/tmp/steps
# A member of the mirror fails.
step mdadm /dev/md0 --fail /dev/${sata1}1
sleep 1
step mdadm /dev/md0 --remove /dev/${sata1}1
udevadm settle --timeout=60
sleep 1
echo "== steps"
cat /tmp/steps /tmp/steps.out
echo "== journal"
sleep 2
for l in /dev/disk/by-alias/*; do
	echo "# journalctl -k $l"
	journalctl -k -q --no-pager -o short-monotonic "$l" 2>&1 | sed 's/^/  /'
done
echo "# journalctl -k _UDEV_DEVLINK=/dev/disk/by-alias/sata-err"
journalctl -k -q --no-pager -o short-monotonic _UDEV_DEVLINK=/dev/disk/by-alias/sata-err 2>&1 | sed 's/^/  /'
echo "# journalctl -k -o verbose, one record of sdb"
journalctl -k -q --no-pager -o verbose _KERNEL_DEVICE=b8:16 2>&1 | head -n 30 | sed 's/^/  /'
echo "# journald's own output, its process, its files"
cat /tmp/journald.log
pidof systemd-journald || echo "journald is not running"
ls -R /run/log/journal 2>&1 | head -n 5
journalctl -k --no-pager -o short-monotonic 2>&1 | grep -c .
echo "== kmsg"
/test/kmsgdump
echo "== dmesg"
dmesg
echo "== sysroot"
/usr/bin/bash /test/record-sysroot /tmp/sysroot >/tmp/record.log 2>&1 || cat /tmp/record.log
tar -C /tmp/sysroot -czf - . | base64
echo "== end"
