# Test 5, on the KASAN + LOCKDEP + PROVE_RCU kernel with two CPUs: writers
# rewrite the alias while readers read it (the attribute and the disk's
# uevent variables) and failing reads print it, for TEST_DURATION seconds
# (default 60). The host then searches the console log for splats.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
duration=${TEST_DURATION:-60}
check "partition ${disk}1 appears" make_partition $disk
nl='
'
echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts
pids=
/test/alias-hammer write $A 0 bay07 dblog "$nl" \
	x123456789012345678901234567890123456789012345678901234567890123 >/dev/null &
pids="$pids $!"
/test/alias-hammer write $A 0 shelf1-bay2 "$nl" a >/dev/null &
pids="$pids $!"
/test/alias-hammer read $A 0 >/dev/null &
pids="$pids $!"
/test/alias-hammer read /sys/block/$disk/uevent 0 >/dev/null &
pids="$pids $!"
(while :; do
	dd if=/dev/$disk of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null
	dd if=/dev/${disk}1 of=/dev/null bs=512 skip=2612 count=1 2>/dev/null
	echo 1 >/proc/sys/vm/drop_caches
done) &
pids="$pids $!"
echo "# stressing for $duration s"
sleep $duration
for p in $pids; do
	kill -0 $p 2>/dev/null && ok "worker $p still running" || not_ok "worker $p died"
done
kill $pids
sleep 2
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
changes=$(dmesg | grep -c ": alias ")
errors=$(dmesg | grep -cE "\[(bay07|dblog|shelf1-bay2|a|x1234[0-9]*)\] tag#")
echo "# $changes alias changes and $errors aliased SCSI error lines in the last log buffer"
[ "$errors" -gt 0 ] && ok "SCSI errors named the aliases" || not_ok "no SCSI error line named an alias"
if dmesg | grep -E "BUG:|KASAN|WARNING:|lockdep|suspicious RCU|Call Trace|ODEBUG"; then
	not_ok "splat in the kernel log"
else
	ok "no splat in the kernel log buffer"
fi
echo "$nl" >$A
finish
