# list -a beside lsblk: the same devices in the same order (lsblk's: disks
# by MAJ:MIN, each one's partitions and the md and dm devices made of it
# under it) with the same NAME, KNAME, MAJ:MIN, RM, SIZE and TYPE, on the
# fixture machines and on the same trees with sys/block alone (no
# sys/class/block: kernels before 2.6.25, and the sysfs dumps other tools
# record). lsblk itself reads each tree (--sysroot); blanks are squeezed,
# as the two pad their columns each their own way. The recordings of 6.12
# and 7.3 are read too (the 6.1 one predates sys/dev in record-sysroot,
# without which lsblk lists nothing).
side() {
	diff <(lsblk --sysroot "$ROOT" -a -i -o NAME,KNAME,MAJ:MIN,RM,SIZE,TYPE | tr -s ' ' | sed 's/ $//') \
		<("$bin" list -a -o NAME,KNAME,MAJ:MIN,RM,SIZE,TYPE | tr -s ' ' | sed 's/ $//') &&
		echo "$1: as lsblk lists it"
}
for f in workstation sas-jbod24 sas-chain nvme-server vm-virtio xen-guest \
	logs/storage-6.12/sysroot logs/storage-7.3/sysroot; do
	fixture $f
	rm -f "$ROOT/etc/diskalias.conf"
	side "$f"
	rm -rf "$ROOT/sys/class/block"
	side "$f, sys/block alone"
done
fixture vm-virtio
rm -rf "$ROOT/sys/class/block"
da list -a -o NAME,KNAME,MAJ:MIN,RM,SIZE,TYPE | tr -s ' '
