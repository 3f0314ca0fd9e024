# The guest side of tests/system/run-all (busybox sh, Debian's systemd-udevd,
# the project's rules and binary). TEST_PHASE says which boot this is:
#   1  the first boot: give the disks their aliases (set) and check the links;
#   2  the reboot with the disks attached in another order: the same names
#      reach the same disks, the slot name follows the slot, hotplug, the
#      kernel's alias attribute, rename while mounted.
#   3  a q35 machine with NVMe drives in PCIe slots (pciehp): bind by slot,
#      map, LEDs, a hot-unplug;
#   4  the same drives in each other's slots: the names follow the bays;
#   5  the storage kernel with journald: a SATA disk failing a read, a USB
#      stick, the table given (sata-err, stick).
# Each disk image carries "DISKALIAS-MARKER <id>" at byte 4096, so the test
# knows which physical disk a node is. Lines for the host:
#   NODE <id> <kernel name>     where each marked disk is this boot
#   RESULT PASS|FAIL|SKIP <test>[: why]
#   TABLE-BEGIN ... TABLE-END   the table, for the next boot's /etc
#   HOTPLUG add|del|del-slot|usb-del|usb-add
#                               asks the host to hot-add or remove a disk
#                               (del-slot: the NVMe drive in PCIe slot 2;
#                               usb-: the USB stick)
#   DMESG-BEGIN ... DMESG-END   the boot's kernel log, at its end
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
da=/sbin/diskalias

marker() { dd if="$1" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\000' | head -n 1; }

# The disk (not partition) whose marker is @1, as /dev/NAME.
node_of() {
	for b in /sys/class/block/*; do
		[ -e "$b/partition" ] && continue
		[ "$(marker "/dev/${b##*/}")" = "DISKALIAS-MARKER $1" ] && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}

# The scsi_debug disk: the one SCSI disk without a marker, by its model.
scsi_debug_disk() {
	for b in /sys/block/sd*; do
		grep -q scsi_debug "$b/device/model" 2>/dev/null && { echo "/dev/${b##*/}"; return 0; }
	done
	return 1
}

# Where /dev/disk/by-alias/@1 leads, or nothing.
link_of() { [ -L "/dev/disk/by-alias/$1" ] && readlink -f "/dev/disk/by-alias/$1"; }

why=
bad() { why="${why:+$why; }$*"; }
result() { # result TEST: PASS when no bad() since the last result
	if [ -z "$why" ]; then echo "RESULT PASS $1"; else echo "RESULT FAIL $1: $why"; fi
	why=
}

# The alias reaches the disk with marker @2 (and resolve/name agree with the link).
check_alias() {
	node=$(link_of "$1")
	[ -n "$node" ] || { bad "no link for $1"; return; }
	m=$(marker "$node")
	[ "$m" = "DISKALIAS-MARKER $2" ] || bad "$1 -> $node carries '$m', not $2"
	# What they print; a table's bad lines elsewhere are reported on stderr.
	r=$($da resolve "$1" 2>/tmp/err) || r="$r $(cat /tmp/err)"
	[ "$r" = "$node" ] || bad "resolve $1 says '$r', the link $node"
	n=$($da name "$node" 2>/tmp/err) || n="$n $(cat /tmp/err)"
	[ "$n" = "$1" ] || bad "name $node says '$n', not $1"
}

# Bay n holds disk a, b, c, d at the first boot.
bay_id() { echo abcd | cut -c"$1"; }

show_nodes() {
	for id in scsi-a scsi-b scsi-c scsi-d scsi-e nvme virtio nvme-a nvme-b; do
		n=$(node_of $id) && echo "NODE $id ${n#/dev/}"
	done
}

wait_for() { # wait_for SECONDS COMMAND...
	t=$1; shift
	while [ "$t" -gt 0 ]; do
		"$@" && return 0
		sleep 1
		t=$((t - 1))
	done
	return 1
}

/lib/qemu-test/start-udev >/tmp/udev.log 2>&1 || { echo "RESULT FAIL udev: systemd-udevd did not start"; cat /tmp/udev.log; exit 1; }
show_nodes

