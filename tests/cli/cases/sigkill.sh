# SIGKILL at any moment of an edit: the table is the old or the new one,
# never a broken one, and the next edit leaves no temporary file behind.
# Editors are killed after a random delay until 200 of them died by the
# signal (not counting those that had finished).
fixture host-virtio
table <<'T'
# kept as it is
alias first serial:21766363104595826
T
kills=0 tries=0 broken=0
while [ $kills -lt 200 ] && [ $tries -lt 3000 ]; do
	tries=$((tries + 1))
	"$bin" set "k$tries" "serial:SN-$tries" >/dev/null 2>&1 &
	pid=$!
	# Up to about as long as an edit takes here.
	for ((spin = RANDOM % 1500; spin > 0; spin--)); do :; done
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ $? = 137 ] && kills=$((kills + 1))
	out=$("$bin" check 2>&1 >/dev/null | grep -v 'no such disk present')
	[ -z "$out" ] || broken=$((broken + 1))
done
echo "killed: $([ $kills -ge 200 ] && echo 200 or more || echo only $kills in $tries)"
echo "broken tables: $broken"
head -n 2 "$ROOT/etc/diskalias.conf"
"$bin" set last serial:SN-LAST 2>/dev/null
echo "files left beside the table: $(ls -A "$ROOT/etc" | grep -cv -e '^diskalias.conf$' -e '^.diskalias.conf.lock$' -e '^fstab$')"
ls -A "$ROOT/etc"
