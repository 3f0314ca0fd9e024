# One identity, one disk: an identity several devices share binds none of them.
# nvme0 has two namespaces; udev's database has both claim the controller's
# by-id link nvme-MODEL_SERIAL (the link itself points at one of them).
fixture nvme-server
da set both id:nvme-SAMSUNG_MZQL23T8HCLS-00A07_S64HNE0R123456
da set both serial:S64HNE0R123456
da set --by serial ns2 nvme0n2
da set --by id ns2 nvme0n2
table <<'T'
alias both id:nvme-SAMSUNG_MZQL23T8HCLS-00A07_S64HNE0R123456
alias ns1 wwn:eui.0025388b71b2c3d4
T
da check
da resolve both
da name nvme0n1 nvme0n2
da list -o NAME,ALIAS,IDENTITY,STATE
# As many names as the udev rules make links for, and no more.
table </dev/null
for i in $(seq 16); do "$bin" set "n$i" nvme1n1 >/dev/null 2>&1; done
da set n17 nvme1n1
printf 'alias n17 wwn:eui.36344730522001040025384500000001\n' >>"$ROOT/etc/diskalias.conf"
da check
"$bin" apply >/dev/null 2>&1
ls "$ROOT/dev/disk/by-alias" | wc -l
