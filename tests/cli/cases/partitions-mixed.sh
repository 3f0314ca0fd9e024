# partitions and diskstats: the kernel's tables with aliases, names only where known.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias fast serial:S4EVNX0M123456
alias lvdata id:dm-name-vg0-data
alias boot label:nothing-here
T
da partitions
da partitions --column
da diskstats
da diskstats -w 0.05 -n 2
da partitions extra
da diskstats -n 2
da diskstats -w 0
rm "$ROOT/proc/partitions"
da partitions