case ${TEST_PHASE:-1} in
1)
	# Test 1: set, for disks and a partition; the links follow at once.
	a=$(node_of scsi-a)
	for n in 1 2 3 4; do
		$da set bay0$n "$(node_of scsi-$(bay_id $n))" || bad "set bay0$n failed"
	done
	$da set --by path slot2 "$(node_of scsi-c)" || bad "set --by path slot2 failed"
	$da set fast "$(node_of nvme)" || bad "set fast failed"
	$da set data "$(node_of virtio)" || bad "set data failed"
	$da set bootpart "${a}2" || bad "set bootpart failed"
	$da set spare wwn:0x5000c50015ea71f6 2>/dev/null || bad "set spare failed"
	sd=$(scsi_debug_disk) && { $da set dbg0 "$sd" || bad "set dbg0 failed"; }
	udevadm settle --timeout=60
	for n in 1 2 3 4; do check_alias bay0$n scsi-$(bay_id $n); done
	check_alias fast nvme
	check_alias data virtio
	[ "$(link_of slot2)" = "$(node_of scsi-c)" ] || bad "slot2 -> $(link_of slot2), not $(node_of scsi-c)"
	[ "$(link_of bay01p1)" = "${a}1" ] || bad "bay01p1 -> $(link_of bay01p1), not ${a}1"
	[ "$(link_of bootpart)" = "${a}2" ] || bad "bootpart -> $(link_of bootpart), not ${a}2"
	[ "$($da name "${a}2")" = bootpart ] || bad "name ${a}2 is not bootpart"
	[ "$($da resolve bay01p2)" = "${a}2" ] || bad "resolve bay01p2 is not ${a}2"
	[ -e /dev/disk/by-alias/spare ] && bad "spare has a link without its disk"
	result set-links
	ls -l /dev/disk/by-alias | sed 's/^/# /'

	# udev's database read through libudev, as lsblk reads it, gives what its files do.
	cols=KNAME,ALIAS,ID,PATH,WWN,SERIAL,STATE
	LD_DEBUG=files $da list -a -P -o $cols >/tmp/libudev.txt 2>/tmp/libudev.err || bad "list failed"
	grep -q 'file=libudev.so.1 .*dynamically loaded' /tmp/libudev.err || bad "libudev was not loaded"
	DISKALIAS_UDEV_DB=files $da list -a -P -o $cols >/tmp/files.txt || bad "list (files) failed"
	cmp -s /tmp/libudev.txt /tmp/files.txt || bad "libudev and udev's files disagree: $(diff /tmp/files.txt /tmp/libudev.txt | tr '\n' '|')"
	grep -q 'ALIAS="bay01" ID="[^"]' /tmp/libudev.txt || bad "no by-id link of bay01 through libudev: $(tr '\n' '|' </tmp/libudev.txt)"
	result libudev
	echo TABLE-BEGIN
	cat /etc/diskalias.conf
	echo TABLE-END
	;;
