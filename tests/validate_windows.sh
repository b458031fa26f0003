#!/bin/sh
# tests/validate_windows.sh — the verl 7B rows compared over a run's first
# 200 steps (docs/validation.md, "The runs drift apart") are arithmetic on
# the published table's cells, and that arithmetic is written down once: in
# the doc's table between the verl7b-windows markers.  This test redoes it
# from the cells the table quotes (the step column, the total time at 200
# and at 400 steps) and checks both the table's own result column and the
# published figure of the row it names in examples/validation/rows.txt.
# A cell copied wrong, a figure changed in one place only, or a row renamed
# without the table fails it.
set -u
cd "$(dirname "$0")/.." || exit 2
doc=docs/validation.md rows=examples/validation/rows.txt
[ -r "$doc" ] && [ -r "$rows" ] || { echo "validate_windows: cannot read $doc or $rows" >&2; exit 2; }

awk -v rowsfile="$rows" '
    # "1d 3h 43m" -> seconds
    function secs(s,   n, i, p, v, u, t) {
        n = split(s, p, " "); t = 0
        for (i = 1; i <= n; i++) {
            u = substr(p[i], length(p[i])); v = substr(p[i], 1, length(p[i]) - 1) + 0
            if (u == "d") t += v * 86400; else if (u == "h") t += v * 3600; else if (u == "m") t += v * 60
            else return -1
        }
        return t
    }
    function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
    BEGIN {
        FS = "|"
        while ((getline line < rowsfile) > 0) {
            if (line ~ /^[ \t]*#/ || line !~ /\|/) continue
            n = split(line, f, "|")
            if (trim(f[1]) == "verl-7b-h20") pub[trim(f[2])] = trim(f[5]) + 0
        }
    }
    /<!-- verl7b-windows begin -->/ { on = 1; next }
    /<!-- verl7b-windows end -->/ { on = 0; next }
    on && /^\| (colocate|async)/ {
        # | run | step | total at 200 | total at 400 | share | first 200 | row |
        step = trim($3) + 0; t200 = secs(trim($4)); t400 = secs(trim($5))
        share = trim($6) + 0; first = trim($7) + 0; row = trim($8)
        gsub(/`/, "", row)
        checked++
        if (t200 <= 0 || t400 <= 0) { printf "validate_windows: %s: cannot read the total times\n", trim($2); bad++; next }
        want_share = t400 / 400 - step; want = t200 / 200 - want_share
        if (want_share - share > 0.01 || share - want_share > 0.01) {
            printf "validate_windows: %s: share %.2f in the table, %.2f from its cells\n", trim($2), share, want_share; bad++ }
        if (want - first > 0.06 || first - want > 0.06) {
            printf "validate_windows: %s: first 200 steps %.1f in the table, %.1f from its cells\n", trim($2), first, want; bad++ }
        if (!(row in pub)) { printf "validate_windows: %s: no verl-7b-h20 row \"%s\" in rows.txt\n", trim($2), row; bad++; next }
        if (pub[row] - first > 0.06 || first - pub[row] > 0.06) {
            printf "validate_windows: %s: rows.txt says %.1f, the table %.1f\n", row, pub[row], first; bad++ }
    }
    END {
        if (checked < 8) { printf "validate_windows: %d rows of the table read, 8 expected\n", checked; exit 1 }
        if (bad) exit 1
        printf "validate_windows: %d rows, the table and rows.txt agree\n", checked
    }
' "$doc"
