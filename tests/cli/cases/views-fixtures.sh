# The views on every fixture machine: /proc/partitions (both forms),
# /proc/diskstats, and kernel lines the way that machine would print them.
fixture sas-jbod24
table <<'T'
alias bay00 wwn:0x5000c500a1b2c3d4
alias slot02 path:pci-0000:01:00.0-sas-phy2-lun-0
alias meta serial:Z1Z205FU
alias boot label:nothing
T
da partitions --column
da diskstats
printf '%s\n' 'sd 0:0:2:0: [sdc] tag#12 Sense Key : Medium Error [current]' \
	'critical medium error, dev sdc, sector 81920 op 0x0:(READ) flags 0x0' \
	'XFS (sdc1): Mounting V5 Filesystem' ' sdf: sdf1 sdf2' 'sd 0:0:23:0: [sdx] Attached SCSI disk' >log
da filter log

fixture nvme-server
table <<'T'
alias fast0 wwn:eui.0025388b71b2c3d4
alias ns2 wwn:eui.0025388b71b2c3e5
T
da partitions
da diskstats
printf '%s\n' 'nvme0n1: p1 p2' 'EXT4-fs (nvme0n1p2): mounted filesystem' 'I/O error, dev nvme0n2, sector 0' \
	'nvme nvme0: I/O 12 QID 3 timeout, aborting' 'nvme1n1: unknown partition table' >log
da filter --annotate log

fixture workstation
table <<'T'
alias ssd wwn:0x5002538e40a1b2c3
alias stick path:pci-0000:00:14.0-usb-0:2:1.0-scsi-0:0:0:0
alias card serial:0x1234abcd
alias work serial:S5GXNF0R987654
T
da partitions --column
printf '%s\n' 'sd 0:0:0:0: [sda] Attached SCSI disk' 'sd 6:0:0:0: [sdb] Attached SCSI removable disk' \
	'mmcblk0: mmc0:0001 SD32G 29.7 GiB' 'FAT-fs (sdb1): Volume was not properly unmounted.' \
	'/dev/nvme0n1p2 on / type ext4 (rw,relatime)' >log
da filter log

fixture vm-virtio
table <<'T'
alias root serial:VBLK-SERIAL1
alias data serial:VBLK-SERIAL2
alias lv id:dm-name-vg0-data
alias mirror id:md-uuid-3a7b2c1d:4e5f6071:8293a4b5:c6d7e8f9
T
da partitions
da diskstats
printf '%s\n' 'virtio_blk virtio1: [vda] 41943040 512-byte logical blocks' ' vdb: vdb1' \
	'md/raid1:md127: active with 2 out of 2 mirrors' 'EXT4-fs (dm-0): mounted filesystem' \
	'/dev/mapper/vg0-data /srv ext4 rw 0 0' 'vdc: vdc1' >log
da filter log
"$bin" filter log | da filter --reverse

fixture xen-guest
table <<'T'
alias xroot path:xen-vbd-51712
alias xdata path:xen-vbd-51728
T
da partitions --column
printf '%s\n' 'blkfront: xvda: flush diskcache: enabled; persistent grants: enabled;' ' xvda: xvda1' 'blkfront: xvdb: barrier or flush: disabled' >log
da filter log

fixture host-virtio
table <<'T'
alias boot serial:21766363104595826
T
da partitions
da diskstats
