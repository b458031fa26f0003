#!/bin/sh
# docs_examples.sh — every ```sh and ```lua block of README.md and docs/*.md
# runs, unless the line before its opening fence is a fragment marker,
# `<!-- fragment -->` or `<!-- fragment: why -->` (docs/cli.md, "Examples in
# the docs"):
#   - sh: each line starting with `fusync `, or `mkdir -p` of a relative
#     folder (a trailing `\` joins the next line), runs through sh from a
#     folder holding the tree's examples, lessons and plugins, with
#     `fusync` being $FUSYNC, under a time limit;
#     it must exit 0 or 1 (1: an infeasible plan, documented as such).
#     `fusync tui` must load its scenario or lesson and stop only for want of
#     a terminal.  A line piping into a program this machine lacks is skipped.
#   - lua: a block that returns a scenario (`return {` with a `cluster`, or
#     `fusync.scenario(`) is loaded with `fusync check` (status 0 or 1); a
#     what-if file (`vary =`, `variants =`) drives a two-step sweep of the
#     Qwen example; a lesson (`steps =`) is opened by `fusync tui --lesson`.
#     Other Lua blocks are parts of a file (a hook, a table) and are not run.
# Needs $FUSYNC (the binary).
set -u
F=${FUSYNC:?set FUSYNC to the fusync binary}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
case $F in /*) ;; *) F="$(pwd)/$F" ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/fusync-docs.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "docs_examples.sh: FAIL: $*"; }
LIMIT=${FUSYNC_DOCS_LIMIT:-30}
lim() { if command -v timeout >/dev/null 2>&1; then timeout "$LIMIT" "$@"; else "$@"; fi; }

# The working folder: the tree's inputs, a place for the outputs.
W=$T/work
mkdir -p "$W" "$T/bin"
for d in examples lessons plugins; do ln -s "$ROOT/$d" "$W/$d"; done
ln -s "$F" "$T/bin/fusync"
# Lua blocks are written beside the examples, so relative names resolve as
# they would for a file in examples/ (or lessons/ for a lesson).
mkdir -p "$T/ex/examples" "$T/ex/lessons"
for f in "$ROOT"/examples/*; do ln -s "$f" "$T/ex/examples/"; done

# Split each document into blocks: $T/blocks/N.{sh,lua} and N.where.
mkdir -p "$T/blocks"
for doc in README.md docs/*.md; do
    awk -v dir="$T/blocks" -v doc="$doc" -v start="$(ls "$T/blocks" | wc -l)" '
        BEGIN { n = start }
        # A fence may be indented (a block inside a list item); so may its lines.
        /^[[:space:]]*```/ && inb { inb = 0; close(out); next }
        /^[[:space:]]*```(sh|lua)[[:space:]]*$/ && !inb {
            inb = 1; lang = $0; sub(/^[[:space:]]*```/, "", lang); sub(/[[:space:]]+$/, "", lang)
            n++
            out = dir "/" sprintf("%04d", n) "." (prev ~ /^<!-- fragment/ ? "fragment" : lang)
            printf "%s:%d\n", doc, NR > dir "/" sprintf("%04d", n) ".where"
            close(dir "/" sprintf("%04d", n) ".where")
            printf "" > out
            next
        }
        /^[[:space:]]*```/ && !inb { inb = 2; next }
        inb == 1 { line = $0; sub(/^[[:space:]]+/, "", line); print line > out }
        { prev = $0; sub(/^[[:space:]]+/, "", prev) }
    ' "$ROOT/$doc"
done

for b in "$T"/blocks/*.sh "$T"/blocks/*.lua "$T"/blocks/*.fragment; do
    [ -f "$b" ] || continue
    where=$(cat "${b%.*}.where")
    case $b in
    *.fragment) skipped=$((skipped + 1)) ;;
    *.sh)
        # join continuation lines, keep the `fusync ` ones and the
        # `mkdir -p` of a relative folder they write into
        awk '{ if (sub(/\\$/, "")) { line = line $0; next } print line $0; line = "" }' "$b" | grep -E '^(fusync |mkdir -p [^/])' > "$T/lines" || true
        while IFS= read -r line; do
            skip=
            for p in $(printf '%s\n' "$line" | sed -n 's/.*| *\([a-z][a-z0-9_-]*\).*/\1/p'); do
                command -v "$p" >/dev/null 2>&1 || skip=$p
            done
            if [ -n "$skip" ]; then skipped=$((skipped + 1)); continue; fi
            case $line in
            "fusync tui "*)
                out=$(cd "$W" && PATH="$T/bin:$PATH" lim sh -c "$line" </dev/null 2>&1 >/dev/null); rc=$?
                if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "needs a terminal"; then ok
                else bad "$where: $line: status $rc: $(printf '%s' "$out" | head -c 300)"; fi ;;
            *)
                out=$(cd "$W" && PATH="$T/bin:$PATH" lim sh -c "$line" </dev/null 2>&1 >/dev/null); rc=$?
                if [ $rc -le 1 ]; then ok; else bad "$where: $line: status $rc: $(printf '%s' "$out" | head -c 300)"; fi ;;
            esac
        done < "$T/lines" ;;
    *.lua)
        name=$(basename "${b%.*}")
        if grep -q 'steps *=' "$b" && grep -q 'scenario *=' "$b"; then
            cp "$b" "$T/ex/lessons/doc$name.lua"
            out=$(lim "$F" tui --lesson "$T/ex/lessons/doc$name.lua" </dev/null 2>&1 >/dev/null); rc=$?
            if [ $rc -eq 2 ] && printf '%s' "$out" | grep -q "needs a terminal"; then ok
            else bad "$where: the lesson does not load: status $rc: $(printf '%s' "$out" | head -c 300)"; fi
        elif grep -q '^ *\(vary\|variants\) *=' "$b" && grep -q '^return' "$b"; then
            cp "$b" "$T/ex/examples/doc$name.lua"
            out=$(lim "$F" sweep "$ROOT/examples/qwen7b_h100x16.lua" "$T/ex/examples/doc$name.lua" --iterations 2 --quiet \
                  --csv "$T/sweep.csv" 2>&1); rc=$?
            if [ $rc -le 1 ]; then ok; else bad "$where: the what-if file does not sweep: status $rc: $(printf '%s' "$out" | head -c 300)"; fi
        elif grep -q 'fusync\.scenario(' "$b" || { grep -q '^return {' "$b" && grep -q '^ *cluster *=' "$b"; }; then
            cp "$b" "$T/ex/examples/doc$name.lua"
            out=$(lim "$F" check "$T/ex/examples/doc$name.lua" 2>&1); rc=$?
            if [ $rc -le 1 ]; then ok; else bad "$where: the scenario does not load: status $rc: $(printf '%s' "$out" | head -c 300)"; fi
        else
            skipped=$((skipped + 1))
        fi ;;
    esac
done

echo "docs_examples.sh: $pass passed, $fail failed, $skipped skipped (fragments, parts of files, missing tools)"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
