# filter: every naming family, whole words only, annotate and reverse.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias dblog wwn:0x5000c500a1b2c3d5
alias bay1 wwn:0x5000c500a1b2c300
alias bay10 wwn:0x5000c500a1b2c326
alias fast serial:S4EVNX0M123456
alias vm-data serial:VBLK-DATA
alias xen0 path:xen-vbd-51712
alias card serial:0x1234abcd
alias lvdata id:dm-name-vg0-data
alias mirror id:md-uuid-0a1b2c3d:4e5f6071:8293a4b5:c6d7e8f9
T
cat >log <<'L'
[    2.104224] sd 2:0:3:0: [sdc] 7814037168 512-byte logical blocks: (4.00 TB/3.64 TiB)
[    2.110031]  sdc: sdc1 sdc2
[    2.131415] sd 2:0:26:0: [sdaa] Attached SCSI disk
[    3.000001] nvme0n1: p1 p2
[    9.123456] EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode
[   11.000000] md/raid1:md127: Disk failure on sdc1, disabling device.
[   12.500000] blk_update_request: I/O error, dev sdd, sector 2048 op 0x0:(READ)
[   13.000000] Buffer I/O error on dev xvda1, logical block 0, async page read
[   14.000000] vdb: vdb1 mmcblk0: mmcblk0p1
not names: sdca asdc sdc_old sdc-old /sys/block/sdc/stat nvme01 nvme0.1 12:0:3:0 dm-30
[   15.000000] nvme nvme0: I/O 12 QID 3 timeout, aborting; ng0n1; mmc0: card removed
/dev/sdc1 on /srv type ext4; /dev/mapper/vg0-data on /data; dm-3
L
da filter log
da filter --annotate log
"$bin" filter log | da filter --reverse
echo 'sdc sdd' | da filter - log-missing
echo "tail without newline: sdc" | tr -d '\n' | da filter
echo
# A dm name may hold a space: its /dev/mapper path is still one name.
echo 'vg0 data' >"$ROOT/sys/devices/virtual/block/dm-3/dm/name"
rm -rf "$ROOT/run/diskalias"
echo 'mount /dev/mapper/vg0 data /srv; dm-3' | da filter
