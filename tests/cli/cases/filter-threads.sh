# filter: a large file is rewritten by a thread per CPU, segment by segment,
# and comes out byte for byte as the one-thread stream (a pipe) has it:
# names at every offset, a line longer than several segments, files that
# end inside a name, stdin at an offset, three modes; write errors stop
# every thread.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias dblog wwn:0x5000c500a1b2c3d5
alias bay1 wwn:0x5000c500a1b2c300
alias fast serial:S4EVNX0M123456
alias vm-data serial:VBLK-DATA
alias lvdata id:dm-name-vg0-data
T
# About 40 MB: lines of every length, names next to every kind of byte.
awk 'BEGIN {
	split("sd 2:0:3:0: [sdc] tag#1 Sense Key : Medium Error|EXT4-fs (nvme0n1p2): error|" \
	      " sdc: sdc1 sdc2|I/O error, dev sdd, sector 2048|/dev/sdc1 on /srv; /dev/mapper/vg0-data|" \
	      "not names: sdca asdc sdc_old /sys/block/sdc/stat nvme01|md/raid1:md127: failure on sdc1.", w, "|")
	for (i = 0; i < 500000; i++) {
		pad = substr("..........................................", 1, (i * 7) % 41)
		printf "[%10.6f] %s%s %s\n", i / 1000, pad, w[i % 7 + 1], (i % 3 ? "sdc" : "bay07")
	}
	# One line of 3 MB: it spans segments, and the thread with it waits its turn.
	for (i = 0; i < 300000; i++)
		printf "sdc1 sdd "
	printf "\n"
	for (i = 0; i < 20000; i++)
		printf "%s sdc%d\n", substr("xxxxxxxxxxxxxxxxxxxxxxxxxx", 1, i % 23), i % 12
	printf "no newline at the end: sdc"
}' >big
one() { cat "$@" | "$bin" filter; }
same() {
	if cmp -s "$1" "$2"; then echo "same: $3"; else echo "DIFFERENT: $3 ($(cmp "$1" "$2" 2>&1))"; fi
}
echo "size: $(($(wc -c <big) / 1000000)) MB"
"$bin" filter big >out.threads
one big >out.one
same out.threads out.one "filter big"
"$bin" filter --annotate big >out.threads
cat big | "$bin" filter --annotate >out.one
same out.threads out.one "filter --annotate big"
"$bin" filter big | "$bin" filter --reverse big - >out.threads
{ cat big; "$bin" filter big; } | "$bin" filter --reverse >out.one
same out.threads out.one "filter --reverse big -"
# A file that ends inside a name goes on into the next: sd + c1.
printf 'tail of the last file: sd' >a
printf 'c1 and on\n' >b
cat b big >c
"$bin" filter a c big a >out.threads
one a c big a >out.one
same out.threads out.one "filter a c big a"
head -c 40 out.threads
echo
# Standard input, a regular file read from where its offset is.
(read -r line; "$bin" filter) <big >out.threads
tail -n +2 big | "$bin" filter >out.one
same out.threads out.one "filter <big after its first line"

# The threads run: with the output blocked, the process has one per CPU
# (at most 16), and one alone when it may use one CPU.
cpus=$(nproc)
[ "$cpus" -gt 16 ] && cpus=16
mkfifo fifo
"$bin" filter big >fifo &
pid=$!
exec 3<fifo
for i in $(seq 100); do
	[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" = "$cpus" ] && break
	sleep 0.05
done
tasks=$(ls /proc/$pid/task | wc -l)
cat <&3 >out.threads
exec 3<&-
wait $pid
echo "threads of a blocked filter: $([ "$tasks" = "$cpus" ] && echo 'one per CPU' || echo "$tasks, not $cpus")"
one big >out.one.all
same out.threads out.one.all "blocked and read later"
taskset -c 0 "$bin" filter big >fifo &
pid=$!
exec 3<fifo
sleep 0.3
tasks=$(ls /proc/$pid/task | wc -l)
cat <&3 >/dev/null
exec 3<&-
wait $pid
echo "threads of a filter on one CPU: $tasks"

# Memory does not follow a line's length: a 40 MB line in a segment goes
# out as it comes once its turn is there (60 MB without that).
awk 'BEGIN {
	for (i = 0; i < 150000; i++)
		printf "[%d] sd 2:0:3:0: [sdc] error\n", i
	for (i = 0; i < 4000000; i++)
		printf "sdc1 sdd "
	printf "\n"
}' >long
kb=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$bin" filter long)
echo "peak memory of a 40 MB line: $([ "$kb" -lt 40000 ] && echo 'under 40 MB' || echo "$kb kB")"
rm -f long

# Write errors stop every thread: no hang, one message, exit 1.
timeout 60 "$bin" filter big >/dev/full
echo "[exit $?]"
(trap '' PIPE; timeout 60 "$bin" filter big | head -c 10 >/dev/null; echo "[exit ${PIPESTATUS[0]}]")
