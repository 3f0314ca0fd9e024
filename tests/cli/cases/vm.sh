# A VM: virtio disks with serials only, md RAID1, an LVM volume, loop devices.
fixture vm-virtio
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,SERIAL,WWN,PATH,ID
da set root vda
da set mirror md127
da set data /dev/mapper/vg0-data
da set scratch loop0
da set --by uuid bootfs vda1
cat "$ROOT/etc/diskalias.conf"
da list -o NAME,ALIAS,IDENTITY,TYPE
da resolve root2 mirror data bootfs
da name dm-0 /dev/mapper/vg0-data 9:127
