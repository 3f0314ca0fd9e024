# udev: the helper udev rules import, driven by udev's properties alone.
fixture mixed
table <<'T'
alias bay07 wwn:naa.5000c500a1b2c3d4
alias boot partuuid:0a1b2c3d-02
alias label-a serial:SER-A
alias data serial:VBLK-1
alias nvfast wwn:nvme.1b36-4e564d452d31-5145-1
alias slot3 path:pci-0000:00:05.0-scsi-0:0:3:0
alias dblog serial:S4EVNX0M123456
T
: >"$ROOT/dev/kmsg"
# Each call gets only what udev would hand it.
ud() { local k=$1; shift; echo "\$ $* diskalias udev $k"; env -i "$@" "$bin" udev "$k" 2>&1; local rc=$?; [ $rc -eq 0 ] || echo "[exit $rc]"; }
scsi=(DISKALIAS_SYSROOT=$ROOT ACTION=add SUBSYSTEM=block ID_BUS=scsi)
# A SCSI disk: udev writes the WWN 0x..., the table naa.; ID_SERIAL comes from the WWN.
ud sdc "${scsi[@]}" DEVTYPE=disk DEVPATH=/devices/x/block/sdc ID_WWN=0x5000c500a1b2c3d4 \
	ID_WWN_WITH_EXTENSION=0x5000c500a1b2c3d4 ID_SERIAL=35000c500a1b2c3d4 ID_SERIAL_SHORT=5000c500a1b2c3d4
# Its partitions: the disk's name with the kernel's suffix; a partition's own binding wins.
ud sdc1 "${scsi[@]}" DEVTYPE=partition PARTN=1 DEVPATH=/devices/x/block/sdc/sdc1 \
	ID_WWN=0x5000c500a1b2c3d4 ID_PART_ENTRY_UUID=0a1b2c3d-01
ud sdc2 "${scsi[@]}" DEVTYPE=partition PARTN=2 DEVPATH=/devices/x/block/sdc/sdc2 \
	ID_WWN=0x5000c500a1b2c3d4 ID_PART_ENTRY_UUID=0A1B2C3D-02
# The serial on a SCSI disk's label is VPD page 0x80: ID_SCSI_SERIAL.
ud sdd "${scsi[@]}" DEVTYPE=disk DEVPATH=/devices/x/block/sdd ID_WWN=0x5000c500a1b2c3d5 \
	ID_SERIAL=35000c500a1b2c3d5 ID_SERIAL_SHORT=5000c500a1b2c3d5 ID_SCSI_SERIAL=SER-A
# virtio-blk has its serial as ID_SERIAL and no ID_BUS.
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
# QEMU's NVMe has no EUI: its WWN is the nvme. wwid; its serial ID_SERIAL_SHORT.
ud nvme0n1 DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/nvme0n1 \
	ID_WWN=nvme.1b36-4e564d452d31-5145-1 ID_SERIAL_SHORT=S4EVNX0M123456
# A slot: the by-path link udev made earlier; a partition's link without -partN is its disk's.
links="/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_X /dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0"
ud sdf "${scsi[@]}" DEVTYPE=disk DEVPATH=/devices/x/block/sdf "DEVLINKS=$links"
ud sdf1 "${scsi[@]}" DEVTYPE=partition PARTN=1 DEVPATH=/devices/x/block/sdf/sdf1 \
	"DEVLINKS=/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_X-part1 /dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:3:0-part1"
# Not in the table: nothing at all.
ud sdg "${scsi[@]}" DEVTYPE=disk DEVPATH=/devices/x/block/sdg ID_WWN=0x5000000000000099
# The kernel's announcement of the alias it was given is not logged twice
# (the kernel logged it); a change asked for by hand is a naming, logged.
ud sdc "${scsi[@]}" ACTION=change ALIAS=bay07 DISK_ALIAS_CHANGE=1 DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4
ud sdc "${scsi[@]}" ACTION=change ALIAS=bay07 DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4
echo "--- the kernel log"
cat "$ROOT/dev/kmsg"
# After a forced rename the old name stays on that device until it goes away.
table <<'T'
alias bay08 wwn:0x5000c500a1b2c3d4
T
mkdir -p "$ROOT/run/diskalias"
echo "bay07 bay08 sdc" >"$ROOT/run/diskalias/renamed"
ud sdc "${scsi[@]}" DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4
ud sdc1 "${scsi[@]}" DEVTYPE=partition PARTN=1 DEVPATH=/devices/x/block/sdc/sdc1 ID_WWN=0x5000c500a1b2c3d4
ud sdd "${scsi[@]}" DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4
ud "" DISKALIAS_SYSROOT=$ROOT
ud sdc/x DISKALIAS_SYSROOT=$ROOT
# A bad line binds nothing, the others still do; each problem goes to the
# kernel log once per version of the table, however many devices follow.
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias BAY07 wwn:0x5000c500a1b2c3d5
alias data serial:VBLK-1
alias typo wwn:
T
: >"$ROOT/dev/kmsg"
rm -f "$ROOT/run/diskalias/renamed"
ud sdc "${scsi[@]}" DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
echo "--- the kernel log"
cat "$ROOT/dev/kmsg"
# A table root cannot trust (writable by others): the last good copy names
# the disks, and the log says so; without one, nothing is named and it says why.
chmod 0666 "$ROOT/etc/diskalias.conf"
: >"$ROOT/dev/kmsg"
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
rm "$ROOT/run/diskalias/table.index"
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
echo "--- the kernel log"
cat "$ROOT/dev/kmsg"
chmod 0644 "$ROOT/etc/diskalias.conf"
# A planted symlink is never written through: the log, the index, the problems record.
echo precious >"$ROOT/precious"
rm -rf "$ROOT/run/diskalias" "$ROOT/dev/kmsg"
ln -s "$ROOT/precious" "$ROOT/dev/kmsg"
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
rm -rf "$ROOT/run/diskalias"
mkdir -p "$ROOT/run/diskalias"
ln -s "$ROOT/precious" "$ROOT/run/diskalias/problems.logged"
ln -s "$ROOT/precious" "$ROOT/run/diskalias/table.index"
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
rm -rf "$ROOT/run/diskalias"
ln -s "$ROOT" "$ROOT/run/diskalias"
ud vdb DISKALIAS_SYSROOT=$ROOT DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-1
rm "$ROOT/run/diskalias" "$ROOT/dev/kmsg"
cat "$ROOT/precious"
ls "$ROOT" | grep -c index
: >"$ROOT/dev/kmsg"
da udev
# 32 helpers at once on a new table, as udev runs them at boot: each names
# its disk, one index is left and no temporary file.
table <<'T'
alias bay07 wwn:naa.5000c500a1b2c3d4
alias data serial:VBLK-1
T
rm -f "$ROOT/run/diskalias/renamed"
echo "\$ 32 x diskalias udev sdc, at once"
for i in $(seq 32); do
	env -i "${scsi[@]}" DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4 "$bin" udev sdc >"$ROOT/udev.$i" 2>&1 &
done
wait
cat "$ROOT"/udev.* | sort | uniq -c
ls "$ROOT/run/diskalias"
