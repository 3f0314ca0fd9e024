# SATA SSD, NVMe, a USB stick (serial, no WWN) and an SD card.
fixture workstation
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,MODEL,SERIAL,WWN,PATH,ID,RM
da set ssd sda
da set stick sdb
da set keys sdb1
da set card mmcblk0
da set --by label home sda2
da set nvme-boot /dev/nvme0n1
cat "$ROOT/etc/diskalias.conf"
da list -o NAME,ALIAS,ALIASES,IDENTITY
da resolve stick1 cardp1 ssd2 home nvme-bootp1
