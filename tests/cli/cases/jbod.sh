# A 24-bay SAS JBOD behind one HBA, plus a SATA boot SSD.
fixture sas-jbod24
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,MODEL,SERIAL,WWN,PATH,ID
da set bay07 sdh
da set --by path slot03 sdd
da set data02 sdc1
da set --by label data-fs sdc1
da set efi /dev/disk/by-id/ata-Samsung_SSD_870_EVO_1TB_S6PTNM0R123456-part1
da set spare wwn:0x5000c500deadbeef
cat "$ROOT/etc/diskalias.conf"
da list -o NAME,ALIAS,ALIASES,IDENTITY,STATE
da resolve bay07 slot03 data02 efi slot03p1 spare
da name sdh 8:112 /dev/sdc1 sdc sdy1 sdy2
da check
# As wide as the terminal: MODEL is cut short, never SERIAL or WWN (by how
# much is the library's: libsmartcols 2.38 and 2.41 cut it differently).
"$bin" list -w 80 >wide.txt
awk 'length > 80 { n++ } END { print n + 0 " lines wider than 80 of " NR }' wide.txt
head -n 1 wide.txt | tr -s ' '
grep -c 'Z1Z200AZ *0x5000c500a1b2c3d4 present' wide.txt
grep -c 'ST4000NM0023' wide.txt
da list -P -o NAME,MAJ:MIN | head -n 2
da list -P -y -o NAME,MAJ:MIN | head -n 2
da list -y
da list -w 0
da list -H
