# bash completion for kobj, the kobject sandbox: its options, `run` and Lua files,
# `lesson` and its commands, and the numbers of the lessons.

# The lesson numbers of the course the given kobj finds.
_kobj_lesson_numbers()
{
    "$1" lesson list 2>/dev/null | awk '/^ *[0-9]+  / { print $1 }'
}

# Completes the words after `kobj lesson`; $1 is the index of the word "lesson".
_kobj_lesson()
{
    local kobj=$1 at=$(($2 + 1)) cur=${COMP_WORDS[COMP_CWORD]}
    local commands="list next show run edit check watch hint reset verify help"

    if [[ ${COMP_WORDS[at]} == --dir ]]; then
        if ((COMP_CWORD == at + 1)); then
            COMPREPLY=($(compgen -d -- "$cur"))
            return
        fi
        at=$((at + 2))
    fi
    if ((COMP_CWORD == at)); then
        COMPREPLY=($(compgen -W "$commands --dir" -- "$cur"))
        return
    fi
    local command=${COMP_WORDS[at]} arg=$((COMP_CWORD - at))
    if [[ $command == run || $command == check ]]; then
        case ${COMP_WORDS[COMP_CWORD - 1]} in
        --record) COMPREPLY=($(compgen -f -X '!*.html' -- "$cur") $(compgen -d -- "$cur")); return ;;
        --dot) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--record --dot" -- "$cur"))
            return
        fi
    fi
    case $command in
    show|run|edit|hint|watch)
        ((arg == 1)) && COMPREPLY=($(compgen -W "$(_kobj_lesson_numbers "$kobj")" -- "$cur"))
        ;;
    check)
        if ((arg == 1)); then
            COMPREPLY=($(compgen -W "$(_kobj_lesson_numbers "$kobj")" -- "$cur"))
        elif ((arg == 2)); then
            COMPREPLY=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -d -- "$cur"))
        fi
        ;;
    reset)
        if ((arg == 1)); then
            COMPREPLY=($(compgen -W "$(_kobj_lesson_numbers "$kobj")" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "--force" -- "$cur"))
        fi
        ;;
    verify)
        case ${COMP_WORDS[COMP_CWORD - 1]} in
        --time|--jobs|--cell-memory) ;;
        *) if [[ $cur == -* ]]; then
               COMPREPLY=($(compgen -W "--out --time --jobs --cell-memory" -- "$cur"))
           else
               COMPREPLY=($(compgen -d -- "$cur"))
           fi ;;
        esac
        ;;
    esac
}

_kobj()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i
    local options="-e -i --strict --no-report --record --dot --write-dir --schedule
                   --max-instructions --max-memory -h --help -V --version"

    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -e|--record|--dot|--write-dir|--schedule|--max-instructions|--max-memory) ((i++)) ;;
        lesson) _kobj_lesson "${COMP_WORDS[0]}" "$i"; return ;;
        run) COMPREPLY=($(compgen -f -X '!*.lua' -- "$cur") $(compgen -d -- "$cur")); return ;;
        esac
    done
    case $prev in
    -e|--schedule|--max-instructions|--max-memory) return ;;
    --record) COMPREPLY=($(compgen -f -X '!*.html' -- "$cur") $(compgen -d -- "$cur")); return ;;
    --dot) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --write-dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W "$options run lesson" -- "$cur"))
}

complete -F _kobj -o filenames kobj
