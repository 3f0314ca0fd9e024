# dmesg on a saved /dev/kmsg stream: metadata lines, DEVICE= naming the disk
# when the text does not, escapes, levels, JSON, plain lines, errors.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias dblog wwn:0x5000c500a1b2c3d5
alias fast serial:S4EVNX0M123456
T
printf '%s\n' \
	'6,100,2104224,-;sd 2:0:3:0: [sdc] Attached SCSI disk' \
	' SUBSYSTEM=scsi' \
	' DEVICE=+scsi:2:0:3:0' \
	'3,101,2200000,-;Synchronize Cache(10) failed: Result: hostbyte=0x04 driverbyte=DRIVER_OK' \
	' SUBSYSTEM=scsi' \
	' DEVICE=+scsi:2:0:4:0' \
	'4,102,2300000,-;odd bytes: tab\x09bell\x07 utf-8 \xc3\xa9 invalid \xff backslash \x5c quote "' \
	' DEVICE=b259:2' \
	'6,103,2400000,-;block device named in metadata only' \
	' SUBSYSTEM=block' \
	' DEVICE=+block:sdd' \
	'12,104,2500000,-;diskalias: sdc is bay07 (wwn:0x5000c500a1b2c3d4)' \
	'6,105,2600000,c; continuation of sdc1' \
	'[    9.000000] a plain dmesg line about sdc' >kmsg
cp kmsg "$ROOT/dev/kmsg"
da dmesg
da dmesg -l err,warn
# A saved log with a mapping record ("diskalias: sdc is bay07") is named by its
# records, not today's table: sdd and 259:2, which it does not name, stay as they are.
da dmesg -J -F kmsg
# Without records, today's table names it, DEVICE= metadata too.
grep -v '^12,104' kmsg >kmsg-norec
da dmesg -F kmsg-norec
da dmesg -F - <kmsg -l 7
da dmesg -l loud
da dmesg -w -F kmsg
da dmesg -F missing
rm "$ROOT/dev/kmsg"
da dmesg
# A saved dmesg -r log: its <N> prefixes are the levels -l filters by.
printf '<3>[    1.000000] sd 2:0:3:0: [sdc] tag#0 FAILED\n<6>[    2.000000] sdc: sdc1 sdc2\n' >raw.log
da dmesg -F raw.log -l err
da dmesg -F raw.log -J
# A saved log has no boot time of its own: -T cannot be honoured.
da dmesg -F raw.log -T
# Always valid JSON and UTF-8, whatever the records hold.
"$bin" dmesg -J -F kmsg | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["dmesg"]), "records")'
