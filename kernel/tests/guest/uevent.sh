# Test 3: setting and clearing an alias sends a "change" uevent carrying
# ALIAS= and DISK_ALIAS_CHANGE=1, seen by a netlink listener (busybox
# uevent); every later uevent of the disk carries ALIAS= while set, but not
# DISK_ALIAS_CHANGE=, which a synthetic one cannot ask for; rewriting
# the same value sends nothing; the log line carries the disk's metadata in
# /dev/kmsg.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias
devpath=$(cd -P /sys/block/$disk && pwd)
devpath=${devpath#/sys}

uevent sh -c 'echo "$ACTION $DEVPATH ALIAS=[${ALIAS-unset}] DISK_ALIAS_CHANGE=[${DISK_ALIAS_CHANGE-unset}]" >>/tmp/events' &
listener=$!
sleep 1
echo bay07 >$A
echo bay07 >$A
sleep 1
echo change >/sys/block/$disk/uevent
# A synthetic event's variables become SYNTH_ARG_KEY, and a key is letters
# and digits only: one cannot ask for DISK_ALIAS_CHANGE, nor set ALIAS.
# (No newline: the kernel would take it for part of the last value.)
printf "change 5f0c3b9e-2d4a-4c1e-9b7a-0d2e6f8a1c34 DISK_ALIAS_CHANGE=1" >/sys/block/$disk/uevent 2>/dev/null &&
	not_ok "a synthetic change asking for DISK_ALIAS_CHANGE=1 was sent" ||
	ok "a synthetic change asking for DISK_ALIAS_CHANGE=1 is refused"
printf "change 5f0c3b9e-2d4a-4c1e-9b7a-0d2e6f8a1c34 ALIAS=other" >/sys/block/$disk/uevent ||
	not_ok "a synthetic change with ALIAS=other was refused"
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
change $devpath ALIAS=[bay07] DISK_ALIAS_CHANGE=[1]
change $devpath ALIAS=[bay07] DISK_ALIAS_CHANGE=[unset]
change $devpath ALIAS=[bay07] DISK_ALIAS_CHANGE=[unset]
change $devpath ALIAS=[] DISK_ALIAS_CHANGE=[1]
change $devpath ALIAS=[unset] DISK_ALIAS_CHANGE=[unset]
EOW
if cmp -s /tmp/disk-events /tmp/want; then
	ok "change uevents: set, two synthetic changes, cleared, synthetic change"
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
