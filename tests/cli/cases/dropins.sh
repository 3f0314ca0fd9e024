# Drop-ins: /etc/diskalias.d/*.conf read after the table in lexical order,
# each problem in its own file; edits write the table unless told --file.
fixture vm-virtio
table <<'T'
alias main1 serial:VBLK-SERIAL1
T
mkdir -p "$ROOT/etc/diskalias.d"
cat >"$ROOT/etc/diskalias.d/20-db.conf" <<'T'
alias dblog path:pci-0000:00:06.0
T
cat >"$ROOT/etc/diskalias.d/10-shelf.conf" <<'T'
# written by config management
alias shelf-a serial:VBLK-SERIAL1
T
# Not drop-ins: hidden files, other suffixes; a link to /dev/null masks one.
echo 'alias hidden serial:X' >"$ROOT/etc/diskalias.d/.30-hidden.conf"
echo 'alias backup serial:X' >"$ROOT/etc/diskalias.d/40-old.conf.bak"
echo 'alias masked serial:X' >"$ROOT/etc/diskalias.d/50-masked.conf"
ln -sf /dev/null "$ROOT/etc/diskalias.d/50-masked.conf"
da list -o NAME,ALIAS,ALIASES,SERIAL
da check
da name vda
# A conflict across files names both places; a bad line in one drop-in
# binds nothing and every other line still applies.
cat >"$ROOT/etc/diskalias.d/30-dup.conf" <<'T'
alias main1 serial:OTHER
alias shelf-b serial:VBLK-SERIAL1 extra
T
da check
da resolve shelf-a
da resolve main1
rm "$ROOT/etc/diskalias.d/30-dup.conf"
# set writes the table itself; a name defined in a drop-in is taken.
da set newname vdb
tail -n 1 "$ROOT/etc/diskalias.conf"
da set dblog vdb
# --file writes a drop-in (a bare NAME.conf is one in the table's NAME.d), made if missing.
da set --file 60-new.conf fresh vdb
cat "$ROOT/etc/diskalias.d/60-new.conf"
ls -a "$ROOT/etc/diskalias.d"
# A line of a drop-in is changed only with --file naming it; nothing is written otherwise.
da unset dblog
da rename shelf-a shelf-z
da set --force dblog vda
da unset --file 20-db.conf dblog
cat "$ROOT/etc/diskalias.d/20-db.conf"
da rename --file "$ROOT/etc/diskalias.d/10-shelf.conf" shelf-a shelf-z
cat "$ROOT/etc/diskalias.d/10-shelf.conf"
# --file must be a file the table reads.
da set --file /tmp/elsewhere.conf x vda
da set --file notes.txt x vda
da set --file 50-masked.conf x vda
# A drop-in that cannot be used is a problem of its own; the rest applies.
mkdir "$ROOT/etc/diskalias.d/70-dir.conf"
mkfifo "$ROOT/etc/diskalias.d/80-fifo.conf"
da check
da name vda vdb vdc
da set --file 80-fifo.conf x vda
rm -r "$ROOT/etc/diskalias.d/70-dir.conf" "$ROOT/etc/diskalias.d/80-fifo.conf"
# Without a main table the drop-ins still apply.
rm "$ROOT/etc/diskalias.conf"
da name vda vdb vdc
# The udev helper's index covers every file: a drop-in added, edited or
# removed is seen by the next call, never an answer of the old table.
table <<'T'
alias main1 serial:VBLK-SERIAL1
T
: >"$ROOT/dev/kmsg"
ud() { env -i DISKALIAS_SYSROOT=$ROOT ACTION=add SUBSYSTEM=block DEVTYPE=disk DEVPATH=/devices/x/block/vdb ID_SERIAL=VBLK-SERIAL2 "$bin" udev vdb 2>&1 | grep DISKALIAS_ALL= || echo "(no name)"; }
ud
ud
ls "$ROOT/run/diskalias" | grep -c table.index
echo 'alias later serial:VBLK-SERIAL2' >"$ROOT/etc/diskalias.d/90-later.conf"
ud
echo 'alias more-b serial:VBLK-SERIAL2' >>"$ROOT/etc/diskalias.d/90-later.conf"
ud
mv "$ROOT/etc/diskalias.d/90-later.conf" "$ROOT/etc/diskalias.d/90-later.conf.off"
ud
# As root, a drop-in directory others can write is refused whole (anyone
# could add a name), and said; a drop-in someone else owns, too.
if [ "$(id -u)" = 0 ]; then
	chmod 0777 "$ROOT/etc/diskalias.d"
	da name vdb
	chmod 0755 "$ROOT/etc/diskalias.d"
	chown 1:1 "$ROOT/etc/diskalias.d/60-new.conf"
	da name vdb
	chown 0:0 "$ROOT/etc/diskalias.d/60-new.conf"
	da name vdb
fi
