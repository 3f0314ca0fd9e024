# Test 3: setting and clearing an alias sends a "change" uevent carrying
# ALIAS=, seen by a netlink listener (busybox uevent); every later uevent of
# the disk carries ALIAS= while set; rewriting the same value sends nothing;
# the log line carries the disk's metadata in /dev/kmsg.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
devpath=$(cd -P /sys/block/$disk && pwd)
devpath=${devpath#/sys}

uevent sh -c 'echo "$ACTION $DEVPATH ALIAS=[${ALIAS-unset}]" >>/tmp/events' &
listener=$!
sleep 1
echo bay07 >$A
echo bay07 >$A
sleep 1
echo change >/sys/block/$disk/uevent
sleep 1
grep -qx "ALIAS=bay07" /sys/block/$disk/uevent &&
	ok "the disk's uevent variables include ALIAS=bay07" ||
	not_ok "no ALIAS=bay07 in /sys/block/$disk/uevent: $(cat /sys/block/$disk/uevent)"
echo >$A
sleep 1
echo change >/sys/block/$disk/uevent
sleep 1
kill $listener
grep -q "^ALIAS=" /sys/block/$disk/uevent &&
	not_ok "ALIAS= still in the uevent variables after clearing" ||
	ok "no ALIAS= in the uevent variables once cleared"

grep " $devpath " /tmp/events >/tmp/disk-events
cat >/tmp/want <<EOW
change $devpath ALIAS=[bay07]
change $devpath ALIAS=[bay07]
change $devpath ALIAS=[]
change $devpath ALIAS=[unset]
EOW
if cmp -s /tmp/disk-events /tmp/want; then
	ok "change uevents: set, synthetic change, cleared, synthetic change"
else
	not_ok "uevents of $devpath:"; cat /tmp/events
fi

# /dev/kmsg records: the message, then the device's metadata.
dev=$(cat /sys/block/$disk/dev)
timeout 2 cat /dev/kmsg >/tmp/kmsg 2>/dev/null
for msg in "alias set to bay07" "alias cleared"; do
	rec=$(grep -A2 ";block $disk: $msg\$" /tmp/kmsg | tail -n 2 | tr '\n' ' ')
	[ "$rec" = " SUBSYSTEM=block  DEVICE=b$dev " ] &&
		ok "kmsg: '$msg' carries SUBSYSTEM=block DEVICE=b$dev" ||
		not_ok "kmsg record of '$msg': '$rec'"
done
grep ";block $disk: alias" /tmp/kmsg
finish
