# bash completion for kso (installed by `make install`)
_kso()
{
    local cur prev cmd
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=${COMP_WORDS[1]}
    local commands="validate dump explain schedule enum merge export check serve corpus"
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return
    fi
    case $prev in
        -o|--output)
            case $cmd in
                dump) COMPREPLY=($(compgen -W "json yaml" -- "$cur")) ;;
                explain) COMPREPLY=($(compgen -W "table json" -- "$cur")) ;;
                schedule) COMPREPLY=($(compgen -W "table json yaml" -- "$cur")) ;;
                *) COMPREPLY=($(compgen -f -- "$cur")) ;;
            esac
            return ;;
        --engine) COMPREPLY=($(compgen -W "oracle model" -- "$cur")); return ;;
        --mode) COMPREPLY=($(compgen -W "placements reachable" -- "$cur")); return ;;
        --store) COMPREPLY=($(compgen -W "findings all" -- "$cur")); return ;;
        --tie) COMPREPLY=($(compgen -W "first random" -- "$cur")); return ;;
        --extension) COMPREPLY=($(compgen -W "SelectorSpread" -- "$cur")); return ;;
        --config|--db|--export|--run) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    local opts="--help --config --no-admission --extension"
    case $cmd in
        explain) opts="$opts --pod --profile --engine -o --impl --impl-timeout --strict-message" ;;
        schedule) opts="$opts --engine --all-nodes --tie --seed --max-steps -o --impl --impl-timeout --strict-message" ;;
        enum) opts="--help --db --mode --jobs --shard --store --all-pending --no-symmetry --limit --force --resume --export --quiet --impl --impl-timeout --impl-jobs" ;;
        check) opts="$opts --engine --strict-message --export" ;;
        serve) opts="$opts --engine" ;;
        corpus) opts="--help -o --no-minimize --run --impl --impl-timeout --strict-message --jobs --quiet --resume" ;;
        export) opts="--help -o --impl --impl-timeout" ;;
        merge) opts="--help -o" ;;
        dump) opts="$opts -o" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _kso kso
