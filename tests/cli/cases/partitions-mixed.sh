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
# The same output path as list: JSON, raw, pairs, no headings.
da partitions -J | head -n 10
da partitions -r -n | head -n 3
da partitions -P | tail -n 1
"$bin" diskstats -J | python3 -c 'import json,sys; d=json.load(sys.stdin)["diskstats"]; print(len(d), "devices,", sorted(d[2])[:4])'
"$bin" diskstats -w 0.05 -n 1 -J | python3 -c 'import json,sys; d=json.load(sys.stdin)["diskstats"]; print([x["device"] for x in d][:3])'
da partitions -J -r
rm "$ROOT/proc/partitions"
da partitions
