# A bad line never takes the others down: for every kind of bad line, every
# reader still applies the good lines around it, names the bad one (file and
# line) on stderr, and passes all of its input through. One line per kind:
# "ok" for each reader, or what went wrong.
fixture mixed
good='alias good wwn:0x5000c500a1b2c3d4'
also='alias also serial:VBLK-DATA'
# kind|the bad line(s), as printf writes them
classes=(
	'incomplete|alias typo wwn:'
	'no-identity|alias typo'
	'extra-word|alias typo serial:X extra'
	'unknown-statement|alais typo serial:X'
	'unknown-kind|alias typo color:red'
	'bad-wwn|alias typo wwn:0xZZ'
	'control-bytes|alias typo serial:"a\\x1b[2Jb"'
	'blank-in-link|alias typo id:"ata-X Y"'
	'unterminated-quote|alias typo label:"open'
	'kernel-name|alias sdz serial:X'
	'bad-name|alias ty/po serial:X'
	'duplicate|alias twin serial:X\nalias twin serial:Y'
	'case-duplicate|alias twin serial:X\nalias TWIN serial:Y'
	'partition-name|alias twin serial:X\nalias twin1 serial:Y'
	'partition-twin|alias twin7 serial:X\nalias twin7p serial:Y'
	'partition-of-twin|alias twin7p serial:X\nalias twin7p1 serial:Y'
	'nul-byte|alias typo serial:X\0Y'
	'stray-bom|\xef\xbb\xbfalias typo serial:X'
)
check_reader() {	# READER EXPECTED-STDOUT EXPECTED-EXIT CMD...
	local what=$1 want=$2 wantrc=$3 out rc
	shift 3
	out=$("$@" 2>"$ROOT/err")
	rc=$?
	if [ "$out" != "$want" ]; then
		res+=" $what=WRONG($(echo "$out" | tr '\n' '|'))"
	elif [ $rc != "$wantrc" ]; then
		res+=" $what=EXIT$rc"
	elif ! grep -qE "diskalias.conf:[23]: " "$ROOT/err"; then
		res+=" $what=SILENT"
	else
		res+=" $what=ok"
	fi
}
for c in "${classes[@]}"; do
	name=${c%%|*}
	{ echo "$good"; printf "${c#*|}\n"; echo "$also"; } >"$ROOT/etc/diskalias.conf"
	cp "$ROOT/etc/diskalias.conf" "$ROOT/before.conf"
	rm -rf "$ROOT/run/diskalias" "$ROOT/dev/disk/by-alias"
	: >"$ROOT/dev/kmsg"
	res=""
	check_reader list "$(printf 'sdc good\nvdb also')" 0 sh -c "'$bin' list -rn -o NAME,ALIAS | grep -E ' (good|also)\$'"
	check_reader resolve "$(printf '/dev/sdc\n/dev/vdb')" 0 "$bin" resolve good also
	check_reader name "$(printf 'good\nalso')" 0 "$bin" name sdc vdb
	check_reader filter "good1 also sdd sdc-x" 0 sh -c "echo 'sdc1 vdb sdd sdc-x' | '$bin' filter"
	check_reader partitions "$(printf 'good\ngood1\ngood2\nalso')" 0 sh -c "'$bin' partitions | awk '{print \$4}' | grep -E '^(good|also)'"
	check_reader diskstats "also" 0 sh -c "'$bin' diskstats | awk '\$3 == \"also\" {print \$3}'"
	check_reader run "/dev/disk/by-alias/good" 0 "$bin" run -- echo @good
	check_reader udev "DISKALIAS=good" 0 sh -c "env -i DISKALIAS_SYSROOT='$ROOT' DEVTYPE=disk ID_WWN=0x5000c500a1b2c3d4 '$bin' udev sdc | head -n 1"
	check_reader apply "$(printf 'also\ngood')" 0 sh -c "'$bin' apply >/dev/null && ls '$ROOT/dev/disk/by-alias' | grep -v '^good[0-9]'"
	check_reader check "" 1 sh -c "'$bin' check >/dev/null"
	check_reader set "fresh -> sdd (wwn:0x5000c500a1b2c3d5)" 0 "$bin" set fresh sdd
	# The edit kept every byte of the bad line, and only added its own.
	if ! cmp -s <(head -c "$(stat -c %s "$ROOT/before.conf")" "$ROOT/etc/diskalias.conf") "$ROOT/before.conf"; then
		res+=" kept=NO"
	fi
	# The helper said it in the kernel log too, once.
	n=$(grep -cE 'diskalias.conf:[23]: ' "$ROOT/dev/kmsg")
	[ "$n" = 1 ] || res+=" kmsg=$n"
	echo "$name:$res"
done
# The messages themselves, for one table with every kind at once.
{ echo "$good"; for c in "${classes[@]}"; do printf "${c#*|}\n"; done; echo "$also"; } >"$ROOT/etc/diskalias.conf"
da check
