#!/bin/sh
# architecture_doc.sh — docs/architecture.md's module table names every file
# of src/ and ui/ (a new file is placed in the map as it is in a group of
# scripts/layers.sh).  Exit 1 naming the files it leaves out.
set -u
cd "$(dirname "$0")/.." || exit 2
pass=0 fail=0
for f in src/*.c src/*.h ui/*.c ui/*.h; do
    stem=${f%.*}
    if grep -qF "\`$stem." docs/architecture.md || grep -qF "\`$stem.c/.h\`" docs/architecture.md \
       || grep -qF "$(basename "$f")" docs/architecture.md; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "architecture_doc.sh: FAIL: $f is not in docs/architecture.md's module table" >&2
    fi
done
echo "architecture_doc.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
