# A real 6.1 kernel's log under QEMU (tests/tools/record-logs): virtio-scsi
# disks with WWNs, NVMe, virtio-blk with an I/O error, a scsi_debug disk
# with medium errors; its sysfs, /proc tables and /dev/kmsg records.
fixture logs/sysroot
table <<'T'
alias bay01 wwn:0x5000c50015ea71ac
alias spare wwn:0x5000c50015ea71ad
alias bay07 wwn:0x3333333000000fa0
alias fast serial:NVME-1
alias vlog serial:VBLK-1
T
da list
# The lines that name a disk, from the records (their metadata too); the
# command's own line starts with "$".
da dmesg | grep -E '^\$|bay|spare|fast|vlog'
da dmesg -l err -J
# The same log as dmesg printed it: filtered, annotated.
cp "$fixtures/logs/dmesg" dmesg
"$bin" filter dmesg | diff - <("$bin" dmesg) && echo 'filter of the dmesg text: the same lines as dmesg of the records'
da filter --annotate dmesg | grep -E '^\$|error|Attached SCSI|: p1| sd[a-z]: '
da partitions
da partitions --column
da diskstats
