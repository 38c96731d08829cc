# bash completion for kso (installed by `make install`).  The options and
# their values come from `kso COMMAND --help`, the list every command
# prints from its own option tables (cli/args.c), so this file never
# falls behind them.
_kso()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    local commands="validate dump explain schedule enum merge findings export check serve corpus replay version"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    # one line per option: SHORT LONG VALUE ("-" where there is none)
    local table
    table=$(command kso "$cmd" --help 2>/dev/null | sed -n \
        -e 's/^  -\([a-z]\), \(--[a-z-]*\) \([^ ]*\)  .*/-\1 \2 \3/p' \
        -e 's/^  -\([a-z]\), \(--[a-z-]*\)  .*/-\1 \2 -/p' \
        -e 's/^    \(--[a-z-]*\) \([^ ]*\)  .*/- \1 \2/p' \
        -e 's/^    \(--[a-z-]*\)  .*/- \1 -/p')
    if [[ $prev == -* ]]; then
        local value
        value=$(printf '%s\n' "$table" | awk -v o="$prev" '($1 == o || $2 == o) { print $3; exit }')
        if [[ $value == *"|"* && $value != *[A-Z]* ]]; then
            COMPREPLY=($(compgen -W "${value//|/ }" -- "$cur"))
            return
        fi
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' "$table" | awk '{ if ($1 != "-") print $1; print $2 }')" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _kso kso
