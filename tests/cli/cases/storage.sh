# The other names a disk error log uses, on a real 6.1 kernel's log under
# QEMU (tests/tools/record-logs/storage): libata's error handling on AHCI
# (ata1.00, ata1), an NVMe controller with two namespaces (nvme0), a slow
# NVMe drive's timeouts (nvme1), a USB stick unplugged and plugged in again
# (usb 2-1, then usb 2-2), md RAID1 with a failed member, device-mapper;
# the recorded sysfs and udev database, with the table the guest ran with.
fixture logs/storage/sysroot
log=$fixtures/logs/storage
da list -o NAME,ALIAS,TYPE,TRAN,HCTL,ATA,CTRL,HOLDERS
da list -s -o NAME,ALIAS,TYPE
da list -J -o NAME,ATA,CTRL,HOLDERS | head -n 24
# Every line that names a disk by a handle, by the records and their text.
da dmesg -F "$log/kmsg" | grep -E '^\$|ata[12]|sata-|db-|nvme|md/|mirror|lvdata|md-peer|Disk failure|I/O error|usb [0-9]|stick|slow'
# A generic node is its disk's name too (the tree has the sg driver's
# class directory, as a machine with sg loaded has).
printf 'sg1: INQUIRY failed\nsg2 and sg0\n' | da filter
# The saved text log, annotated: both names kept.
da filter --annotate "$log/dmesg" | grep -E '^\$|ata1\.00|ata1:|nvme0:|Disk failure' | head -n 20
# Back again: the braced list to its controller, the rest to kernel names.
"$bin" filter "$log/dmesg" | "$bin" filter --reverse | grep -cE 'nvme nvme0:'
grep -cE 'nvme nvme0:' "$log/dmesg"
# An old log names the handles by its own records: with the table emptied,
# filter --history still names every libata and NVMe line.
: >"$ROOT/etc/diskalias.conf"
da filter --history "$log/dmesg" | grep -E '^\$|failed command|EH complete|1/0/0|Disk failure' | head -n 6
# The stick's first USB device is gone today (it came back on another
# port): today's view leaves "usb 2-1", the boot's records name it.
da filter "$log/dmesg" | grep -E '^\$|USB disconnect'
da filter --history "$log/dmesg" | grep -E '^\$|usb |timeout, aborting'
da history "$log/dmesg" | head -n 6
# A port's name the records of two disks give is both; of seventeen (more
# than a list names), it is left as it is.
recs() { echo 'Linux version 6.1'; for i in $(seq 1 "$1"); do echo "diskalias: sd$(printf "\\$(printf %03o $((96 + i)))") is d$i (wwn:0x$i; ata9.0$i; ata9)"; done; echo 'ata9: hard resetting link'; }
recs 2 | "$bin" filter --history | tail -n 1
recs 17 | "$bin" filter --history | tail -n 1
# A card reader's two disks on one USB device: its lines name both, and
# back again the list is the device, the word "usb" kept once.
usbrecs() { echo 'Linux version 6.1'; for i in 1 2; do echo "diskalias: sd$(printf "\\$(printf %03o $((96 + i)))") is r$i (serial:R$i; 9:0:0:$i; usb 3-1.4)"; done; echo 'usb 3-1.4: USB disconnect, device number 5'; }
usbrecs | "$bin" filter --history | tail -n 1
usbrecs | "$bin" filter --history | "$bin" filter --history --reverse | tail -n 1
