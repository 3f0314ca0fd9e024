# apply: /dev/disk/by-alias where no udev runs, and the kernel's alias attribute.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias dblog serial:S4EVNX0M123456
alias data serial:VBLK-DATA
alias spare wwn:0x5000000000000001
T
links() { echo "--- by-alias"; (cd "$ROOT/dev/disk/by-alias" && find . -mindepth 1 -printf '%P %y %l\n' | LC_ALL=C sort); }
# The kernel's attribute where the kernel has it (here sdc and sdd).
printf '\n' >"$ROOT/sys/class/block/sdc/alias"
printf 'old-name\n' >"$ROOT/sys/class/block/sdd/alias"
da apply
links
echo "sdc alias: $(cat "$ROOT/sys/class/block/sdc/alias")"
echo "sdd alias: $(cat "$ROOT/sys/class/block/sdd/alias")"
# Idempotent: nothing to do, nothing said.
da apply
# Links of others are left alone: a file, a link elsewhere, even one in the way.
echo notes >"$ROOT/dev/disk/by-alias/README"
ln -s /srv/elsewhere "$ROOT/dev/disk/by-alias/mine"
ln -s ../../../mapper/x "$ROOT/dev/disk/by-alias/mapped"
# Ours that went stale: a name no longer in the table, a name moved to another disk.
ln -s ../../sda "$ROOT/dev/disk/by-alias/gone"
ln -sfn ../../sda "$ROOT/dev/disk/by-alias/data"
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias data serial:VBLK-DATA
alias mine wwn:0x5000c500a1b2c3d5
T
da apply
links
echo "sdd alias: $(cat "$ROOT/sys/class/block/sdd/alias")"
# A bad line binds nothing, and the others still apply: bay07's link goes, data's stays.
table <<'T'
alias sdc wwn:0x5000c500a1b2c3d4
alias data serial:VBLK-DATA
T
da apply
links | head -n 3
# A table that cannot be read at all changes nothing.
rm "$ROOT/etc/diskalias.conf"
mkfifo "$ROOT/etc/diskalias.conf"
da apply
links | head -n 3
da apply extra
# Planted symlinks are never written through: the record of kept names,
# its new copy, and the by-alias directory itself.
rm "$ROOT/etc/diskalias.conf"
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
T
echo precious >"$ROOT/precious"
mkdir -p "$ROOT/run/diskalias"
echo "old bay07 sdc" >"$ROOT/run/diskalias/renamed"
ln -s "$ROOT/precious" "$ROOT/run/diskalias/renamed.new"
ln -s "$ROOT/precious" "$ROOT/run/diskalias/.renamed.tmp-AAAAAA"
da apply
cat "$ROOT/precious"
# The kernel's alias attribute, planted as a symlink: refused, not followed.
rm "$ROOT/sys/class/block/sdc/alias"
ln -s "$ROOT/precious" "$ROOT/sys/class/block/sdc/alias"
"$bin" unset bay07 >/dev/null 2>&1
da apply
cat "$ROOT/precious"
rm -rf "$ROOT/dev/disk/by-alias"
mkdir "$ROOT/elsewhere"
ln -s "$ROOT/elsewhere" "$ROOT/dev/disk/by-alias"
da apply
ls "$ROOT/elsewhere" | wc -l
