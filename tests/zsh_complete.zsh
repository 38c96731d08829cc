#!/usr/bin/env zsh -f
# zsh_complete.zsh - what zsh's completion system offers for a command
# line, for tests/test_zsh_completion.py: a zsh in a pseudo-terminal
# (zsh/zpty) loads the completion functions of COMPDIR with compinit, the
# line is typed and TAB pressed, and every match a completion function
# adds (compadd wrapped to record them) is written to OUT, one a line,
# then "<done>".
# Usage: zsh -f zsh_complete.zsh COMPDIR OUT 'kso capacity --'
emulate -L zsh
zmodload zsh/zpty || exit 3
local compdir=$1 out=$2 line=$3
: >| $out
local setup=$out.zsh
cat >| $setup <<SETUP
PS1='' PROMPT='' RPROMPT=''
fpath=(${(q)compdir} \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd() {
    # the calls that only ask (-O, -A, -D: into an array) pass through
    if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "\$@"
        return
    fi
    local -a hits
    builtin compadd -O hits "\$@"
    (( \$#hits )) && print -rl -- \$hits >> ${(q)out}
    builtin compadd "\$@"
}
__done() { print -r -- '<done>' >> ${(q)out}; exit }
comppostfuncs=(__done)
bindkey '^I' complete-word
SETUP
zpty z zsh -f -i || exit 3
zpty -w z "source ${(q)setup}"
zpty -w -n z "$line"$'\t'
# the shell exits once the completion ran (__done): wait for it, reading
# what it prints, at most 30 seconds
local junk
integer i
for (( i = 0; i < 300; i++ )); do
    while zpty -r -t z junk 2>/dev/null; do :; done
    grep -qx '<done>' $out && break
    sleep 0.1
done
zpty -d z
rm -f $setup
grep -qx '<done>' $out || exit 4
