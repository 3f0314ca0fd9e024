# A malformed table: every problem named with file and line, nothing written.
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
T
cp "$ROOT/etc/diskalias.conf" before.conf
da check
da list
da set new vda
da resolve good
cmp "$ROOT/etc/diskalias.conf" before.conf && echo "table unchanged"
printf 'alias ok serial:1\n\0garbage\n' > "$ROOT/etc/diskalias.conf"
da check
