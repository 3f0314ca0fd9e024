# Test 1: /sys/block/DISK/alias reads, writes, clears and refuses, with
# EINVAL and leaving the old value in place, what would break a log line,
# a uevent or a path: anything but 1 to 64 bytes of ASCII letters, digits
# and "._+-" starting with a letter or digit. Kernel-name look-alikes are
# user space's to refuse (diskalias set does): the kernel takes them.
. /test/lib.sh
disk=$(scsi_disk) || { not_ok "no SCSI disk"; finish; }
A=/sys/block/$disk/alias

# put FORMAT: write printf FORMAT's bytes in one write(); sets $err.
put() {
	printf "$1" >/tmp/val
	if dd if=/tmp/val of=$A bs=4096 count=1 2>/tmp/err; then
		err=
	else
		err=$(cat /tmp/err)
	fi
}
expect_value() { # expect_value DESCRIPTION EXPECTED
	got=$(cat $A)
	[ "$got" = "$2" ] && ok "$1" || not_ok "$1: read '$got', want '$2'"
}

check "mode 0644" [ "$(stat -c %a $A)" = 644 ]
expect_value "unset alias reads as an empty line" ""
[ "$(wc -c <$A)" = 1 ] && ok "unset alias is one newline" || not_ok "unset alias: $(wc -c <$A) bytes"

for v in bay07 dblog ssd-cache sdX sd loop nvme0 dm-x A.b_c+d-e 0abc 123a sdcard-x \
	sda sdb1 nvme0n1p2 md127 dm-0 1234 0 \
	x123456789012345678901234567890123456789012345678901234567890123; do
	put "$v\n"
	[ -z "$err" ] && [ "$(cat $A)" = "$v" ] && ok "accepts '$v'" ||
		not_ok "accepts '$v': err='$err' read '$(cat $A)'"
done
[ ${#v} = 64 ] || not_ok "the 64-byte name is ${#v} bytes"

put "bay07"
expect_value "no trailing newline needed" bay07
put "keep-me\n"
for f in \
	'x1234567890123456789012345678901234567890123456789012345678901234' \
	'a/b' 'a b' 'bay\t7' 'bay\0017' '\001' 'bay\r' 'x1\n\n' 'a\0b' \
	'.' '..' '.hidden' '-x' '_x' '+x' 'bay\351' 'caf\303\251' 'a:b' '8:32' 'a=b' \
	'bay07\\' 'a"b' 'a%%s' 'a[1]' '\033[31mred'; do
	put "$f"
	case $err in
	*"Invalid argument"*) ok "refuses '$f' with EINVAL" ;;
	*) not_ok "refuses '$f' with EINVAL: got '$err', read '$(cat $A)'" ;;
	esac
done
expect_value "refused writes leave the alias alone" keep-me

klog_mark
put "\n"
expect_value "a lone newline clears" ""
put "bay07\n"
put "bay07\n"
put "bay07"
put "dblog\n"
put "\n"
put "\n"
expect_value "cleared" ""
klog | grep ": alias " >/tmp/log
cat >/tmp/want <<EOW
block $disk: alias cleared
block $disk: alias set to bay07
block $disk: alias set to dblog
block $disk: alias cleared
EOW
if cmp -s /tmp/log /tmp/want; then
	ok "each change logged once, repeats are silent"
else
	not_ok "change log:"; cat /tmp/log
fi

# A million rewrites must not leak: compare free memory before and after,
# once RCU has freed the old names.
free_kb() { sed -n 's/^MemFree: *\([0-9]*\) kB/\1/p' /proc/meminfo; }
/test/alias-hammer write $A 2000 one two >/dev/null
sleep 2
before=$(free_kb)
n=$(/test/alias-hammer write $A 1000000 one two three)
sleep 3
after=$(free_kb)
echo "# $n rewrites: MemFree $before kB before, $after kB after"
# A leak of even 16 bytes a write would be 16 MB here.
[ "$n" = 1000000 ] && [ $((before - after)) -lt 4096 ] &&
	ok "a million rewrites do not leak" ||
	not_ok "a million rewrites: $n done, MemFree $before -> $after kB"
put "\n"
finish
