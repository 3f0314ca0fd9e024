# A Xen guest: disks known only by their slot.
fixture xen-guest
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,SERIAL,WWN,PATH,ID
da set system xvda
da set --by serial data xvdb
cat "$ROOT/etc/diskalias.conf"
da resolve system1
