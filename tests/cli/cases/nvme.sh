# Two NVMe controllers; nvme0 has two namespaces sharing the controller's serial.
fixture nvme-server
da list -J -o NAME,MAJ:MIN,SIZE,TYPE,MODEL,SERIAL,WWN,PATH,ID
da set ns1 nvme0n1
da set ns2 nvme0n2
da set mp nvme1n1
da set --by serial other nvme0n2
da set shared serial:S64HNE0R123456
da set root-part nvme0n1p2
cat "$ROOT/etc/diskalias.conf"
da resolve ns1 ns1p1 ns2 mp root-part
da name nvme0n1p1 nvme0n2 nvme1n1
table <<'T'
alias shared serial:S64HNE0R123456
alias mp serial:S5NUNA0R700123
T
da check
da list -o NAME,ALIAS,IDENTITY,STATE
da resolve shared
da resolve mp
