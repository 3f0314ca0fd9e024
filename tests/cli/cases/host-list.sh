# A real machine (recorded from a VM's live kernel): every list output mode.
fixture host-virtio
table <<'T'
# the VM's only disk
alias root-disk serial:21766363104595826
alias spare wwn:0x5000c500a1b2c3d4
T
da list
da list -n -o NAME,ALIAS,IDENTITY,STATE
da list -J
da list -J -b -o NAME,SIZE,RM,RO,ALIASES
da list -P -o NAME,ALIAS,MAJ:MIN,TYPE,SERIAL
da list -r -b
da list -a -o NAME,SIZE,TYPE
da list -o +DEVNODE,PATH
da list -o NAME,BOGUS
da list -J -P
da list extra
