# Test 5, on the KASAN + LOCKDEP + PROVE_RCU kernel with two CPUs: writers
# rewrite the alias while readers read it (the attribute and the disk's
# uevent variables) and failing reads print it, for TEST_DURATION seconds
# (default 60): on the scsi_debug disk, on an NVMe namespace, and on a
# SATA disk whose SCSI device is deleted and scanned again while libata's
# error handling prints its lines (the disk and the SCSI device go away
# under a message naming the alias). The host then searches the console
# log for splats.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
duration=${TEST_DURATION:-60}
check "partition ${disk}1 appears" make_partition $disk
dmesg | grep -q "KernelAddressSanitizer initialized" && ok "KASAN is on" || not_ok "KASAN is off"
dmesg | grep -q "Lock dependency validator" && ok "lockdep is on" || not_ok "lockdep is off"
nl='
'
echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts
pids=
/test/alias-hammer write $A 0 bay07 dblog "$nl" \
	x123456789012345678901234567890123456789012345678901234567890123 >/tmp/w1 &
pids="$pids $!"
/test/alias-hammer write $A 0 shelf1-bay2 "$nl" a >/tmp/w2 &
pids="$pids $!"
/test/alias-hammer read $A 0 >/tmp/r1 &
pids="$pids $!"
/test/alias-hammer read /sys/block/$disk/uevent 0 >/tmp/r2 &
pids="$pids $!"
(while :; do
	dd if=/dev/$disk of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null
	dd if=/dev/${disk}1 of=/dev/null bs=512 skip=2612 count=1 2>/dev/null
	echo 1 >/proc/sys/vm/drop_caches
done) &
pids="$pids $!"
# NVMe: the namespace's error line while its alias is rewritten.
if [ -e /sys/block/nvme0n1/alias ]; then
	/test/alias-hammer write /sys/block/nvme0n1/alias 0 nvme-a nvme-b "$nl" >/tmp/w3 &
	pids="$pids $!"
	(while :; do
		dd if=/dev/nvme0n1 of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null
	done) &
	pids="$pids $!"
else
	not_ok "no NVMe namespace"
fi
# SATA: a failing read (libata's error handling prints the device's lines
# with the alias) while the SCSI device is deleted, then scanned again.
sata=$(sata_disk) || not_ok "no SATA disk"
host=$(readlink -f /sys/block/$sata/device | sed -n 's|.*/\(host[0-9]*\)/.*|\1|p')
[ -n "$host" ] || not_ok "no SCSI host of the SATA disk"
(while :; do
	d=$(sata_disk) || { echo "- - -" >/sys/class/scsi_host/$host/scan; sleep 1; continue; }
	echo sata-a >/sys/block/$d/alias 2>/dev/null
	dd if=/dev/$d of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null &
	echo sata-b >/sys/block/$d/alias 2>/dev/null
	echo 1 >/sys/block/$d/device/delete 2>/dev/null
	wait
	echo "- - -" >/sys/class/scsi_host/$host/scan
	echo x >>/tmp/cycles
done) &
pids="$pids $!"
echo "# stressing for $duration s"
sleep $duration
for p in $pids; do
	kill -0 $p 2>/dev/null && ok "worker $p still running" || not_ok "worker $p died"
done
kill $pids
wait
echo "# $(cat /tmp/w1) + $(cat /tmp/w2) writes, $(cat /tmp/r1) alias reads, $(cat /tmp/r2) uevent reads"
echo "# $(cat /tmp/w3 2>/dev/null) NVMe alias writes, $(wc -l </tmp/cycles 2>/dev/null) SATA delete and scan cycles"
[ "$(wc -l </tmp/cycles 2>/dev/null)" -gt 2 ] 2>/dev/null && ok "the SATA disk went and came back" ||
	not_ok "the SATA disk did not go and come back"
if dmesg | grep -E "BUG:|KASAN|WARNING:|lockdep|suspicious RCU|Call Trace|ODEBUG"; then
	not_ok "splat in the kernel log"
else
	ok "no splat in the kernel log buffer"
fi
# The log buffer is mostly "alias set" lines by now: one more failing read
# with a known alias shows messages still name it after the race, once the
# SCSI and block error ratelimits (10 lines in 5 s) have recovered.
echo bay07 >$A
sleep 6
dmesg -c >/dev/null
dd if=/dev/$disk of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null
sleep 1
dmesg | grep -q "\[bay07\] tag#[0-9]* Sense Key : Medium Error" &&
	ok "SCSI errors name the alias after the race" || not_ok "no [bay07] error line after the race"
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
echo >$A
finish
