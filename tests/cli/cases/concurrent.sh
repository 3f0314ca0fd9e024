# 32 editors at once on one table: every alias lands, the table stays valid.
fixture host-virtio
table <<'T'
# shared table
alias first serial:21766363104595826
T
for i in $(seq 1 32); do
	"$bin" set "disk$i" "serial:SN-$i" 2>/dev/null &
done
wait
grep -c '^alias disk' "$ROOT/etc/diskalias.conf"
for i in $(seq 1 32); do grep -q "^alias disk$i serial:SN-$i\$" "$ROOT/etc/diskalias.conf" || echo "disk$i lost"; done
head -2 "$ROOT/etc/diskalias.conf"
"$bin" check 2>&1 | grep -c "no such disk present"
"$bin" check 2>/dev/null
ls "$ROOT/etc"
