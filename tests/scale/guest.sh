# The guest side of tests/scale/run (busybox sh, Debian's systemd-udevd,
# the project's rules and binary): coldplug of the scsi_debug disks the
# kernel found at boot, timed without the diskalias rules and with them
# and a table naming every disk, and with a helper that does nothing (the
# cost of starting any helper). Lines for the host:
#   DISKS N                      disks the kernel found
#   COLDPLUG WHAT N S            a block coldplug (trigger + settle) took S seconds:
#                                WHAT norules, floor (a helper that does nothing),
#                                link (a rule adding one link, no program),
#                                rules-first (the table new to the helper), rules,
#                                rules-boot (after udev --boot)
#   BOOT N S ...                 udev --boot took S seconds, and what it said
#   HELPER rules-boot N runs     helper runs in the coldplug after udev --boot
#   EVENTS WHAT ACTION=N...      the udev events of that coldplug, by action
#   LINKS N                      by-alias links after the coldplug with the rules
#   RESULT PASS|FAIL <test>[: why]
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
da=/sbin/diskalias
rules=/lib/udev/rules.d/65-diskalias.rules
why=""
bad() { why="${why:+$why; }$*"; }
now() { cut -d' ' -f1 /proc/uptime; }
# coldplug LABEL: every block device's add event again, until udev is idle;
# the events udev processed, by action (a disk whose kernel alias the rules
# set or change has a change event too).
coldplug() {
	local t0 t1 mon
	udevadm monitor --udev --subsystem-match=block >/tmp/monitor.$1 2>&1 &
	mon=$!
	sleep 1
	t0=$(now)
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=900 || bad "$1: udev did not settle in 900 s"
	t1=$(now)
	sleep 1
	kill $mon
	echo "COLDPLUG $1 $n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	echo "EVENTS $1 $(awk '/^UDEV +\[/ { c[$3]++ } END { for (a in c) printf "%s=%d ", a, c[a] }' /tmp/monitor.$1)"
}

mv "$rules" /tmp/rules.off
# As /lib/qemu-test/start-udev does, with time for a thousand disks under TCG.
mkdir -p /run/udev
/lib/systemd/systemd-udevd --daemon --resolve-names=never >/tmp/udev.log 2>&1 ||
	{ echo "RESULT FAIL coldplug: systemd-udevd did not start"; cat /tmp/udev.log; exit 1; }
udevadm trigger --action=add --type=subsystems
udevadm trigger --action=add --type=devices
udevadm settle --timeout=900 || bad "the first coldplug did not settle in 900 s"
n=$(ls -d /sys/block/sd* | wc -l)
echo "DISKS $n"
# One alias per disk, bound to its WWN, as a JBOD's table is.
$da list -r -n -o KNAME,TYPE,WWN | awk '$2 == "disk" && $3 != "" { printf "alias bay%05d wwn:%s\n", ++i, $3 }' >/etc/diskalias.conf
echo "TABLE $(wc -l </etc/diskalias.conf) aliases"
coldplug norules-first
coldplug norules
# The floor: the shipped rules with a program that does nothing in the
# helper's place (what starting any helper costs here, under TCG most of it).
floor=/lib/udev/rules.d/65-floor.rules
sed 's|IMPORT{program}="[^"]*"|IMPORT{program}="/bin/true"|' /tmp/rules.off >"$floor"
grep -q 'IMPORT{program}="/bin/true"' "$floor" || bad "no helper to replace in $rules"
udevadm control --reload
coldplug floor
rm "$floor"
# What udev charges for one more link a disk, with no program: the part of
# any naming rule no helper can save.
printf 'ACTION!="remove", SUBSYSTEM=="block", ENV{DEVTYPE}=="disk", KERNEL=="sd*", SYMLINK+="disk/by-alias/floor-%%k"\n' >"$floor"
udevadm control --reload
coldplug link
rm "$floor"
mv /tmp/rules.off "$rules"
udevadm control --reload
coldplug rules-first
coldplug rules
links=$(ls /dev/disk/by-alias 2>/dev/null | wc -l)
echo "LINKS $links"
[ "$links" = "$(wc -l </etc/diskalias.conf)" ] || bad "$links by-alias links for $(wc -l </etc/diskalias.conf) aliases"

# A boot with diskalias-boot.service: `diskalias udev --boot` names the
# disks from sysfs before the coldplug, and the rules import each disk's
# names instead of running the helper. /run/diskalias starts empty, as at
# boot; the helper is counted by a wrapper in its place.
rm -rf /run/diskalias
mv /lib/udev/diskalias /tmp/helper
printf '#!/bin/sh\necho "$2" >>/tmp/helper-runs\nexec /tmp/helper "$@"\n' >/lib/udev/diskalias
chmod +x /lib/udev/diskalias
: >/tmp/helper-runs
t0=$(now)
$da udev --boot >/tmp/boot.out 2>&1 || bad "udev --boot failed: $(cat /tmp/boot.out)"
t1=$(now)
echo "BOOT $n $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') $(cat /tmp/boot.out)"
files=$(ls /run/diskalias/boot | wc -l)
[ "$files" = "$n" ] || bad "udev --boot wrote $files files for $n disks"
coldplug rules-boot
runs=$(grep -c . /tmp/helper-runs || true)
echo "HELPER rules-boot $runs runs: $(sort /tmp/helper-runs | head -n 5 | tr '\n' ' ')"
[ "$runs" = 0 ] || bad "the helper ran $runs times in a coldplug after udev --boot"
links=$(ls /dev/disk/by-alias 2>/dev/null | wc -l)
[ "$links" = "$(wc -l </etc/diskalias.conf)" ] || bad "after udev --boot: $links by-alias links for $(wc -l </etc/diskalias.conf) aliases"
# Every link still leads to the disk of its WWN.
wrong=$($da list -r -n -o KNAME,TYPE,WWN | awk '$2 == "disk" && $3 != "" { print $1, $3 }' | while read -r k w; do
	a=$(awk -v w="$w" '$3 == "wwn:" w { print $2 }' /etc/diskalias.conf)
	[ "$(readlink -f "/dev/disk/by-alias/$a")" = "/dev/$k" ] || echo "$a"
done | wc -l)
[ "$wrong" = 0 ] || bad "after udev --boot: $wrong links lead elsewhere than their WWN's disk"
mv /tmp/helper /lib/udev/diskalias
# udev says so in the kernel log when an event is slow or its worker is killed.
slow=$(dmesg | grep -c -E 'is taking a long time|timeout|killed' || true)
dmesg | grep -E 'is taking a long time|timeout|killed' | head -n 5 | sed 's/^/# /'
[ "$slow" = 0 ] || bad "$slow kernel log lines of slow or killed udev events"
[ -n "$why" ] && echo "RESULT FAIL coldplug: $why" || echo "RESULT PASS coldplug"
exit 0
