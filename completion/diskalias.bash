# bash completion for diskalias(8). Commands, options, columns and identity
# kinds are asked of diskalias itself, so they follow the installed version;
# names come from the table and the disks present (list), as the user typed
# -c/--config and --sysroot.

_diskalias_names() { # the aliases (partitions' too); with "all", kernel names too
	local -a args=()
	local cols=ALIASES
	[ -n "$config" ] && args+=(--config "$config")
	[ -n "$sysroot" ] && args+=(--sysroot "$sysroot")
	[ "${1:-}" = all ] && cols=ALIASES,KNAME
	diskalias "${args[@]}" list -a -n -r -o "$cols" 2>/dev/null | tr ' ,' '\n\n' | sed '/^$/d'
}

_diskalias() {
	local cur prev cmd="" config="" sysroot="" i base cols
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# The command is the first word that is no option (or an option's value).
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-c | --config) config=${COMP_WORDS[i + 1]}; i=$((i + 1)) ;;
		--sysroot) sysroot=${COMP_WORDS[i + 1]}; i=$((i + 1)) ;;
		-*) ;;
		*) [ -z "$cmd" ] && cmd=${COMP_WORDS[i]} ;;
		esac
	done

	case $prev in
	-c | --config | -F | --file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--sysroot | --textfile)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	-o | --output)
		base=""
		cols=$(diskalias list --list-columns 2>/dev/null | awk '{print $1}')
		# -o NAME,ALI<tab>: complete the last of the list.
		[[ $cur == *,* ]] && base=${cur%,*},
		COMPREPLY=($(compgen -P "$base" -W "$cols" -- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return ;;
	--by)
		if [ "$cmd" = chassis ]; then
			COMPREPLY=($(compgen -W "rows columns" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -W "$(diskalias set --by '?' x y 2>&1 |
			sed -n 's/.*expected one of \(.*\))$/\1/p' | tr -d ,)" -- "$cur"))
		return ;;
	-l | --level)
		COMPREPLY=($(compgen -W "emerg alert crit err warn notice info debug" -- "$cur"))
		return ;;
	--first)
		COMPREPLY=($(compgen -W "top-left top-right bottom-left bottom-right" -- "$cur"))
		return ;;
	--side)
		COMPREPLY=($(compgen -W "front rear" -- "$cur"))
		return ;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return ;;
	esac

	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--config --sysroot --help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(diskalias help 2>/dev/null |
				sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}')" -- "$cur"))
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(diskalias "$cmd" --help 2>/dev/null |
			grep -o -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
		return
	fi
	case $cmd in
	run)
		# @NAME is a disk's node in the command's arguments; else a command.
		if [[ $cur == @* ]]; then
			COMPREPLY=($(compgen -P @ -W "$(_diskalias_names all)" -- "${cur#@}"))
		else
			COMPREPLY=($(compgen -c -- "$cur"))
		fi ;;
	help)
		COMPREPLY=($(compgen -W "$(diskalias help 2>/dev/null |
			sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF {print $1}')" -- "$cur")) ;;
	filter)
		COMPREPLY=($(compgen -f -- "$cur")) ;;
	import)
		# The source, then its files.
		if [[ " ${COMP_WORDS[*]:1:COMP_CWORD-1} " == *" vdev_id "* ||
			" ${COMP_WORDS[*]:1:COMP_CWORD-1} " == *" multipath "* ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -W "vdev_id multipath" -- "$cur"))
		fi ;;
	unset | rename | resolve)
		COMPREPLY=($(compgen -W "$(_diskalias_names)" -- "$cur")) ;;
	chassis)
		# The subcommand, then a chassis's name (unset) or enclosures (set).
		if [[ " ${COMP_WORDS[*]:1:COMP_CWORD-1} " == *" unset "* ]]; then
			COMPREPLY=($(compgen -W "$(diskalias chassis list -n -r 2>/dev/null | awk '{print $1}' | sort -u)" -- "$cur"))
		elif [[ " ${COMP_WORDS[*]:1:COMP_CWORD-1} " == *" set "* ]]; then
			COMPREPLY=($(compgen -W "pcie $(diskalias map -J 2>/dev/null |
				sed -n 's/^ *"id": "\(0x[0-9a-fA-F]*\)",*$/\1/p' | sort -u)" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "set unset list" -- "$cur"))
		fi ;;
	set | name)
		COMPREPLY=($(compgen -W "$(_diskalias_names all)" -- "$cur")) ;;
	esac
}
complete -F _diskalias diskalias
