#!/bin/bash
# dracut module: /dev/disk/by-alias/NAME in early boot (see diskalias(8)).
# The helper, its udev rules, the alias table and its drop-ins; dracut's
# udev-rules module brings udev and 60-persistent-storage.rules.

check() {
	require_binaries diskalias || return 1
	# Only where there is a table to name disks by, unless asked for.
	[[ $hostonly ]] && [[ ! -e /etc/diskalias.conf ]] && [[ ! -d /etc/diskalias.d ]] && return 255
	return 0
}

depends() {
	echo udev-rules
	return 0
}

install() {
	inst_binary "$(command -v diskalias)" /usr/sbin/diskalias
	ln_r /usr/sbin/diskalias "${udevdir}/diskalias"
	inst_rules 65-diskalias.rules
	[[ -e /etc/diskalias.conf ]] && inst_simple /etc/diskalias.conf
	local f
	for f in /etc/diskalias.d/*.conf; do
		[[ -e $f ]] && inst_simple "$f"
	done
}
