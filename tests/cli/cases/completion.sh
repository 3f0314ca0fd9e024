# bash completion: commands, options, columns, kinds and names, each asked
# of the diskalias being tested (first in PATH).
fixture sas-jbod24
table <<'T'
alias bay00 wwn:0x5000c500a1b2c3d4
alias bay02 wwn:0x5000c500a1b2c3f6
alias spare wwn:0x5000c50000000001
T
top=$fixtures/../..
PATH=$(dirname "$bin"):$PATH
source "$top/completion/diskalias.bash"
comp() { # the words typed, the last one being completed
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	_diskalias
	echo "$* -> ${COMPREPLY[*]}"
}
comp diskalias ""
comp diskalias re
comp diskalias --sys
comp diskalias resolve bay
comp diskalias name sd
comp diskalias --config "$ROOT/etc/diskalias.conf" unset s
comp diskalias list -o NAME,AL
comp diskalias list --j
comp diskalias set --by p
comp diskalias dmesg -l e
comp diskalias help di
comp diskalias import v
comp diskalias import --write m
comp diskalias run smartctl -H @bay0
# zsh: the same, typed into a real interactive zsh with its completion
# system, Tab pressed (tests/tools/zsh-complete).
"$top/tests/tools/zsh-complete" "$top/completion" 'diskalias res' 'diskalias resolve sp' \
	'diskalias list -o NAME,ALIASE' 'diskalias set --by partl' 'diskalias import v' \
	'diskalias metrics --text' 'diskalias run ls @spa' 'diskalias help dis' 'diskalias --sys' \
	"diskalias --config $ROOT/etc/diskalias.conf unset sp" 'diskalias name sdc'
