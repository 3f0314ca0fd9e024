# A malformed table: every problem named with file and line; the good lines
# still apply for every command; edits keep the bad lines byte for byte.
fixture host-virtio
table <<'T'
# comment
alias good serial:21766363104595826
alias
alias two words extra
frobnicate x y
alias bad-id disk:1
alias sdb serial:X
alias GOOD serial:Y
alias good1 serial:Z
alias quoted label:"unterminated
alias fine serial:21766363104595826
T
cp "$ROOT/etc/diskalias.conf" before.conf
da check
da list -o NAME,ALIAS,ALIASES
da resolve good fine
da set new vda
cmp <(head -n 11 "$ROOT/etc/diskalias.conf") before.conf && echo "bad lines kept"
tail -n 1 "$ROOT/etc/diskalias.conf"
# Removing a name that is defined twice removes both lines: neither was in force.
da unset GOOD
grep -ci good "$ROOT/etc/diskalias.conf"
printf 'alias ok serial:1\n\0garbage\n' > "$ROOT/etc/diskalias.conf"
da check
# A table named with -c must be there; a FIFO is refused, never waited on.
da -c /nonexistent/diskalias.conf list
da -c /nonexistent/diskalias.conf check
mkfifo fifo.conf
da -c fifo.conf list
# An alias file that is a symlink is edited where it points.
mv "$ROOT/etc/diskalias.conf" "$ROOT/etc/real.conf"
ln -s real.conf "$ROOT/etc/diskalias.conf"
da set linked vda
ls -l "$ROOT/etc/diskalias.conf" | grep -o -- '-> real.conf'
tail -n 1 "$ROOT/etc/real.conf"
