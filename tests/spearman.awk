# tests/spearman.awk — Spearman's rank correlation of two columns (average
# ranks for ties), for tests/plan_rank.sh and tests/estimate_rank.sh.
# Input: lines "X Y".  Output: "RHO SHARE N", where SHARE is the first row's Y
# over the largest Y (how close the first-listed item comes to the best).
{ a[NR] = $1; b[NR] = $2; n = NR }
function rank(x, r,    i, j, lt, eq) {
    for (i = 1; i <= n; i++) {
        lt = 0; eq = 0
        for (j = 1; j <= n; j++) { if (x[j] < x[i]) lt++; else if (x[j] == x[i]) eq++ }
        r[i] = lt + (eq + 1) / 2
    }
}
END {
    rank(a, ra); rank(b, rb)
    for (i = 1; i <= n; i++) { ma += ra[i] / n; mb += rb[i] / n }
    for (i = 1; i <= n; i++) { sab += (ra[i] - ma) * (rb[i] - mb); saa += (ra[i] - ma) ^ 2; sbb += (rb[i] - mb) ^ 2 }
    rho = (saa > 0 && sbb > 0) ? sab / sqrt(saa * sbb) : 0
    best = 0
    for (i = 1; i <= n; i++) if (b[i] > best) best = b[i]
    share = best > 0 ? b[1] / best : 0
    printf "%.4f %.4f %d\n", rho, share, n
}
