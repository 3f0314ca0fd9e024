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
# The udev helper sees one device at a time: the second disk with a WWN
# finds the first in run/diskalias/claims, neither is named, and the first
# is asked to look again (a change event); a partition named after its disk
# follows it. When one goes, the other is named again.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
T
: >"$ROOT/dev/kmsg"
ud() { local k=$1; shift; echo "\$ $* diskalias udev $k"; env -i DISKALIAS_SYSROOT=$ROOT "$@" "$bin" udev "$k" 2>&1; local rc=$?; [ $rc -eq 0 ] || echo "[exit $rc]"; }
for d in sdc sdd sdc/sdc1; do : >"$ROOT/sys/class/block/${d#*/}/uevent" 2>/dev/null || : >"$ROOT/sys/class/block/sdc/${d#*/}/uevent"; done
ud sdc DEVTYPE=disk MAJOR=8 MINOR=32 ID_WWN=0x5000c500a1b2c3d4
ud sdd DEVTYPE=disk MAJOR=8 MINOR=48 ID_WWN=0x5000c500a1b2c3d4
echo "uevent of sdc: $(cat "$ROOT/sys/class/block/sdc/uevent"), of sdc1: $(cat "$ROOT/sys/class/block/sdc/sdc1/uevent")"
ud sdc DEVTYPE=disk MAJOR=8 MINOR=32 ID_WWN=0x5000c500a1b2c3d4
ud sdc1 DEVTYPE=partition PARTN=1 MAJOR=8 MINOR=33 DEVPATH=/devices/x/block/sdc/sdc1 ID_WWN=0x5000c500a1b2c3d4
sed 's/^[^#]/  &/' "$ROOT"/run/diskalias/claims/*
echo "--- the kernel log"
cat "$ROOT/dev/kmsg"
rm "$ROOT/sys/class/block/sdd"
ud sdc DEVTYPE=disk MAJOR=8 MINOR=32 ID_WWN=0x5000c500a1b2c3d4
