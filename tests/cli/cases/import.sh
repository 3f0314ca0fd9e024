# diskalias import: vdev_id.conf and multipath names as table lines; what
# cannot be translated is listed with file and line, never dropped.
fixture sas-jbod24
mkdir -p "$ROOT/etc/zfs" "$ROOT/etc/multipath"
cat >"$ROOT/etc/zfs/vdev_id.conf" <<'C'
# by-vdev
# name     fully qualified or base name of device link
alias d1     /dev/disk/by-id/scsi-35000c500a1b2c3d4
alias d2     scsi-35000c500a1b2c3e5
alias d3     pci-0000:01:00.0-sas-phy2-lun-0	# a by-path name, present
alias d4     pci-0000:09:00.0-sas-phy7-lun-0	# by-path, not present
alias d5     ata-GONE_DISK_XYZ
alias d6     /dev/disk/by-label/backup\x20disk
alias sda    /dev/disk/by-id/scsi-35000c500a1b2c407
alias d7     /dev/sdq
alias d8     /dev/disk/by-vdev/A0
alias d1     /dev/disk/by-id/scsi-35000c500a1b2c418
alias d9
multipath     no
topology      sas_direct
channel 85:00.0 1         A
C
da import vdev_id
# Written, the translated lines name the disks vdev_id named.
table </dev/null
"$bin" import --write vdev_id >/dev/null 2>&1
da resolve d1 d2 d3 d3p1
cat >"$ROOT/etc/multipath/bindings" <<'C'
# Multipath bindings, Version : 1.0
mpatha 3600508b400105e210000900000490000
mpathb 3600508b400105e210000900000490001
mpathc
C
cat >"$ROOT/etc/multipath.conf" <<'C'
defaults {
	user_friendly_names yes
}
multipaths {
	multipath {
		wwid "3600508b400105e21000090000049aaaa"
		alias db-log
	}
	multipath {
		wwid 3600508b400105e21000090000049bbbb
	}
}
C
da import multipath
# --write adds them to the table in one edit, beside what is there.
table <<'T'
alias mpathb serial:TAKEN
T
da import --write multipath "$ROOT/etc/multipath/bindings"
cat "$ROOT/etc/diskalias.conf"
# --file: into a drop-in of its own, as a configuration tool would own it.
table <<'T'
alias mpathb serial:TAKEN
T
da import --write --file 50-multipath.conf multipath "$ROOT/etc/multipath/bindings"
cat "$ROOT/etc/diskalias.d/50-multipath.conf"
da import --file 50-multipath.conf multipath
da import vdev_id "$ROOT/etc/nonexistent.conf"
da import zpool
da import
# Hostile files: escapes stay escaped, a FIFO is refused at once, a NUL byte
# refuses the file (the rest would be lost unread).
printf 'alias \033[2Jevil scsi-35000c500a1b2c3d4\nalias good scsi-x\033]0;pwn\007y\n' >hostile.conf
da import vdev_id hostile.conf
mkfifo fifo
timeout 5 "$bin" import vdev_id fifo; echo "exit $?"
printf 'alias d1 scsi-35000c500a1b2c3d4\n\0alias d2 scsi-35000c500a1b2c3e5\n' >nul.conf
da import vdev_id nul.conf
