# Roots, tables and permissions: where the table is, and what is refused.
fixture host-virtio
da --sysroot /nonexistent list
da --sysroot "$ROOT/proc/partitions" list
mkdir -p empty-root
da --sysroot empty-root list
da --sysroot empty-root check
printf 'alias elsewhere serial:21766363104595826\n' > other.conf
da -c other.conf list -o NAME,ALIAS -n | tr -s ' '
DISKALIAS_CONFIG=other.conf da name vda
da --config other.conf set extra vda --by serial
cat other.conf
da list --sysroot "$ROOT" -o NAME,ALIAS -n | tr -s ' '
# As root, a table others could write is refused.
table <<'T'
alias root-disk serial:21766363104595826
T
chmod 0666 "$ROOT/etc/diskalias.conf"
da name vda
da set x vda
chmod 0644 "$ROOT/etc/diskalias.conf"
chown 1000 "$ROOT/etc/diskalias.conf"
da name vda
chown 0 "$ROOT/etc/diskalias.conf"
da name vda
mkdir -p "$ROOT/etc/dir.conf"
da -c "$ROOT/etc/dir.conf" list
