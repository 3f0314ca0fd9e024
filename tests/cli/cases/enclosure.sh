# Bays as identities (slot:), the chassis map, and the locate/fault LEDs,
# on the sysfs shapes of drivers/misc/enclosure.c and drivers/scsi/ses.c:
# two daisy-chained 12-bay shelves (components by number; by a repeated
# descriptor, suffixed -1, -2, ...) and a JBOD split in halves that report
# one enclosure id; then NVMe U.2 bays as PCIe slots (pciehp, NPEM).
fixture sas-chain
encA=$ROOT/sys/class/enclosure/0:0:10:0
show() { for f; do printf '%s: %s\n' "${f#"$ROOT"/}" "$(cat "$f")"; done; }
da list -o NAME,HCTL,ENCLOSURE,SLOT
da set --by slot a3 sdd
da set b12 sdu --by slot
da set b5 slot:0x500304801f3c1e7f/5
da set x slot:0x500304801f3c1e7f/05
da set x slot:enclosure7
da set split0 sdv --by slot
da set --by slot boot sdv
printf 'alias gone slot:0x500304801f3c1e7f/44\nalias off slot:0x5000000000000001/1\nalias split slot:0x5000ccab0405e000/1\nalias u2 slot:pcie/9\n' >>"$ROOT/etc/diskalias.conf"
cat "$ROOT/etc/diskalias.conf"
da check
da list -o NAME,ALIAS,ENCLOSURE,SLOT,STATE | grep -v '  $'
da resolve a3 b12
da name sdd sdu
echo 'sd 0:0:3:0: [sdd] tag#12 Sense Key : Medium Error [current]' | da filter
da map
da map -J | head -n 30
# LEDs: alias, kernel name, an empty bay's alias, a slot: identity.
da locate a3 sdb b5 slot:0x500304801f3c1d3f/9
show "$encA/3/locate" "$encA/1/locate" "$encA/9/locate" "$ROOT/sys/class/enclosure/0:0:22:0/Disk-4/locate"
da map | sed -n '2,6p'
da locate --off a3 sdb b5 slot:0x500304801f3c1d3f/9
show "$encA/3/locate" "$encA/1/locate"
da fault a3
da fault --off a3
show "$encA/3/fault"
# A disk in a split enclosure: its bay is the one that holds it; a slot:
# identity there cannot be told apart.
da fault sdv
da fault --off sdv
da locate slot:0x5000ccab0405e000/1
# Nothing is switched unless every name is good.
da locate sdb nosuchdisk
da locate sdb slot:0x500304801f3c1d3f/77
show "$encA/1/locate"
# One bay cannot take it: the ones already switched are put back.
rm "$encA/4/locate" && mkdir "$encA/4/locate"
da locate sdb sde sdf
show "$encA/1/locate" "$encA/5/locate"
# A planted symlink is never written through.
rmdir "$encA/4/locate" && ln -s ../../../../../../../../../../../../../etc/victim "$encA/4/locate"
echo untouched >"$ROOT/etc/victim"
da locate sde
cat "$ROOT/etc/victim"
rm "$encA/4/locate" && echo 0 >"$encA/4/locate"
da locate --timeout 0 sdg
da locate --off --timeout 2 sdg
da locate --timeout 1 sda
show "$encA/0/locate"
# The name follows the bay: the disks of bays 3 and 4 trade places (the
# links enclosure.c makes, both ways), and the kernel counts the events.
into_bay() { # DISK COMPONENT
	local sdev c=$encA/$2
	sdev=$(readlink -f "$ROOT/sys/class/block/$1/device")
	rm -f "$sdev"/enclosure_device:* "$c/device"
	ln -sr "$sdev" "$c/device"
	ln -sr "$c" "$sdev/enclosure_device:$2"
}
into_bay sdd 4
into_bay sde 3
da resolve a3
da name sdd sde
da map | sed -n "5,7p"

# NVMe U.2 bays: PCIe slots 4 (pciehp attention), 5 (NPEM on its port), 6 (empty).
fixture nvme-server
da list -o NAME,ENCLOSURE,SLOT
da set --by slot u2a nvme1n1
da set --by slot u2b nvme0n1
da set u2c slot:pcie/6
da check
da map
da locate u2a u2c
show "$ROOT/sys/devices/pci0000:00/0000:00:03.0/leds/0000:00:03.0:enclosure:locate/brightness" "$ROOT/sys/bus/pci/slots/6/attention"
da fault u2c
show "$ROOT/sys/bus/pci/slots/6/attention"
da locate --off u2c
show "$ROOT/sys/bus/pci/slots/6/attention"
da fault --off u2c
da locate nvme0n2
show "$ROOT/sys/bus/pci/slots/4/attention"
da map -J | grep -c '"slot"'

# The udev helper finds the bay itself (a slot is no udev property): from
# the SCSI device's enclosure_device link, the NVMe controller's PCI slot.
fixture sas-chain
printf 'alias a3 slot:0x500304801f3c1d3f/3\nalias b12 slot:0x500304801f3c1e7f/12\nalias split slot:0x5000ccab0405e000/1\n' | table
: >"$ROOT/dev/kmsg"
ud() { local k=$1; shift; echo "\$ diskalias udev $k"; env -i DISKALIAS_SYSROOT="$ROOT" ACTION=add SUBSYSTEM=block DEVTYPE=disk "$@" "$bin" udev "$k" 2>&1; local rc=$?; [ $rc -eq 0 ] || echo "[exit $rc]"; }
devpath() { local p; p=$(readlink -f "$ROOT/sys/class/block/$1"); echo "${p#"$ROOT"/sys}"; }
ud sdd DEVPATH="$(devpath sdd)" MAJOR=8 MINOR=48 ID_WWN=0x5000cca264a10003
ud sdu DEVPATH="$(devpath sdu)" MAJOR=65 MINOR=64 ID_WWN=0x5000cca264a10014
ud sdw DEVPATH="$(devpath sdw)" MAJOR=65 MINOR=96 ID_WWN=0x5000cca264a10016
# The other half's slot 1 carries the same identity: neither is named (the
# helper's claims see both, as for a WWN two devices share).
ud sdz DEVPATH="$(devpath sdz)" MAJOR=65 MINOR=144 ID_WWN=0x5000cca264a10019
ud sdw DEVPATH="$(devpath sdw)" MAJOR=65 MINOR=96 ID_WWN=0x5000cca264a10016
cat "$ROOT/dev/kmsg"
fixture nvme-server
printf 'alias u2a slot:pcie/5\n' | table
: >"$ROOT/dev/kmsg"
ud nvme1n1 DEVPATH="$(devpath nvme1n1)" MAJOR=259 MINOR=6 ID_WWN=eui.36344730522001040025384500000001