2)
	# Test 2: the same names reach the same disks; the log says which was which.
	for n in 1 2 3 4; do check_alias bay0$n scsi-$(bay_id $n); done
	check_alias fast nvme
	check_alias data virtio
	[ "$(link_of bay01p1)" = "$(node_of scsi-a)1" ] || bad "bay01p1 -> $(link_of bay01p1)"
	[ "$(link_of bootpart)" = "$(node_of scsi-a)2" ] || bad "bootpart -> $(link_of bootpart)"
	for name in bay01 bay02 bay03 bay04 fast data; do
		k=$(link_of $name)
		k=${k#/dev/}
		dmesg | grep -q "diskalias: $k is $name (" || bad "no record 'diskalias: $k is $name' in the kernel log"
	done
	# The helpers at boot read the table once and its index after that.
	[ -s /run/diskalias/table.index ] || bad "the udev helper left no index of the table in /run/diskalias"
	result reboot-reorder
	dmesg | grep 'diskalias: ' | sed 's/^/# /'

	# Test 3: the slot's name went to the new disk in the slot, not to the disk moved away.
	[ "$(marker "$(link_of slot2)")" = "DISKALIAS-MARKER scsi-e" ] ||
		bad "slot2 -> $(link_of slot2), not the new disk in slot 2 ($(node_of scsi-e))"
	$da name "$(node_of scsi-c)" 2>&1 | grep -q slot2 && bad "the moved disk is still slot2"
	[ "$($da resolve slot2)" = "$(node_of scsi-e)" ] || bad "resolve slot2 is not the new disk"
	result path-slot

	# Test 6: the kernel's alias attribute, set by udev at boot; a SCSI error names the alias.
	a=$(node_of scsi-a)
	if [ -e "/sys/block/${a#/dev/}/alias" ]; then
		for name in bay01 bay02 bay03 bay04 fast data slot2; do
			k=$(link_of $name)
			got=$(cat "/sys/block/${k#/dev/}/alias")
			# slot2's disk has no other alias; every other disk's primary name is its bay.
			[ "$got" = "$name" ] || bad "${k#/dev/}/alias is '$got', not $name"
		done
		sd=$(scsi_debug_disk)
		if [ -n "$sd" ] && [ "$(cat "/sys/block/${sd#/dev/}/alias")" = dbg0 ]; then
			echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts
			dd if="$sd" of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null &&
				bad "reading the medium error succeeded"
			echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
			sleep 1
			dmesg | grep -E '\[dbg0\].*(Sense Key|FAILED)' | head -n 3 | sed 's/^/# /'
			dmesg | grep -q '\[dbg0\].*Sense Key : Medium Error' || bad "no SCSI error message naming [dbg0]"
		else
			bad "the scsi_debug disk $sd has no alias dbg0"
		fi
		result kernel-alias

		# Test 6b: the kernel's announcement of an alias (DISK_ALIAS_CHANGE=1)
		# runs no helper. With the helper gone, an alias written by hand
		# goes back to the table's name and the disk keeps its link and
		# properties, from udev's record of its last event; an ordinary
		# change event, which needs the helper, loses them (so the helper's
		# absence is felt), and gets them back once the helper returns.
		k=$(link_of bay03)
		mv /lib/udev/diskalias /tmp/helper.off
		echo handwritten >"/sys/block/${k#/dev/}/alias"
		udevadm settle --timeout=60
		got=$(cat "/sys/block/${k#/dev/}/alias")
		[ "$got" = bay03 ] || bad "${k#/dev/}/alias is '$got' after a write by hand, not bay03"
		[ "$(link_of bay03)" = "$k" ] || bad "bay03 -> '$(link_of bay03)' after the kernel's announcement, not $k"
		udevadm info -q property -n "$k" | grep -qx DISKALIAS=bay03 ||
			bad "no DISKALIAS=bay03 in udev's record of $k after the kernel's announcement"
		udevadm trigger --action=change "/sys/block/${k#/dev/}"
		udevadm settle --timeout=60
		[ -e /dev/disk/by-alias/bay03 ] && bad "bay03 kept its link through a change event without the helper"
		mv /tmp/helper.off /lib/udev/diskalias
		udevadm trigger --action=change "/sys/block/${k#/dev/}"
		udevadm settle --timeout=60
		[ "$(link_of bay03)" = "$k" ] || bad "bay03 -> '$(link_of bay03)' with the helper back, not $k"
		got=$(cat "/sys/block/${k#/dev/}/alias")
		[ "$got" = bay03 ] || bad "${k#/dev/}/alias is '$got' with the helper back, not bay03"
		# A change asked for by hand, the alias already set (ALIAS=bay03 in
		# the event), is a naming: one more line in the log, not none.
		before=$(dmesg | grep -c "diskalias: ${k#/dev/} is bay03 (")
		udevadm trigger --action=change "/sys/block/${k#/dev/}"
		udevadm settle --timeout=60
		after=$(dmesg | grep -c "diskalias: ${k#/dev/} is bay03 (")
		[ "$after" = $((before + 1)) ] ||
			bad "a change by hand left $((after - before)) records '${k#/dev/} is bay03' in the log, not 1"
		result alias-event

		# unset: udev clears the attribute.
		k=$(link_of bay04)
		$da unset bay04 || bad "unset bay04 failed"
		udevadm settle --timeout=60
		got=$(cat "/sys/block/${k#/dev/}/alias")
		[ -z "$got" ] || bad "${k#/dev/}/alias is '$got' after unset"
		[ -e /dev/disk/by-alias/bay04 ] && bad "the link of bay04 stayed after unset"
		result alias-unset
	else
		echo "RESULT SKIP kernel-alias: the kernel has no alias attribute"
	fi

	# Test 4: hot-add and hot-remove: the link comes and goes, the table stays.
	sum=$(md5sum </etc/diskalias.conf)
	echo "HOTPLUG add"
	wait_for 120 test -L /dev/disk/by-alias/spare || bad "no link for spare after the hot-add"
	udevadm settle --timeout=60
	[ "$(marker "$(link_of spare)")" = "DISKALIAS-MARKER scsi-f" ] || bad "spare -> $(link_of spare)"
	echo "HOTPLUG del"
	wait_for 120 test ! -e /dev/disk/by-alias/spare || bad "the link of spare stayed after the hot-remove"
	[ "$(md5sum </etc/diskalias.conf)" = "$sum" ] || bad "the table changed"
	result hotplug

	# Test 5: rename while mounted through the link: refused, naming the mount;
	# forced, the old link keeps working.
	a=$(node_of scsi-a)
	mke2fs -q /dev/disk/by-alias/bay01p1 >/dev/null 2>&1 || bad "mke2fs failed"
	mkdir -p /mnt/data
	if mount -t ext2 /dev/disk/by-alias/bay01p1 /mnt/data; then
		echo hello >/mnt/data/file
		grep /mnt/data /proc/self/mountinfo | sed 's/^/# /'
		out=$($da rename bay01 shelf01 2>&1) && bad "rename while mounted succeeded"
		echo "$out" | sed 's/^/# /'
		echo "$out" | grep -q "mounted on /mnt/data" || bad "the refusal does not name the mount"
		grep -q 'alias bay01 ' /etc/diskalias.conf || bad "the refused rename changed the table"
		$da rename --force bay01 shelf01 2>&1 | sed 's/^/# /'
		udevadm settle --timeout=60
		[ "$(link_of shelf01)" = "$a" ] || bad "shelf01 -> $(link_of shelf01), not $a"
		[ "$(link_of shelf01p1)" = "${a}1" ] || bad "shelf01p1 -> $(link_of shelf01p1)"
		[ "$(link_of bay01p1)" = "${a}1" ] || bad "the old link bay01p1 went: $(link_of bay01p1)"
		[ "$(cat /mnt/data/file)" = hello ] || bad "the mount does not read back"
		umount /mnt/data || bad "umount failed"
	else
		bad "mount through the link failed"
	fi
	result rename-mounted
	ls -l /dev/disk/by-alias | sed 's/^/# /'

	# Test 7: a table with bad lines and an alias on a serial two disks
	# carry (b and e, SER-B), every device told at once as at boot: the
	# bad lines bind nothing, every other name stays, the shared serial
	# names neither disk, and the kernel log says both, once.
	cp /etc/diskalias.conf /tmp/good.conf
	printf 'alias typo wwn:\nalias sdz serial:X\nalias twin serial:SER-B\n' >>/etc/diskalias.conf
	udevadm trigger --action=change --subsystem-match=block
	udevadm settle --timeout=120
	for name in bay02 bay03 fast data slot2; do
		[ -L /dev/disk/by-alias/$name ] || bad "$name lost its link to a bad line elsewhere"
	done
	check_alias bay02 scsi-b
	[ -e /dev/disk/by-alias/twin ] && bad "twin -> $(link_of twin), though two disks carry SER-B"
	$da resolve twin >/dev/null 2>&1 && bad "resolve twin answered"
	n=$(dmesg | grep -c 'diskalias.conf:[0-9]*: invalid identity .wwn:.')
	[ "$n" = 1 ] || bad "the bad line is in the kernel log $n times, not once"
	dmesg | grep -q 'is not named twin: serial:SER-B is also on' || bad "the kernel log does not say why twin names nothing"
	dmesg | grep -E 'diskalias.conf:[0-9]+:|not named' | sed 's/^/# /'
	result trust
	cp /tmp/good.conf /etc/diskalias.conf

	# Test 8: the snapshot of the last scan and the kept rewriters under
	# hotplug churn. dbg0's disk is deleted and a new scsi_debug disk
	# (another WWN) takes its kernel name, five times: asked at once,
	# before udev has seen anything, no answer names the new disk dbg0
	# (filter, name and resolve each kept a rewriter naming the old one);
	# once udev settles, name, resolve and filter say what list (a scan
	# of sysfs, never the snapshot) says.
	udevadm settle --timeout=60
	sd=$(scsi_debug_disk)
	k=${sd#/dev/}
	[ -n "$k" ] && [ "$($da name "$k")" = dbg0 ] || bad "the scsi_debug disk $sd is not dbg0"
	[ -s /run/diskalias/devices ] || bad "name left no snapshot in /run/diskalias"
	for i in 1 2 3 4 5; do
		[ -n "$k" ] || break
		# Round 1: $k is dbg0. Later rounds: the new disk of the round before, with no alias.
		old=$($da name "$k" 2>/dev/null)
		[ "$(echo "[$k]" | $da filter)" = "[${old:-$k}]" ] || bad "round $i: filter does not name $k ${old:-$k}"
		[ $i -gt 1 ] || [ "$($da resolve dbg0)" = "/dev/$k" ] || bad "round $i: resolve dbg0 is not /dev/$k"
		for f in alias reverse; do
			[ $i -gt 1 ] || [ -s /run/diskalias/rewriter-$f ] || bad "round $i: no rewriter-$f kept in /run/diskalias"
		done
		seq0=$(cat /sys/kernel/uevent_seqnum)
		echo 1 >"/sys/block/$k/device/delete"
		out=$($da name "$k" 2>&1) && bad "round $i: name $k answered '$out' with no $k"
		out=$($da resolve dbg0 2>&1) && bad "round $i: resolve dbg0 answered '$out', its disk is gone"
		echo 1 >/sys/bus/pseudo/drivers/scsi_debug/add_host
		wait_for 30 test -e "/sys/block/$k" || { bad "round $i: no new disk took the name $k"; break; }
		out=$(echo "[$k]" | $da filter)
		[ "$out" = "[$k]" ] || bad "round $i: filter says '$out' of the new $k (a kept rewriter was stale)"
		out=$($da name "$k" 2>/dev/null)
		[ "$out" = dbg0 ] && bad "round $i: the new $k is named dbg0 (the snapshot was stale)"
		$da resolve dbg0 >/dev/null 2>&1 && bad "round $i: resolve dbg0 answered, its disk is gone"
		udevadm settle --timeout=60
		want=$($da list -r -n -o KNAME,TYPE,ALIAS 2>/dev/null | awk '$2 == "disk" && $3 != "" { print $1 "=" $3 }' | sort)
		got=$(for d in /sys/block/*; do
			d=${d##*/}
			n=$($da name "$d" 2>/dev/null) && echo "$d=$n"
		done | sort)
		[ "$got" = "$want" ] || bad "round $i: name says '$got', list says '$want'"
		[ "$(echo "[$k] $k" | $da filter)" = "[$k] $k" ] || bad "round $i: filter named the new $k"
		echo "# round $i: uevents $seq0 -> $(cat /sys/kernel/uevent_seqnum), $k is a new disk, named: $(echo "$got" | tr '\n' ' ')"
	done
	result snapshot-churn

	# Test 10: names told before the coldplug (diskalias-boot.service). A
	# table binding the five SCSI disks by WWN only, /run/diskalias empty as
	# at boot: `udev --boot` tells them, and a coldplug of add events imports
	# their names and their partitions' without running the helper for
	# them (a wrapper in its place counts its runs); links, kernel aliases
	# and the log's records are as the helper makes them. Devices it cannot
	# tell (NVMe, virtio) still run the helper.
	cp /etc/diskalias.conf /tmp/good.conf
	$da list -r -n -o KNAME,TYPE,WWN | awk '$2 == "disk" && $1 ~ /^sd/ && $3 ~ /^0x/ { print $1, $3 }' >/tmp/wwns
	: >/etc/diskalias.conf
	for id in scsi-a scsi-b scsi-c scsi-d scsi-e; do
		k=$(node_of $id) || { bad "no disk $id"; continue; }
		w=$(awk -v k="${k#/dev/}" '$1 == k { print $2 }' /tmp/wwns)
		echo "alias boot-$id wwn:$w" >>/etc/diskalias.conf
	done
	rm -rf /run/diskalias
	mv /lib/udev/diskalias /tmp/helper
	printf '#!/bin/sh\necho "$2" >>/tmp/helper-runs\nexec /tmp/helper "$@"\n' >/lib/udev/diskalias
	chmod +x /lib/udev/diskalias
	: >/tmp/helper-runs
	out=$($da udev --boot 2>&1) || bad "udev --boot failed: $out"
	echo "# $out"
	ls /run/diskalias/boot | sed 's/^/# boot file /'
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=120
	for id in scsi-a scsi-b scsi-c scsi-d scsi-e; do
		k=$(node_of $id) && k=${k#/dev/} || continue
		grep -qx "$k" /tmp/helper-runs && bad "the helper ran for $k ($id) after udev --boot"
		check_alias boot-$id $id
		if [ -e "/sys/block/$k/alias" ]; then
			got=$(cat "/sys/block/$k/alias")
			[ "$got" = boot-$id ] || bad "$k/alias is '$got', not boot-$id"
		fi
		n=$(dmesg | grep -c "diskalias: $k is boot-$id (")
		[ "$n" = 1 ] || bad "$n kernel log records '$k is boot-$id', not 1"
	done
	a=$(node_of scsi-a)
	for p in 1 2; do
		grep -qx "${a#/dev/}$p" /tmp/helper-runs && bad "the helper ran for the partition ${a#/dev/}$p"
		[ "$(link_of boot-scsi-a$p)" = "${a}$p" ] || bad "boot-scsi-a$p -> '$(link_of boot-scsi-a$p)', not ${a}$p"
	done
	v=$(node_of virtio)
	grep -qx "${v#/dev/}" /tmp/helper-runs || bad "the helper did not run for ${v#/dev/}, which udev --boot cannot tell"
	echo "# helper runs: $(sort /tmp/helper-runs | tr '\n' ' ')"
	for p in 1 2; do
		echo "# ${a#/dev/}$p: $(udevadm info -q property -n "${a}$p" | grep -E '^(DISKALIAS|ID_WWN|PARTN)' | tr '\n' ' ')"
	done
	mv /tmp/helper /lib/udev/diskalias
	cp /tmp/good.conf /etc/diskalias.conf
	udevadm trigger --action=change --subsystem-match=block
	udevadm settle --timeout=120
	[ -e /run/diskalias/boot ] && bad "the names told before the coldplug outlived a new table"
	result boot-names
	;;
3)
	# Test 9: NVMe drives in PCIe slots (q35 pcie-root-port, real pciehp):
	# bound by their slot, an empty slot named too; the map; the LEDs
	# through the attention indicator; a hot-unplug leaves the bay empty.
	slots=$(ls /sys/bus/pci/slots 2>/dev/null | tr '\n' ' ')
	[ "$slots" = "1 2 3 " ] || bad "PCIe slots are '$slots', not 1 2 3 (no pciehp?)"
	$da set --by slot u2a "$(node_of nvme-a)" || bad "set --by slot u2a failed"
	$da set --by slot u2b "$(node_of nvme-b)" || bad "set --by slot u2b failed"
	$da set u2c slot:pcie/3 2>/dev/null || bad "set u2c slot:pcie/3 failed"
	grep -q '^alias u2a slot:pcie/1$' /etc/diskalias.conf || bad "u2a is not bound to slot:pcie/1"
	udevadm settle --timeout=60
	check_alias u2a nvme-a
	check_alias u2b nvme-b
	[ -e /dev/disk/by-alias/u2c ] && bad "the empty bay u2c has a link"
	result slot-bind
	$da map | sed 's/^/# /'
	$da map -J >/tmp/map.json || bad "map -J failed"
	[ "$(grep -c '"slot":' /tmp/map.json)" = 3 ] || bad "map -J does not show 3 slots"
	grep -A 12 '"slot": "3"' /tmp/map.json | grep -q '"status": "empty"' || bad "slot 3 is not shown empty"
	grep -A 12 '"slot": "1"' /tmp/map.json | grep -q "\"device\": \"$(basename "$(node_of nvme-a)")\"" ||
		bad "slot 1 does not hold nvme-a"
	result slot-map
	att() { cat /sys/bus/pci/slots/$1/attention; }
	$da locate u2a >/dev/null || bad "locate u2a failed"
	[ "$(att 1)" = 2 ] || bad "slot 1's attention reads $(att 1) after locate, not 2 (blink)"
	$da fault "$(node_of nvme-b)" >/dev/null || bad "fault on nvme-b's node failed"
	[ "$(att 2)" = 1 ] || bad "slot 2's attention reads $(att 2) after fault, not 1"
	$da locate --off u2b >/dev/null
	[ "$(att 2)" = 1 ] || bad "locate --off put out slot 2's fault indicator"
	$da fault --off u2b >/dev/null && $da locate --off u2a >/dev/null || bad "--off failed"
	[ "$(att 1)$(att 2)" = 00 ] || bad "attention reads $(att 1),$(att 2) after --off"
	$da locate u2c >/dev/null || bad "locate of the empty bay u2c failed"
	[ "$(att 3)" = 2 ] || bad "the empty slot 3's attention reads $(att 3), not 2"
	$da locate --off u2c >/dev/null
	$da map | grep -q '^ *3 .* on ' && bad "map still shows slot 3 on"
	result slot-leds
	echo "HOTPLUG del-slot"
	wait_for 120 test ! -e /dev/disk/by-alias/u2b || bad "the link of u2b stayed after the unplug"
	wait_for 30 sh -c '[ "$(cat /sys/bus/pci/slots/2/adapter)" = 0 ]' || bad "slot 2 still shows an adapter"
	$da map -J | grep -A 12 '"slot": "2"' | grep -q '"status": "empty"' || bad "map does not show slot 2 empty"
	$da check 2>&1 | grep -q "u2b.*the bay is empty (PCIe slot 2" || bad "check does not say u2b's bay is empty: $($da check 2>&1 | tr '\n' '|')"
	result slot-unplug
	echo TABLE-BEGIN
	cat /etc/diskalias.conf
	echo TABLE-END
	;;
4)
	# Test 10: the drives trade slots across the reboot: each name stays
	# with its bay, now holding the other drive.
	check_alias u2a nvme-b
	check_alias u2b nvme-a
	result slot-follows-bay
	$da map | sed 's/^/# /'
	;;
5)
	# Test 11: Debian's journald, reading the kernel log, finds a disk's
	# messages by its by-alias link: the sd lines of a read error carry
	# their SCSI device. libata's "ata1.00:" lines carry none; filter names
	# them. On a kernel with the series (the attribute is there) the
	# kernel names the alias itself, which the udev rules set: sd's
	# "[sata-err]", libata's "ata1.00: [sata-err] ".
	/lib/qemu-test/start-journald || bad "journald did not start"
	sata=$(node_of sata) || bad "no disk carries the sata marker"
	[ "$(link_of sata-err)" = "$sata" ] || bad "sata-err leads to '$(link_of sata-err)', not $sata"
	sd_name=${sata#/dev/} ata_alias=
	if [ -e "/sys/block/${sata#/dev/}/alias" ]; then
		sd_name=sata-err ata_alias="\\[sata-err\\] "
		[ "$(cat "/sys/block/${sata#/dev/}/alias")" = sata-err ] ||
			bad "udev did not set the kernel's alias of $sata: '$(cat "/sys/block/${sata#/dev/}/alias")'"
	fi
	dd if="$sata" of=/dev/null bs=512 skip=4660 count=1 iflag=direct 2>/dev/null &&
		bad "the injected read error did not happen"
	sleep 2
	if [ -n "$ata_alias" ]; then
		dmesg | grep -q "ata[0-9]*\.00: \[sata-err\] failed command: READ" ||
			bad "the kernel's libata lines do not name the alias: $(dmesg | grep 'failed command' | head -n 1)"
	fi
	journalctl -k -q --no-pager /dev/disk/by-alias/sata-err >/tmp/j.link 2>&1
	grep -q "\[$sd_name\] tag#[0-9]* Sense Key" /tmp/j.link ||
		bad "journalctl -k /dev/disk/by-alias/sata-err shows no Sense Key line: $(tail -n 3 /tmp/j.link | tr '\n' '|')"
	# journalctl matches the device and its parents: the sd lines' records
	# name the SCSI device (+scsi:H:C:T:L), which has no links, so a match
	# on _UDEV_DEVLINK= finds none of them (doc/logs.md says so).
	journalctl -k -q --no-pager -o verbose /dev/disk/by-alias/sata-err >/tmp/j.verbose 2>&1
	grep -q "_KERNEL_DEVICE=+scsi:" /tmp/j.verbose || bad "no record by the link names a SCSI device"
	grep '_KERNEL_DEVICE=\|_UDEV_' /tmp/j.verbose | sort | uniq -c | sed 's/^/# /'
	journalctl -k -q --no-pager _UDEV_DEVLINK=/dev/disk/by-alias/sata-err 2>&1 | grep -q "Sense Key" &&
		bad "_UDEV_DEVLINK=/dev/disk/by-alias/sata-err finds the sd lines: doc/logs.md says it cannot"
	grep -q "ata[0-9]*\.00: ${ata_alias}failed command" /tmp/j.link &&
		bad "journalctl found libata's lines by the device: doc/logs.md says no query can"
	journalctl -k -q --no-pager | $da filter >/tmp/j.named
	grep -q "sata-err: ${ata_alias}failed command: READ" /tmp/j.named ||
		bad "journalctl -k | diskalias filter leaves libata's failed command line: $(grep 'failed command' /tmp/j.named | head -n 1)"
	grep -q "sd sata-err: \[sata-err\] tag#[0-9]* Sense Key" /tmp/j.named ||
		bad "journalctl -k | diskalias filter leaves the sd lines"
	result journald
	# Test 12: the USB core names the stick by its USB device ("usb 1-1:"),
	# live, and from the udev helper's record once the stick is gone.
	stick=$(node_of usb) || bad "no disk carries the usb marker"
	[ "$(link_of stick)" = "$stick" ] || bad "stick leads to '$(link_of stick)', not $stick"
	dev=$(readlink -f "/sys/block/${stick#/dev/}" | tr / '\n' | grep -E '^[0-9]+-[0-9.]+$' | tail -n 1)
	dmesg | $da filter | grep -q "usb stick: new .*USB device number" ||
		bad "filter leaves the stick's USB device: $(dmesg | grep "usb $dev: new" | head -n 1)"
	dmesg | grep -q "diskalias: ${stick#/dev/} is stick (serial:USB-STICK-5; .*; usb $dev)" ||
		bad "the udev record does not name usb $dev: $(dmesg | grep 'diskalias: .* is stick')"
	echo "HOTPLUG usb-del"
	wait_for 60 test ! -e /dev/disk/by-alias/stick || bad "the link of stick stayed after the unplug"
	wait_for 10 sh -c "dmesg | grep -q 'usb $dev: USB disconnect'" || bad "no 'usb $dev: USB disconnect' in the log"
	dmesg | $da filter --history | grep -q "usb stick: USB disconnect" ||
		bad "filter --history does not name the disconnect: $(dmesg | $da filter --history | grep 'USB disconnect')"
	echo "HOTPLUG usb-add"
	wait_for 60 test -e /dev/disk/by-alias/stick || bad "the stick did not come back when plugged in again"
	udevadm settle --timeout=60
	check_alias stick usb
	result usb-handle
	;;
esac
# The whole log of the boot (its mapping records among it), for the host's history test.
echo DMESG-BEGIN
dmesg -s 4194304
echo DMESG-END
exit 0
