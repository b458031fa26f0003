#!/bin/sh
# scripts/update-goldens.sh — rewrite the golden screens of
# tests/test_tui_screen.c from what the tests draw now, after a change that
# moves figures on purpose.  The tests dump each pane they compare
# (FUSYNC_GOLDEN_DUMP=DIR: DIR/NAME.txt); each GOLDEN_NAME macro between
# GOLDENS-BEGIN and GOLDENS-END whose NAME was dumped is replaced by it.
# Read `git diff tests/test_tui_screen.c` before committing: a golden is
# checked by eye, never accepted blind.
#
#   sh scripts/update-goldens.sh [build/fusync-tests]
set -u
cd "$(dirname "$0")/.." || exit 2
bin=${1:-build/fusync-tests}
[ -x "$bin" ] || { echo "update-goldens: $bin: not built (make $bin)" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/fusync-goldens.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT INT TERM
src=tests/test_tui_screen.c
# a test stops at its first golden that differs, so the ones after it are
# drawn only once it passes: rebuild and run again until nothing changes
n=0
for pass in 1 2 3 4; do
rm -f "$dir"/*.txt
cp "$src" "$dir/before.c"
FUSYNC=$(pwd)/build/fusync FUSYNC_GOLDEN_DUMP=$dir CK_RUN_SUITE=tui_screen "./$bin" >/dev/null 2>&1
for f in "$dir"/*.txt; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .txt | tr '[:lower:]' '[:upper:]')
    grep -q "^#define GOLDEN_$name \\\\\$" "$src" || continue
    # the macro's new body: each line quoted and continued, then "" (the
    # file's own form)
    body=$(sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/\\n" \\/' "$f"; printf '    ""')
    BODY=$body awk -v name="GOLDEN_$name" '
        $0 == "#define " name " \\" { print; print ENVIRON["BODY"]; skip = 1; next }
        skip && /\\$/ { next }
        skip { skip = 0; next }
        { print }' "$src" > "$dir/new.c" && cat "$dir/new.c" > "$src"
    n=$((n + 1))
done
cmp -s "$src" "$dir/before.c" && break
make --no-print-directory -s "$bin" >/dev/null || exit 2
done
echo "update-goldens: $n goldens redrawn in $pass passes (the last changed nothing); read git diff $src"
