# A real machine (recorded from a VM's live kernel): every list output mode.
fixture host-virtio
table <<'T'
# the VM's only disk
alias root-disk serial:21766363104595826
alias spare wwn:0x5000c500a1b2c3d4
T
da list
# (Blanks squeezed: libsmartcols 2.38 pads to the unprinted heading's width, 2.41 does not.)
da list -n -o NAME,ALIAS,IDENTITY,STATE | tr -s ' '
da list -J
da list -J -b -o NAME,SIZE,RM,RO,ALIASES
da list -P -o NAME,ALIAS,MAJ:MIN,TYPE,SERIAL
da list -r -b
da list -a -o NAME,SIZE,TYPE
da list -o +DEVNODE,PATH
da list -o NAME,BOGUS
da list -J -P
da list extra
# A disk the hypervisor gives read-only (-drive readonly=on): RO says so,
# whichever other columns are asked for.
echo 1 >"$ROOT/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda/ro"
da list -o NAME,RO
da list -r -o NAME,SIZE,RM,RO,MODEL
