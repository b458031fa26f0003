#!/bin/sh
# layers.sh — the layering holds (scripts/layers.sh): every module group
# includes only what its allowed list names, the engine core links and runs
# without Lua or curses (`make layer-check`), and the check itself names the
# offending FILE:LINE of a planted violation of each kind.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fusync-layers.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "layers.sh: FAIL: $*"; }

# the tree as it is
out=$(cd "$ROOT" && make --no-print-directory layer-check 2>&1); rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q "every one allowed" &&
   printf '%s\n' "$out" | grep -q "without Lua or curses"; then ok
else bad "make layer-check: status $rc: $(printf '%s' "$out" | tail -20)"; fi

# planted violations, in a copy of src/ and ui/: each must be named
mkdir -p "$TMP/t/scripts"
cp -R "$ROOT/src" "$ROOT/ui" "$TMP/t/" && cp "$ROOT/scripts/layers.sh" "$TMP/t/scripts/"
plant() {   # FILE LINE-TO-ADD: add it as the file's first line
    printf '%s\n' "$2" | cat - "$TMP/t/$1" >"$TMP/x" && mv "$TMP/x" "$TMP/t/$1"
}
plant src/plugin.c '#include "planner.h"'
plant src/model.c '#include <lua.h>'
plant src/eng_gen.c '#include <curses.h>'
plant src/scenario.c '#include "fields.h"'
plant src/report.c '#include "app.h"'
plant src/eng_train.c '#include "runner.h"'
: >"$TMP/t/src/stray.c"
out=$(sh "$TMP/t/scripts/layers.sh" 2>&1); rc=$?
[ $rc -eq 1 ] && ok || bad "a planted violation: status $rc, want 1"
for want in 'src/plugin.c:1: includes "planner.h" of the planner group' \
            'src/model.c:1: includes <lua.h>; the format group knows no Lua' \
            'src/eng_gen.c:1: includes <curses.h>; the engine group knows no curses' \
            'src/scenario.c:1: includes "fields.h" of the format group' \
            'src/report.c:1: includes "app.h" of the ui group' \
            'src/eng_train.c:1: includes "runner.h" of the runner group' \
            'src/stray.c: in no group'; do
    if printf '%s\n' "$out" | grep -qF -- "$want"; then ok
    else bad "not named: '$want' in: $(printf '%s' "$out" | head -c 800)"; fi
done

echo "layers.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
