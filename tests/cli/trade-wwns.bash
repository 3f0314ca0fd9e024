# Sourced by cli cases on the fixture sas-jbod24: sdc and sdd trade WWNs in
# sysfs without the kernel saying so. State A: sdc has 0x5000c50000000003
# and sdd 0x5000c50000000004 (with a table naming them bay03 and bay04,
# sdc is bay03); state B: the other way round.
trade_wwns() {
	local a=5000c50000000003 b=5000c50000000004
	[ "$1" = A ] || { a=5000c50000000004 b=5000c50000000003; }
	echo "naa.$a" >"$ROOT/sys/class/block/sdc/device/wwid"
	echo "naa.$b" >"$ROOT/sys/class/block/sdd/device/wwid"
}
