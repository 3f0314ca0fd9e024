# Test 2: kernel messages about a failing disk name its alias: a
# scsi_debug disk with a medium error at sector 4660 (sd and SCSI command
# messages, block layer errors, buffer I/O errors on its partition) and a
# virtio disk whose sector 4660 QEMU's blkdebug fails with EIO. Runs on the
# patched kernel (with and without an alias) and on the unpatched one, and
# prints the error lines of each case between "== CASE" markers for the
# host to compare: against kernel/tests/expected/ and across kernels.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
opts=/sys/bus/pseudo/drivers/scsi_debug/opts

check "partition ${disk}1 appears" make_partition $disk

# The lines naming the disk: SCSI disk and command messages, block layer
# request errors, buffer I/O errors.
error_lines() {
	klog | grep -E '^sd [0-9:]+: |error, dev |^Buffer I/O error'
}

read_errors() { # read_errors CASE: a failing read of the disk, of partition 1
	echo 2 >$opts
	klog_mark
	dd if=/dev/$disk of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null &&
		not_ok "$1: reading sector 4660 of $disk succeeded"
	sleep 1
	echo "== $1 disk"
	error_lines
	klog_mark
	dd if=/dev/${disk}1 of=/dev/null bs=512 skip=2612 count=1 2>/dev/null &&
		not_ok "$1: reading sector 2612 of ${disk}1 succeeded"
	sleep 1
	echo "== $1 partition"
	error_lines
	echo 0 >$opts
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	# let the printk ratelimits (5 s) of the next case start afresh
	sleep 5
}

virtio_errors() { # virtio_errors CASE: a failing read of the virtio disk
	[ -e /sys/block/vda ] || { not_ok "no virtio disk vda"; return; }
	klog_mark
	dd if=/dev/vda of=/dev/null bs=512 skip=4660 count=1 2>/dev/null &&
		not_ok "$1: reading sector 4660 of vda succeeded"
	sleep 1
	echo "== $1 virtio"
	error_lines
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	sleep 5
}

if [ -e $A ]; then
	echo bay07 >$A
	echo bay08 >/sys/block/vda/alias
	read_errors alias-bay07
	virtio_errors alias-bay07
	echo dblog >$A
	echo vlog >/sys/block/vda/alias
	read_errors alias-dblog
	virtio_errors alias-dblog
	echo >$A
	echo >/sys/block/vda/alias
	read_errors no-alias
	virtio_errors no-alias
else
	read_errors unpatched
	virtio_errors unpatched
fi
finish
