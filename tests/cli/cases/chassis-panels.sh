# Chassis panels beyond one shelf: two chained 12-bay shelves as the parts
# of one rack (one numbered by slot from 1, one from 0 down its columns,
# the rear one seen from the rear), a JBOD split in halves that report one
# id (its bays cannot be named by slot), and the U.2 bays of PCIe slots.
fixture sas-chain
da chassis set rack 0x500304801f3c1d3f --rows 2 --columns 6 --by columns --name 'a{bay:02}'
da chassis set rack 0x500304801f3c1d3f --rows 2 --columns 6 --by columns --name 'a{bay:02}'
da chassis set rack 0x500304801f3c1d3f --rows 3 --columns 4 --first top-right --name 'a{bay:02}'
da chassis set rack 0:0:22:0 --side rear --name 'b{slot:02}'
cat "$ROOT/etc/diskalias.conf"
da map --layout
da list -o NAME,ALIAS | sed -n '2,4p;12,14p'
da resolve a01 b05 b12
da check
# The split JBOD: both halves report 0x5000ccab0405e000.
da chassis set split 1:0:3:0 --name 's{slot}'
da check
da map --layout | tail -n 6
fixture nvme-server
da chassis set u2 pcie --name 'u2-{slot}'
cat "$ROOT/etc/diskalias.conf"
da map --layout
da list -o NAME,ALIAS,IDENTITY
# The drive in slot 4 has two namespaces: its bay's name binds neither.
da check
da map -J | sed -n '/"chassis": \[/,$p'
