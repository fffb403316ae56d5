# bash completion for hlodiff: commands, options, formats and the values
# of options; files and directories elsewhere.  Installed by `make
# install` to PREFIX/share/bash-completion/completions/hlodiff; to try it
# by hand: source completions/hlodiff.bash

_hlodiff_options='--format --json --json= --text --markdown --junit --github
--color --color= --all -n --by --at-peak --rules --no-rules --werror --html
--by-name --strict --strict-module --source-prefix --allow-incomplete -j --summary --pr --markdown-pr
--full-report --allow-new --gz --help --version'

_hlodiff() {
	local cur prev cmd i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# --opt=VALUE in one word
	case $cur in
	--format=*)
		COMPREPLY=($(compgen -P --format= -W 'text json markdown junit github' -- "${cur#--format=}"))
		return 0
		;;
	--color=*)
		COMPREPLY=($(compgen -P --color= -W 'auto always never' -- "${cur#--color=}"))
		return 0
		;;
	--json=* | --rules=* | --html=* | --markdown-pr=*)
		COMPREPLY=($(compgen -P "${cur%%=*}=" -f -- "${cur#*=}"))
		return 0
		;;
	esac

	# the value of the option before
	case $prev in
	--format)
		COMPREPLY=($(compgen -W 'text json markdown junit github' -- "$cur"))
		return 0
		;;
	--by)
		# one key, or a second after a comma
		local head=
		[[ $cur == *,* ]] && head=${cur%,*},
		COMPREPLY=($(compgen -P "$head" -W 'op_name source opcode memory-space kind' -- "${cur##*,}"))
		return 0
		;;
	--rules)
		COMPREPLY=($(compgen -f -X '!*.rules' -- "$cur") $(compgen -d -- "$cur"))
		return 0
		;;
	--text | --markdown | --md | --junit | --github | --html | --markdown-pr)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0
		;;
	-n | -j | --full-report)
		return 0
		;;
	esac

	# the command word(s)
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		stat) cmd=stat; break ;;
		golden) cmd=golden; break ;;
		-*) ;;
		*) cmd=diff; break ;;
		esac
	done
	if [[ $cmd == golden ]] && ((COMP_CWORD == i + 1)); then
		COMPREPLY=($(compgen -W 'update check' -- "$cur"))
		return 0
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$_hlodiff_options" -- "$cur"))
		# "--json=" and "--color=" take their value in the same word
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	if [[ -z $cmd ]]; then
		COMPREPLY=($(compgen -W 'stat golden' -- "$cur") $(compgen -f -- "$cur"))
		return 0
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}

complete -o filenames -F _hlodiff hlodiff
