# Device strings that try to forge output: a serial and a model with an
# escape sequence, a newline, a shell substitution, quotes, '=', invalid
# UTF-8 (a UTF-16 surrogate) and 4 KB of text. No raw control byte reaches
# any output stream or the kernel log; JSON stays valid; nothing is bound
# by a value a table line cannot hold.
fixture mixed
evil=$(printf 'EV\033[2J\033]0;pwned\007IL\nforged: sdd is root $(reboot) "q" a=b \355\240\200')
printf '%s' "$evil" >"$ROOT/sys/class/block/vdb/serial"
{ printf '%s' "$evil"; head -c 4096 /dev/zero | tr '\0' 'x'; } >"$ROOT/sys/class/block/sdd/device/model"
: >"$ROOT/dev/kmsg"
raw() {	# count lines with raw control bytes (tab and newline apart) in what "$@" prints
	"$@" 2>&1 | LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]'
}
for args in "list" "list -o NAME,SERIAL,MODEL" "list -P -o NAME,SERIAL" "list -r -o NAME,SERIAL" "list -J -o NAME,SERIAL,MODEL" "check" "name vdb sdd" "set --by serial evil vdb"; do
	echo "$args: $(raw "$bin" $args) raw"
done
"$bin" list -J -o NAME,SERIAL,MODEL | python3 -c 'import json,sys; d=json.load(sys.stdin); print("json ok,", len(d["blockdevices"]), "devices")'
"$bin" list -J -o NAME,SERIAL,MODEL | iconv -f UTF-8 -t UTF-8 >/dev/null && echo "utf-8 ok"
da list -o NAME,SERIAL,MODEL
da list -P -o NAME,SERIAL
da set --by serial evil vdb
da set evil vdb
# A table value with the same bytes, written quoted: refused, shown escaped and cut short.
printf 'alias evil serial:"EV\\x1b[2JIL\\x0aforged"\nalias long serial:"%s"\n' "$(head -c 300 /dev/zero | tr '\0' 'y')" >"$ROOT/etc/diskalias.conf"
da check
echo "helper: $(raw env -i DISKALIAS_SYSROOT="$ROOT" DEVTYPE=disk "ID_SERIAL=$evil" "$bin" udev vdb) raw"
echo "kernel log: $(LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$ROOT/dev/kmsg") raw lines, $(grep -c . "$ROOT/dev/kmsg") lines"
echo "kernel log lines that start forged: $(grep -c '^forged' "$ROOT/dev/kmsg")"
