# set, resolve, name, unset, rename on a real machine tree.
fixture host-virtio
da set root-disk vda
da set root-disk /dev/vda
da set second 254:0
da set spare wwn:naa.5000c500a1b2c3d5
da set --by path slot vda
da set --by serial third root-disk
cat "$ROOT/etc/diskalias.conf"
da resolve root-disk second /dev/disk/by-alias/third
da name vda /dev/vda 254:0 root-disk
da resolve spare
da resolve root-diskp1
da name loop0
da rename second Second
da rename third root-disk
da rename nothing other
da unset spare third
cat "$ROOT/etc/diskalias.conf"
da unset Second nothing
cat "$ROOT/etc/diskalias.conf"
da set root-disk serial:OTHER
da set --force root-disk serial:OTHER
da list -o NAME,ALIAS,ALIASES,IDENTITY,STATE
