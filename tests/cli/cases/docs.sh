# The man pages say what the code does: every long option in any command's
# help is in diskalias(8), and so is every column list has; every identity
# kind is in diskalias.conf(5); and the names refused as kernel-like are the
# ones lib/name.c refuses, no more, no fewer, in diskalias.conf(5).
top=$fixtures/../..
plain() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$1"; }
plain "$top/man/diskalias.8" >man8.txt
for cmd in $("$bin" help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}'); do
	for opt in $("$bin" help "$cmd" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -q -- "$opt" man8.txt || echo "diskalias $cmd $opt: not in diskalias(8)"
	done
done
code=$(sed -n '/kernel_patterns\[\] = {/,/};/p' "$top/lib/name.c" | grep -o '"[^"]*"' | tr -d '"' |
	sed -e 's/%a/[a-z]+/g' -e 's/%d/[0-9]+/g' | sort)
man=$(plain "$top/man/diskalias.conf.5" | sed -n '/^\.SS Names/,/^\.SS/p' | sed -n 's/^\.BR \([a-z-]*\) \(\[[^,]*\),*$/\1\2/p' |
	tr -d ' ' | sort)
[ "$code" = "$man" ] || diff <(echo "$code") <(echo "$man")
cols=$("$bin" list --list-columns | awk '{print $1}')
for col in $cols; do
	sed -n '/--output/,/^\.TP/p' man8.txt | grep -qw -- "$col" || echo "list column $col: not in diskalias(8)"
done
kinds=$("$bin" set --by '?' x y 2>&1 | sed -n 's/.*expected one of \(.*\))$/\1/p' | tr -d ,)
[ -n "$kinds" ] || echo "no identity kinds in the message of set --by"
for k in $kinds; do
	plain "$top/man/diskalias.conf.5" | grep -q -- "$k:" || echo "identity kind $k: not in diskalias.conf(5)"
done
echo "checked $(echo "$cols" | wc -w) columns, $(echo "$kinds" | wc -w) identity kinds,"
echo "checked $(echo "$code" | wc -l) name patterns and the options of $("$bin" help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF' | wc -l) commands"
