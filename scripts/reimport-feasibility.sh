#!/bin/sh
# scripts/reimport-feasibility.sh — re-import the feasibility scenarios
# (docs/validation.md, "The feasibility table") with this revision's
# importer, as examples/validation/feasibility/imports.txt records them.
#
#   NEMO_RL_GIT=DIR VERL_GIT=DIR DEEPSCALER_GIT=DIR TINYZERO_GIT=DIR LOGICRL_GIT=DIR OPENRLHF_GIT=DIR sh scripts/reimport-feasibility.sh [--write] [SCENARIO...]
#
# NEMO_RL_GIT, VERL_GIT, DEEPSCALER_GIT, TINYZERO_GIT, LOGICRL_GIT and
# OPENRLHF_GIT: a git
# directory (a clone's .git or a bare repository) of NVIDIA-NeMo/RL, of verl,
# of agentica-project/deepscaler (whose verl scripts a verl issue ran), of
# Jiayi-Pan/TinyZero and of Unakar/Logic-RL (verl launch scripts their own
# issues ran), of OpenRLHF/OpenRLHF holding
# the commits the table names.  Each row's file is read at its commit (git archive of examples/
# and recipe/, so that a NeMo RL recipe's defaults chain is the same
# commit's), the import runs in that tree's root, and the scenario is its
# hand-written header (the comment lines before the importer's own
# "-- Imported by" line) followed by today's import.  Without --write it
# prints which scenarios would change and exits 1 if any would; with
# --write it replaces them.  Three patches are applied, the ones the rows'
# headers name (the importer refuses command substitution and ${@:N}): the
# LoRA rows' line NOW=$(date +%Y%m%d), which names only the wandb run, set
# to a constant; the 235B script's SCRIPT_DIR=$(...) line with the line
# that sources an optional env.sh from that directory, dropped; a
# trailing "${@:1}" (the script's own arguments passed on; none given),
# dropped; and an OpenRLHF script's SCRIPT_DIR="$(dirname "$0")" and
# WORK_DIR=$(cd ... && pwd) lines, which set only the directory its
# checkpoints and logs are saved under, dropped.
# Exit 2 when a source or an import fails.
set -u
cd "$(dirname "$0")/.." || exit 2
FUSYNC=${FUSYNC:-$(pwd)/build/fusync}
[ -x "$FUSYNC" ] || { echo "reimport-feasibility: no fusync binary at $FUSYNC; run make first" >&2; exit 2; }
DIR=$(pwd)/examples/validation/feasibility
write=0
[ "${1:-}" = --write ] && { write=1; shift; }
only=" $* "
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trim() { printf '%s' "$1" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

changed=0 line=0
while IFS='|' read -r scn fw src path args; do
    line=$((line + 1))
    scn=$(trim "$scn")
    case $scn in ''|'#'*) continue ;; esac
    [ "$only" = "  " ] || case $only in *" $scn "*) ;; *) continue ;; esac
    fw=$(trim "$fw") src=$(trim "$src") path=$(trim "$path") args=$(trim "$args")
    case $src in
        configs) tree=$DIR/configs ;;
        nemo-rl@*|verl@*|deepscaler@*|tinyzero@*|logicrl@*|openrlhf@*)
            name=${src%%@*} commit=${src#*@} commit=${commit%+configs}
            case $name in nemo-rl) var=NEMO_RL_GIT ;; verl) var=VERL_GIT ;; tinyzero) var=TINYZERO_GIT ;; logicrl) var=LOGICRL_GIT ;; openrlhf) var=OPENRLHF_GIT ;; *) var=DEEPSCALER_GIT ;; esac
            eval "gd=\${$var:-}"
            [ -n "$gd" ] || { echo "reimport-feasibility: imports.txt:$line: $scn needs $var" >&2; exit 2; }
            tree=$tmp/$scn
            mkdir -p "$tree"
            dirs=examples
            git --git-dir="$gd" cat-file -e "$commit:recipe" 2>/dev/null && dirs="examples recipe"
            if [ "$name" = deepscaler ] || [ "$name" = tinyzero ] || [ "$name" = logicrl ] || [ "$name" = openrlhf ]; then
                # the one script (a snapshot of that repository may lack its data files)
                mkdir -p "$tree/$(dirname "$path")"
                git --git-dir="$gd" show "$commit:$path" >"$tree/$path" ||
                    { echo "reimport-feasibility: imports.txt:$line: cannot read $src" >&2; exit 2; }
            else
                # shellcheck disable=SC2086
                git --git-dir="$gd" archive "$commit" $dirs | tar -x -C "$tree" ||
                    { echo "reimport-feasibility: imports.txt:$line: cannot read $src" >&2; exit 2; }
            fi
            case $src in *+configs) cp "$DIR/configs/$(basename "$path")" "$tree/examples/configs/" || exit 2 ;; esac
            sed -i 's/^NOW=\$(date +%Y%m%d)$/NOW=20260129/' "$tree/$path"
            # the second patch: the two lines that source an optional env.sh
            # beside the script (its directory found by command substitution)
            # set no training key; the importer refuses $(...)
            sed -i -e '/^SCRIPT_DIR="\$(cd "\$(dirname "\${BASH_SOURCE\[0\]}")" && pwd)"$/d' \
                -e '/^\[ -f "\${SCRIPT_DIR}\/env.sh" \] && source "\${SCRIPT_DIR}\/env.sh"$/d' \
                -e 's/ "\${@:1}"$//' "$tree/$path"
            # the fourth: an OpenRLHF script's two lines that find its own
            # directory, which only the save paths use
            sed -i -e '/^SCRIPT_DIR="\$(dirname "\$0")"$/d' \
                -e '/^WORK_DIR=\$(cd "\$SCRIPT_DIR\/\.\.\/\.\." && pwd)$/d' "$tree/$path" ;;
        *) echo "reimport-feasibility: imports.txt:$line: source '$src' (verl@COMMIT, nemo-rl@COMMIT[+configs], deepscaler@COMMIT, tinyzero@COMMIT, logicrl@COMMIT, openrlhf@COMMIT or configs)" >&2; exit 2 ;;
    esac
    # the arguments are the table's words, split as a shell would split them
    # shellcheck disable=SC2086
    (cd "$tree" && "$FUSYNC" import "$fw" "$path" $args --model-dir "$DIR/models") >"$tmp/$scn.imp" 2>"$tmp/$scn.err" ||
        { echo "reimport-feasibility: $scn: import failed: $(head -1 "$tmp/$scn.err")" >&2; exit 2; }
    awk '/^-- Imported by `fusync import/ { exit } { print }' "$DIR/$scn.lua" >"$tmp/$scn.lua"
    cat "$tmp/$scn.imp" >>"$tmp/$scn.lua"
    if cmp -s "$tmp/$scn.lua" "$DIR/$scn.lua"; then
        echo "$scn: same"
    else
        changed=$((changed + 1))
        echo "$scn: differs ($(diff "$DIR/$scn.lua" "$tmp/$scn.lua" | grep -c '^[<>]') lines)"
        [ $write -eq 1 ] && cp "$tmp/$scn.lua" "$DIR/$scn.lua"
    fi
done <"$DIR/imports.txt"
echo "reimport-feasibility: $changed scenarios $( [ $write -eq 1 ] && echo rewritten || echo differ)"
[ $write -eq 1 ] || [ $changed -eq 0 ]
