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
# Every command has its examples in diskalias(8).
for cmd in $("$bin" help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}'); do
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$top/man/diskalias.8" | grep -qx "\.SS $cmd" ||
		echo "diskalias $cmd: no examples in diskalias(8)"
done
# The README names what exists: its commands, its files and links, and each
# figure links to the dated measurement it comes from.
python3 - "$top" "$bin" <<'PY'
import os, re, subprocess, sys
top, bin = sys.argv[1], sys.argv[2]
readme = open(os.path.join(top, "README.md")).read()
helptext = subprocess.run([bin, "help"], capture_output=True, text=True).stdout
commands = set(re.findall(r"^ ([a-z]+) ", helptext.split("Commands:")[1].split("\n\n")[0], re.M))
# Commands as typed: in a code span or on a command line of an example.
said = set(re.findall(r"`[^`\n]*\bdiskalias ([a-z]+)", readme))
said |= set(re.findall(r"^\s+[$#] diskalias ([a-z]+)", readme, re.M))
for c in sorted(said - commands):
    print("README: diskalias %s: no such command" % c)
paths = set(re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme))
paths |= {p for p in re.findall(r"`([a-zA-Z0-9_./-]+)`", readme)
          if "/" in p and not p.startswith("/") and re.match(r"(doc|man|bench|tests|kernel|lib|src|include|udev|systemd|initramfs|completion|cockpit|debian|scripts|shared)/", p)}
paths |= {p for p in re.findall(r"`([A-Z]+\.md)`", readme)}
for p in sorted(paths):
    if not os.path.exists(os.path.join(top, p.rstrip("/"))):
        print("README: %s: no such file" % p)
def slug(h):
    h = h.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")
figures = readme.split("## Figures", 1)[1].split("\n## ", 1)[0]
rows = [l for l in figures.splitlines() if l.startswith("| ") and not l.startswith("| what") and not l.startswith("|---")]
if not rows:
    print("README: no figures table")
for row in rows:
    m = re.search(r"\[(\d{4}-\d\d-\d\d)\]\(([^)#]+)#([^)]+)\)\s*\|\s*$", row)
    if not m:
        print("README: figure without a dated link: %s" % row[:60])
        continue
    date, f, anchor = m.groups()
    heads = [l.lstrip("#").strip() for l in open(os.path.join(top, f)).read().splitlines() if l.startswith("#")]
    match = [h for h in heads if slug(h) == anchor]
    if not match:
        print("README: %s#%s: no such heading" % (f, anchor))
    elif date not in match[0]:
        print("README: %s#%s: the heading carries no %s" % (f, anchor, date))
print("checked %d README figures, %d paths, %d commands" % (len(rows), len(paths), len(said & commands)))
PY
