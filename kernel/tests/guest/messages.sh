# Test 2: kernel messages about a failing disk name its alias: a
# scsi_debug disk with a medium error at sector 4660 (sd and SCSI command
# messages, block layer errors, buffer I/O errors on its partition), and
# three disks whose sector 4660 QEMU's blkdebug fails with EIO: a virtio
# disk (block layer errors), a SATA disk on AHCI (libata's error handling,
# then sd's; NCQ off, libata.force=noncq, so no tag numbers move) and an
# NVMe namespace (the NVMe error line, block layer errors). Runs on the
# patched kernel (with and without an alias) and on the unpatched one (the
# same rounds, named alike, without aliases), and prints the error lines of
# each case between "== CASE" markers for the host to compare: against
# kernel/tests/expected/ and across kernels.
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

# The lines of libata's error handling for a device, and what follows.
ata_lines() {
	klog | grep -E '^ata[0-9]+\.[0-9]+: |^sd [0-9:]+: |error, dev |^Buffer I/O error'
}

# An NVMe namespace's error line, and what follows.
nvme_lines() {
	klog | grep -E '^[^ ]+: [A-Za-z/ ]+\(0x[0-9a-f]+\) @ LBA |error, dev |^Buffer I/O error'
}

blkdebug_errors() { # blkdebug_errors CASE WHAT DISK LINES: a failing read (blkdebug, sector 4660)
	[ -n "$3" ] && [ -e /sys/block/$3 ] || { not_ok "$1: no $2 disk"; return; }
	klog_mark
	dd if=/dev/$3 of=/dev/null bs=512 skip=4660 count=1 2>/dev/null &&
		not_ok "$1: reading sector 4660 of $3 succeeded"
	sleep 2
	echo "== $1 $2"
	$4
	echo 3 >/proc/sys/vm/drop_caches 2>/dev/null
	sleep 5
}

virtio_errors() { # virtio_errors CASE: failing reads of the virtio, SATA and NVMe disks
	blkdebug_errors "$1" virtio vda error_lines
	blkdebug_errors "$1" sata "$sata" ata_lines
	blkdebug_errors "$1" nvme nvme0n1 nvme_lines
}

sata=$(sata_disk) || not_ok "no SATA disk"
echo "DISKS scsi=$disk sata=$sata"
set_aliases() { # set_aliases SCSI VIRTIO SATA NVME (empty: clear)
	echo "$1" >$A
	echo "$2" >/sys/block/vda/alias
	[ -z "$sata" ] || echo "$3" >/sys/block/$sata/alias
	echo "$4" >/sys/block/nvme0n1/alias
}

if [ -e $A ]; then
	set_aliases bay07 bay08 bay09 bay10
	read_errors alias-bay07
	virtio_errors alias-bay07
	set_aliases dblog vlog slog nlog
	read_errors alias-dblog
	virtio_errors alias-dblog
	set_aliases "" "" "" ""
	read_errors no-alias
	virtio_errors no-alias
else
	# The same three rounds: libata's error handling keeps state from one
	# to the next (it lowers the transfer speed after repeated errors), so
	# round N of one kernel compares with round N of the other.
	for c in alias-bay07 alias-dblog no-alias; do
		read_errors $c
		virtio_errors $c
	done
fi
finish
