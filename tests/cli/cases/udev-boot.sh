# diskalias udev --boot, before the coldplug: each disk whose add event can
# be told from sysfs gets the names the helper would print, in a file the
# rules import by DISKSEQ, ID_WWN and ID_WWN_WITH_EXTENSION; one kernel log
# record each; a WWN two disks share, a table needing udev, a kernel
# without diskseq, and a new table leave it all to the helper.
# Each disk's sequence number where the kernel gives it: the diskseq file
# and its uevent's DISKSEQ= line, always the same number.
number_disks() {
	local b
	for b in "$ROOT"/sys/class/block/sd*; do
		[ -e "$b/partition" ] && continue
		echo $seq >"$b/diskseq"
		sed -i '/^DISKSEQ=/d' "$b/uevent"
		echo "DISKSEQ=$((seq++))" >>"$b/uevent"
	done
}
fixture sas-jbod24
seq=100
number_disks
: >"$ROOT/dev/kmsg"
boot="$ROOT/run/diskalias/boot"
da set a1 sda
da set a2 sdc
da set --by slot a3 sdd
da set sata sdy
printf 'alias spare wwn:0x5000c500a1b2ffff\n' >>"$ROOT/etc/diskalias.conf"
da udev --boot
ls "$boot" | head -n 4
echo "files: $(ls "$boot" | wc -l)"
for k in sda sdc sdd sdy sdb; do
	for f in $(ls "$boot" | grep "^$(cat "$ROOT/sys/class/block/$k/diskseq")_"); do
		echo "# $k: $f"
		cat "$boot/$f"
	done
done
echo "# the kernel log: one record a named disk or partition"
cat "$ROOT/dev/kmsg"

echo "# each file says what the helper prints given the event its name spells"
: >"$ROOT/dev/kmsg"
same=0 differ=0
for f in $(ls "$boot"); do
	base=${f%_p*} part=
	[ "$base" = "$f" ] || part=${f##*_p}
	IFS=_ read -r s w x <<<"$base"
	k=$(grep -l "^$s\$" "$ROOT"/sys/class/block/sd*/diskseq | sed 's|.*/block/||; s|/diskseq||')
	p=$(readlink -f "$ROOT/sys/class/block/$k")
	set -- DEVTYPE=disk DISKSEQ="$s"
	if [ -n "$part" ]; then
		for q in "$p/$k"*; do [ "$(cat "$q/partition")" = "$part" ] && p=$q; done
		k=${p##*/}
		set -- DEVTYPE=partition PARTN="$part"
	fi
	out=$(env -i DISKALIAS_SYSROOT="$ROOT" ACTION=add "$@" ID_WWN="$w" ID_WWN_WITH_EXTENSION="$x" \
		MAJOR="$(cut -d: -f1 "$p/dev")" MINOR="$(cut -d: -f2 "$p/dev")" DEVPATH="${p#"$ROOT"/sys}" \
		"$bin" udev "$k")
	if [ "$out" = "$(cat "$boot/$f")" ]; then same=$((same + 1)); else differ=$((differ + 1)); echo "DIFFERENT: $k"; fi
done
echo "same: $same, different: $differ"

echo "# the helper refuses a WWN found on a second disk: what was told before the coldplug goes"
da udev --boot >/dev/null
w=$(sed 's/naa./0x/' "$ROOT/sys/class/block/sda/device/wwid")
echo "naa.${w#0x}" >"$ROOT/sys/class/block/sdb/device/wwid"
env -i DISKALIAS_SYSROOT="$ROOT" DEVTYPE=disk MAJOR=8 MINOR=16 ID_WWN=$w ID_WWN_WITH_EXTENSION=$w "$bin" udev sdb
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"
echo "# and a boot run leaves both disks of the WWN to the helper"
da udev --boot
ls "$boot" | grep -c "_${w}_" || true
echo "naa.5000c500a1b2c3e5" >"$ROOT/sys/class/block/sdb/device/wwid"

echo "# a new table: the helper's first call makes a new index and the files go"
da udev --boot >/dev/null
da set a5 sdf
w=$(sed 's/naa./0x/' "$ROOT/sys/class/block/sdf/device/wwid")
env -i DISKALIAS_SYSROOT="$ROOT" DEVTYPE=disk MAJOR=8 MINOR=80 ID_WWN=$w ID_WWN_WITH_EXTENSION=$w "$bin" udev sdf
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"

echo "# a link planted in its place: removed, not followed"
mkdir -p "$PWD/elsewhere"
echo keep >"$PWD/elsewhere/file"
rm -rf "$boot"
ln -s "$PWD/elsewhere" "$boot"
da udev --boot
test -L "$boot" && echo "still a link" || echo "files: $(ls "$boot" | wc -l)"
echo "elsewhere: $(cat "$PWD/elsewhere/file")"

echo "# a disk without diskseq (a kernel before 5.15) is left to the helper"
rm "$ROOT/sys/class/block/sdb/diskseq"
sed -i '/^DISKSEQ=/d' "$ROOT/sys/class/block/sdb/uevent"
da udev --boot

echo "# a table that binds by serial, a by-id link or a filesystem: all left to udev"
da set --by serial s1 sde
da udev --boot
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"
da udev --boot sda

echo "# two enclosures that report one id give two disks one bay: nothing is told"
fixture sas-chain
number_disks
: >"$ROOT/dev/kmsg"
printf 'alias split slot:0x5000ccab0405e000/1\nalias a1 wwn:0x5000cca264a10000\n' >"$ROOT/etc/diskalias.conf"
da udev --boot
echo "files: $(ls "$boot" 2>/dev/null | wc -l)"
grep -c 'not named split' "$ROOT/dev/kmsg"
