# run: @NAME arguments, filtered output, stdin, exit status, signals, unknown names.
fixture mixed
table <<'T'
alias bay07 wwn:0x5000c500a1b2c3d4
alias fast serial:S4EVNX0M123456
alias gone wwn:0x5000000000000001
T
# The argument as the command got it, reversed so the output filter leaves it be.
da run -- sh -c 'for a; do echo "$a" | rev; done' sh @bay07 @bay07p2 @fast2 @sdd @@literal x@y
da run -- sh -c 'echo out sdc; echo err nvme0n1p1 >&2'
da run --annotate -- echo /dev/sdc1
echo 'sdc from stdin' | da run -- cat
da run -- sh -c 'exit 7'
# The shell running the case reports the death itself; only the status is ours.
# The shell running the case reports a death itself: only the status is shown.
da run -- sh -c 'kill -TERM $$' 2>/dev/null
da run -- sh -c 'kill -KILL $$' 2>/dev/null
da run -- echo @nope @gone @bay07p9 @bay07
da run -- /nonexistent/command
da run
da run -x -- true
