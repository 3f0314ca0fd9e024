# diskalias udev --boot, before the coldplug: each disk whose add event can
# be told from sysfs gets the names the helper would print, in a file the
# rules import by DISKSEQ, ID_WWN and ID_WWN_WITH_EXTENSION; one kernel log
# record each; a WWN two disks share, a table needing udev, a kernel
# without diskseq, and a new table leave it all to the helper.
fixture sas-chain
seq=100
for b in "$ROOT"/sys/class/block/sd*; do
	[ -e "$b/partition" ] || echo $((seq++)) >"$b/diskseq"
done
: >"$ROOT/dev/kmsg"
boot="$ROOT/run/diskalias/boot"
da set a1 sda
da set a2 sdb
da set --by slot a3 sdd
da set b12 sdu --by slot
printf 'alias spare wwn:0x5000cca264a1ffff\n' >>"$ROOT/etc/diskalias.conf"
da udev --boot
ls "$boot" | head -n 4
echo "files: $(ls "$boot" | wc -l)"
for k in sda sdd sdu sdc; do
	f=$(ls "$boot" | grep "^$(cat "$ROOT/sys/class/block/$k/diskseq")_")
	echo "# $k: $f"
	cat "$boot/$f"
done
echo "# the kernel log: one record a named disk"
cat "$ROOT/dev/kmsg"

echo "# each file says what the helper prints given the event its name spells"
: >"$ROOT/dev/kmsg"
same=0 differ=0
for f in $(ls "$boot"); do
	IFS=_ read -r s w x <<<"$f"
	k=$(grep -l "^$s\$" "$ROOT"/sys/class/block/sd*/diskseq | sed 's|.*/block/||; s|/diskseq||')
	p=$(readlink -f "$ROOT/sys/class/block/$k")
	out=$(env -i DISKALIAS_SYSROOT="$ROOT" ACTION=add DEVTYPE=disk DISKSEQ="$s" ID_WWN="$w" \
		ID_WWN_WITH_EXTENSION="$x" MAJOR="$(cut -d: -f1 "$p/dev")" MINOR="$(cut -d: -f2 "$p/dev")" \
		DEVPATH="${p#"$ROOT"/sys}" "$bin" udev "$k")
	if [ "$out" = "$(cat "$boot/$f")" ]; then same=$((same + 1)); else differ=$((differ + 1)); echo "DIFFERENT: $k"; fi
done
echo "same: $same, different: $differ"

echo "# the helper refuses a WWN found on a second disk: what was told before the coldplug goes"
da udev --boot >/dev/null
echo "naa.5000cca264a10000" >"$ROOT/sys/class/block/sdc/device/wwid"
env -i DISKALIAS_SYSROOT="$ROOT" DEVTYPE=disk MAJOR=8 MINOR=32 ID_WWN=0x5000cca264a10000 \
	ID_WWN_WITH_EXTENSION=0x5000cca264a10000 "$bin" udev sdc
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"
echo "# and a boot run leaves both disks of the WWN to the helper"
da udev --boot
ls "$boot" | grep -c "_0x5000cca264a10000_" || true
echo "naa.5000cca264a10002" >"$ROOT/sys/class/block/sdc/device/wwid"

echo "# a new table: the helper's first call makes a new index and the files go"
da udev --boot >/dev/null
da set a5 sdf
env -i DISKALIAS_SYSROOT="$ROOT" DEVTYPE=disk MAJOR=8 MINOR=80 ID_WWN=0x5000cca264a10005 \
	ID_WWN_WITH_EXTENSION=0x5000cca264a10005 "$bin" udev sdf
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"

echo "# a disk without diskseq (a kernel before 5.15) is left to the helper"
rm "$ROOT/sys/class/block/sdb/diskseq"
da udev --boot

echo "# a table that binds by serial, a by-id link or a filesystem: all left to udev"
da set --by serial s1 sde
da udev --boot
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"
da udev --boot sda
