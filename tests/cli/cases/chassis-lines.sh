# Every kind of bad chassis line: each said at its file and line, binding
# nothing, and taking nothing else down (the alias lines around them and the
# good chassis line still apply).
fixture sas-jbod24
table <<'T'
alias boot wwn:0x5002538e40a1b2c3
chassis front
chassis front 0x500304801f3c1d3f columns=6
chassis front 0x500304801f3c1d3f rows=4 columns=6 colour=red
chassis front 0x500304801f3c1d3f rows=4 columns=6 first=middle
chassis front 0x500304801f3c1d3f rows=4 columns=6 by=diagonal
chassis front 0x500304801f3c1d3f rows=4 columns=6 side=top
chassis front 0x500304801f3c1d3f rows=4 columns=6 rows=2
chassis front 0x500304801f3c1d3f rows=0 columns=6
chassis front 0x500304801f3c1d3f rows=100 columns=100
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay{disk}
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay{slot
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay{slot:2}
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay}
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=nvme{bay}n1
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=b/{slot}
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=
chassis front sas0 rows=4 columns=6
chassis front pcie: rows=1 columns=2
chassis front pcie:4,4 rows=1 columns=2
chassis front pcie:4,5,6 rows=1 columns=2
chassis front pcie:4,5 rows=1 columns=2 slots=1
chassis sdb 0x500304801f3c1d3f rows=4 columns=6
chassis front 0x500304801f3c1d3f rows=4 columns=6 first=top-left by=rows side=front slots=0 name=x extra=1
chassis front 0x500304801f3c1d3f rows=4 columns=6 name=bay{slot:02}
chassis back 0x500304801f3c1d3f rows=2 columns=12
chassis nvme pcie:4,5,6 rows=1 columns=3 name=u2-{slot}
alias data wwn:0x5000c500a1b2c3d4
T
da check
da list -o NAME,ALIAS | grep -v '^diskalias:' | sed -n '1,4p;27,30p'
da chassis list
# The good line alone binds: the two claiming one enclosure bind nothing.
sed -i '/^chassis back/d' "$ROOT/etc/diskalias.conf"
da check 2>&1 | tail -n 2
da list -o NAME,ALIAS | grep -v '^diskalias:' | sed -n '1,4p'
