# Helpers for the guest side of the kernel tests (busybox sh). A test prints
# "ok - ..." / "not ok - ..." lines and exits non-zero if any check failed.
failed=0
ok() { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; failed=1; }
check() { # check DESCRIPTION COMMAND...
	desc=$1; shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}
# The kernel log since the last klog_mark, without timestamps.
klog_mark() { dmesg -c >/dev/null; }
klog() { dmesg | sed 's/^\[ *[0-9]*\.[0-9]*\] //'; }
# The scsi_debug disk, by its model (a SATA disk is an sd disk too).
scsi_disk() {
	for d in /sys/block/sd*; do
		grep -q scsi_debug "$d/device/model" 2>/dev/null && { echo "${d##*/}"; return 0; }
	done
	return 1
}
# The SATA disk on AHCI (libata), by its vendor.
sata_disk() {
	for d in /sys/block/sd*; do
		grep -q '^ATA *$' "$d/device/vendor" 2>/dev/null && { echo "${d##*/}"; return 0; }
	done
	return 1
}
finish() {
	[ "$failed" = 0 ] && echo "RESULT PASS" || echo "RESULT FAIL"
	exit "$failed"
}
# One MBR partition on the disk, sectors 2048-14335 (scsi_debug's medium
# error sector 4660 is its sector 2612), and wait for the kernel to see it.
make_partition() {
	{
		dd if=/dev/zero bs=446 count=1 2>/dev/null
		printf '\000\376\377\377\203\376\377\377\000\010\000\000\000\060\000\000'
		dd if=/dev/zero bs=48 count=1 2>/dev/null
		printf '\125\252'
	} >/tmp/mbr
	dd if=/tmp/mbr of=/dev/$1 bs=512 count=1 conv=fsync 2>/dev/null
	blockdev --rereadpt /dev/$1
	[ -e /sys/block/$1/${1}1 ]
}
