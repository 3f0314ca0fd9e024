# Names in old logs: a log kept across a reboot, named boot by boot by the
# mapping records each boot carries, not by today's table (recorded from
# make system-check: the disks moved between the boots).
fixture mixed
table <<'T'
alias today wwn:0x5000c500a1b2c3d4
T
log=$fixtures/logs/two-boots.dmesg
da history "$log"
da history -J "$log" | head -n 12
# The same kernel name, another disk in each boot: its lines say which.
da filter --history "$log" | grep -E 'Attached SCSI disk|diskalias: sd[a-d] is|Linux version' | cut -c1-80
da filter --history --annotate "$log" | grep -E 'Attached SCSI disk' | cut -c1-80
# Today's table names the old log wrongly: sdc is 'today' now.
da filter "$log" | grep -c today
# dmesg -F does the same on its own when the log has records.
da dmesg -F "$log" | grep -E '\] Attached SCSI disk' | cut -c1-60
# --reverse: the names back to the kernel names of their boot. (Words that
# are aliases in any case come back too: "Fast TSC" has fast. A SCSI
# address, "sd 0:0:1:0:", was named too and comes back as the disk's name.)
"$bin" filter --history "$log" | "$bin" filter --history --reverse |
	grep -o '\[[^]]*\] Attached SCSI' >back.txt
grep -o '\[[^]]*\] Attached SCSI' "$log" | diff - back.txt && echo "reverse gives the kernel names back"
# A log without records: said, and left as it is; a journalctl text with its boot IDs.
printf 'sd 0:0:0:0: [sdc] Attached SCSI disk\n' | da filter --history
cat >journal.txt <<'J'
-- Boot 0f6e2a1b9c8d4e7f8a9b0c1d2e3f4a5b --
[    0.000000] vm kernel: Linux version 6.1.192
[    1.600000] vm kernel: sd 0:0:0:0: [sda] Attached SCSI disk
[    4.600000] vm kernel: diskalias: sda is bay04 (wwn:0x5000c50015ea71d4)
-- Boot 7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d --
[    0.000000] vm kernel: Linux version 6.1.192
[    1.600000] vm kernel: sd 0:0:0:0: [sda] Attached SCSI disk
[    4.600000] vm kernel: diskalias: sda is bay01 (wwn:0x5000c50015ea71a1)
[    9.000000] vm kernel: block sda: alias cleared
[    9.500000] vm kernel: I/O error, dev sda, sector 0
J
da history journal.txt
da filter --history journal.txt
# Hostile records: escapes stay escaped, a record that is no name is ignored.
printf 'diskalias: sdc is \033[2J (wwn:x)\ndiskalias: sdc is bay07 (serial:\\x1b]0;x)\nsdc\n' | da history -
da history /nonexistent.log
da history a b
