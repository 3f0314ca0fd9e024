# The storage recording's machine on today's kernels: Linux 6.12 (Debian
# 13) and 7.3 (mainline), each with Debian 13's systemd-udevd 257, recorded
# under QEMU by tests/tools/record-logs/storage --release trixie; the same
# disks as logs/storage (6.1, udev 252) and a SCSI disk with a WWN and two
# partitions. Every command reads them as it reads the 6.1 one.
for k in 6.12 7.3; do
	echo "# Linux $k, udev 257"
	fixture logs/storage-$k/sysroot
	log=$fixtures/logs/storage-$k
	da list -o NAME,ALIAS,TYPE,TRAN,HCTL,ATA,CTRL,HOLDERS
	da list -r -o NAME,ALIAS,SERIAL,WWN | grep -E '^(\$|NAME|nvme0n2|sda1?) '
	da check
	da resolve db-b scsi-wwn2 lvdata mirror
	da name nvme0n1 sda2 dm-0
	# The links udev 257 made from the project's rules, as recorded.
	for l in "$ROOT"/dev/disk/by-alias/*; do echo "${l##*/} -> $(readlink "$l")"; done
	# The errors of each stack, named: libata, NVMe, SCSI, md, USB.
	da dmesg -F "$log/kmsg" | grep -E '^\$|failed command|I/O error|I/O Cmd|timeout, aborting|md/raid1|USB disconnect' | head -n 14
	# The log's own records name it with the table emptied.
	: >"$ROOT/etc/diskalias.conf"
	da filter --history "$log/dmesg" | grep -E '^\$|failed command|EH complete|I/O Cmd|Disk failure|USB disconnect' | head -n 6
done
