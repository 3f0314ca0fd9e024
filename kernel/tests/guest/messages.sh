# Test 2: kernel messages about a failing disk name its alias. Runs on the
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

if [ -e $A ]; then
	echo bay07 >$A
	read_errors alias-bay07
	echo dblog >$A
	read_errors alias-dblog
	echo >$A
	read_errors no-alias
else
	read_errors unpatched
fi
finish
