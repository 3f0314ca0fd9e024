# The chassis statement: a layout and a naming rule for an enclosure's
# bays, one line for a whole shelf (SPEC section 3). On the 24-bay SES
# fixture: the layout proposed from the enclosure (given by its SCSI
# address, written as its id), the names the rule gives as slot: aliases
# like any other (list, resolve, name, filter, the udev helper), an alias
# line for a bay winning over the rule, and the panel drawn.
fixture sas-jbod24
da chassis set shelf1 0:0:24:0 --first bottom-left --name 'shelf1-bay{slot:02}'
cat "$ROOT/etc/diskalias.conf"
da chassis list
da chassis list -J
da list -o NAME,ALIAS,IDENTITY | head -n 5
da resolve shelf1-bay07 shelf1-bay02p1
da name sdh /dev/sdc1
printf 'sd 0:0:7:0: [sdh] tag#3 Sense Key : Medium Error [current]\nBuffer I/O error on dev sdc1, logical block 2\n' | da filter
# The udev helper names a disk in a bay the rule names, from udev's
# properties: the first call parses the table and leaves its index, the
# second reads the index (the rule's names are in it).
mkdir -p "$ROOT/run"
for i in 1 2; do
	env -i DEVPATH=/devices/pci0000:00/0000:00:01.0/0000:01:00.0/host0/port-0:0/expander-0:0/port-0:0:7/end_device-0:0:7/target0:0:7/0:0:7:0/block/sdh \
		DEVTYPE=disk MAJOR=8 MINOR=112 ID_WWN=0x5000c500a1b2c44b DISKALIAS_SYSROOT="$ROOT" "$bin" udev sdh
	ls "$ROOT/run/diskalias/table.index"
	grep -c shelf1-bay07 "$ROOT/run/diskalias/table.index"
done
# The links and the kernel's attribute, where no udev runs: the rule's names too.
printf '\n' >"$ROOT/sys/class/block/sdh/alias"
da apply | sed -n '1,3p;$p'
(cd "$ROOT/dev/disk/by-alias" && ls | sed -n '1,2p;8p' && readlink shelf1-bay07 shelf1-bay02p1)
cat "$ROOT/sys/class/block/sdh/alias"
# An alias line for a bay takes it from the rule; a name the rule would
# give stands back for a line that has it for another disk.
da set db-log slot:0x500304801f3c1d3f/7
da set shelf1-bay03 wwn:0x5000c500a1b2c3e5
printf 'alias shelf1-bay03 wwn:0x5000c500a1b2c3e5\n' >>"$ROOT/etc/diskalias.conf"
da list -o NAME,ALIAS,IDENTITY | sed -n '2,5p;9,10p'
da check
sed -i '$d' "$ROOT/etc/diskalias.conf"
# A rule's name is not removed or rebound (the rule is), but renamed: a line of its own.
da unset shelf1-bay05
da set --force shelf1-bay05 sda
da rename shelf1-bay05 scratch
da resolve scratch
tail -n 3 "$ROOT/etc/diskalias.conf"
da map --layout
NO_COLOR=1 da map --layout --color=auto | head -n 4
da map --layout --color=always | sed -n '1p;5p;16,17p' | cat -v
da map -J | sed -n '/"slot": "7"/,/}/p'
da map -J | sed -n '/"chassis": \[/,/"bays"/p'
# Edits keep a chassis line byte for byte, its spacing and comment too.
sed -i '1s/.*/chassis   shelf1   0x500304801f3c1d3f   rows=4 columns=6 first=bottom-left name=shelf1-bay{slot:02}   # the shelf/' "$ROOT/etc/diskalias.conf"
da set spare wwn:0x5000c500deadbeef
da unset spare
head -n 1 "$ROOT/etc/diskalias.conf"
# chassis set rewrites its own line in place, another chassis cannot take the enclosure.
da chassis set shelf1 0x500304801f3c1d3f --rows 2 --columns 12 --name 'b{row}{col:02}'
head -n 1 "$ROOT/etc/diskalias.conf"
da chassis set other 0x500304801f3c1d3f --rows 4 --columns 6
da list -o NAME,ALIAS | sed -n '2,3p;14p'
# A layout that does not fit the enclosure: check says so at the line.
da chassis set shelf1 0x500304801f3c1d3f --rows 2 --columns 6
da check
da chassis set shelf1 0x500304801f3c1d3f --rows 4 --columns 6 --first-slot 1 --name 'x{slot}'
da check
da chassis unset shelf1
da chassis unset shelf1
da chassis list
da map --layout | head -n 3
# Usage.
da chassis
da chassis set shelf1
da chassis set shelf1 0:0:99:0
da chassis set shelf1 0xfeed --rows 2
da chassis set shelf1 0xfeed --rows 0 --columns 2
da chassis frob
da map --layout --color=sometimes
da map --layout -J
