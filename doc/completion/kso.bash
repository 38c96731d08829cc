# bash completion for kso (installed by `make install`).  The options and
# their values come from `kso COMMAND --help`, the list every command
# prints from its own option tables (cli/args.c), and the quirk names from
# kso itself, so this file never falls behind them; the commands are
# listed here (tests/test_manpage.py holds them to `kso --help`).
_kso()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    local commands="validate dump explain schedule enum merge findings capacity report export check serve corpus replay version"
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
    # --quirk NAME=off|on: the names kso itself accepts (its refusal of an
    # unknown one lists them)
    if [[ $prev == --quirk ]]; then
        local names
        names=$(command kso validate --quirk '?' 2>&1 | sed -n 's/.*NAME one of //p' | tr -d ',')
        local n words=""
        for n in $names; do words="$words $n=off $n=on"; done
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    # kso capacity --workload KIND/NAME: the kinds, as kubectl names them
    if [[ $prev == --workload ]]; then
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -W "deployment/ replicaset/ statefulset/ replicationcontroller/ job/" -- "$cur"))
        return
    fi
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
    elif [[ $cmd == enum || $cmd == corpus ]] && [[ $prev != -* ]]; then
        # the bundled universes by name, beside an installed kso
        # (PREFIX/share/kso/universes) or in a checkout (fixtures/universes,
        # also for a kso built in a directory of it, as build-san/kso)
        local bin dir names=""
        bin=$(command -v kso)
        for dir in "${bin%/*}/../share/kso/universes" "${bin%/*}/fixtures/universes" \
                   "${bin%/*}/../fixtures/universes"; do
            [ -d "$dir" ] && names="$names $(cd "$dir" && ls *.yaml 2>/dev/null | grep -v '\.config\.yaml$' | sed 's/\.yaml$//')"
        done
        COMPREPLY=($(compgen -W "$names" -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -F _kso kso
