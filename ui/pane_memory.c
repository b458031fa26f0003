/*
** pane_memory.c — the Memory pane: for each device group at the cursor
** time, a bar stacked by bucket against the group's capacity, then the host
** memory per node; the run's peak so far is marked on each bar.  A plan
** that runs out of memory is shown with a banner and the part of the bar
** over capacity in the alarm style.
*/
#include "pane.h"
#include "style.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static void fmt_gib_d(char *out, size_t n, double b, int extra)
{
    double g = b / (1024.0 * 1024 * 1024);
    if (g >= 1000) snprintf(out, n, "%.*fT", 1 + extra, g / 1024);
    else if (g >= 100) snprintf(out, n, "%.*fG", extra, g);
    else snprintf(out, n, "%.*fG", 1 + extra, g);
}

/* A figure against its capacity: with the digits it takes for a figure over
** capacity to read larger than it (1.03T/1.00T, not 1.0T/1.0T). */
static void fmt_used_cap(char *used, char *capb, size_t n, double tot, double cap)
{
    for (int extra = 0; extra < 4; extra++) {
        fmt_gib_d(used, n, tot, extra);
        fmt_gib_d(capb, n, cap, extra);
        if (tot <= cap || strtod(used, NULL) > strtod(capb, NULL)) return;
    }
}

/* What the bars drew, for the legend: bucket bits, and the marks. */
typedef struct { uint32_t buckets; bool cap, over, peak; } mem_drawn;

static void mem_bar(tui_app *a, tui_canvas *cv, int y, int x, int w, int g, mem_drawn *dr)
{
    const trace *t = sim_trace(a->run->s);
    const trace_memgroup *mg = trace_memgroup_at(t, g);
    double v[MB__COUNT], tot = 0;
    for (int b = 0; b < MB__COUNT; b++) { v[b] = run_mem_at(a->run, g, (mem_bucket)b, a->cursor); tot += v[b]; }
    double peak = sim_mem_peak_total(a->run->s, g, NULL);
    double cap = mg->capacity > 0 ? mg->capacity : 1;
    double scale = cap;
    if (tot > scale) scale = tot;
    if (peak > scale) scale = peak;
    char used[16], capb[16];
    fmt_used_cap(used, capb, sizeof used, tot, cap);
    char text[40];
    snprintf(text, sizeof text, " %s/%s", used, capb);
    int tw = (int)strlen(text), bw = w - tw;
    if (bw < 4) { bw = w; tw = 0; }
    int capcol = (int)floor(cap / scale * bw + 0.5);
    int col = 0;
    double cum = 0;
    for (int b = 0; b < MB__COUNT; b++) {
        if (v[b] <= 0) continue;
        cum += v[b];
        int end = (int)floor(cum / scale * bw + 0.5);
        if (col < end && col < bw) dr->buckets |= 1u << b;
        for (; col < end && col < bw; col++)
            cv_put(cv, y, x + col, style_bucket_letter((mem_bucket)b), col >= capcol ? ST_OOM : style_bucket((mem_bucket)b));
    }
    for (int c = col; c < capcol && c < bw; c++) cv_put(cv, y, x + c, G_DOT, ST_FREE);
    if (capcol < bw) { cv_put(cv, y, x + capcol, G_VLINE, ST_OOM); dr->cap = true; } /* capacity, when something is over it */
    int pcol = (int)floor(peak / scale * bw + 0.5) - 1;
    /* a peak over capacity: shade the overshoot so it cannot be missed */
    for (int c = capcol + 1; c < pcol && c < bw; c++) if (c >= col) { cv_put(cv, y, x + c, G_SHADE, ST_OOM); dr->over = true; }
    if (pcol >= col && pcol < bw) { cv_put(cv, y, x + pcol, G_PEAK, ST_PEAK); dr->peak = true; }
    if (tw) cv_text(cv, y, x + bw, tw, tot > cap * (1 + 1e-9) ? ST_OOM : ST_NORMAL, text);
}

static void fold_name_full(const char *a, const char *b, int count, char *out, size_t n);

static bool same_group(const tui_app *a, int g, int h)
{
    const trace *t = sim_trace(a->run->s);
    const trace_memgroup *x = trace_memgroup_at(t, g), *y = trace_memgroup_at(t, h);
    if (x->host != y->host || x->capacity != y->capacity) return false;
    for (int b = 0; b < MB__COUNT; b++)
        if (run_mem_at(a->run, g, (mem_bucket)b, a->cursor) != run_mem_at(a->run, h, (mem_bucket)b, a->cursor)) return false;
    return sim_mem_peak_total(a->run->s, g, NULL) == sim_mem_peak_total(a->run->s, h, NULL);
}

/* "actor/stage0" .. "actor/stage15", 16 of them: "actor/stage0-15 x16";
** in fewer than `w` columns the pool's part goes ("stage0-15 x16"), then
** the range ("x16 actor/stage0"): the count always stays. */
static void fold_name(const char *a, const char *b, int count, char *out, size_t n, int w)
{
    char full[160];
    fold_name_full(a, b, count, full, sizeof full);
    if ((int)strlen(full) <= w) { snprintf(out, n, "%s", full); return; }
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    if (sa && sb) {
        fold_name_full(sa + 1, sb + 1, count, full, sizeof full);
        if ((int)strlen(full) <= w) { snprintf(out, n, "%s", full); return; }
    }
    snprintf(out, n, "x%d %s", count, a);
}

static void fold_name_full(const char *a, const char *b, int count, char *out, size_t n)
{
    size_t la = strlen(a), lb = strlen(b), pa = la, pb = lb;
    while (pa > 0 && a[pa - 1] >= '0' && a[pa - 1] <= '9') pa--;
    while (pb > 0 && b[pb - 1] >= '0' && b[pb - 1] <= '9') pb--;
    if (pa < la && pb < lb && pa == pb && !strncmp(a, b, pa)) snprintf(out, n, "%s-%s x%d", a, b + pb, count);
    else snprintf(out, n, "%s +%d", a, count - 1);
}

static void mem_draw(tui_app *a, tui_canvas *cv, tui_rect in)
{
    if (in.h <= 0 || in.w <= 0) return;
    const trace *t = sim_trace(a->run->s);
    const sim_stats *st = sim_get_stats(a->run->s);
    const plan *pl = sim_plan(a->run->s);
    int y = in.y, yend = in.y + in.h;
    char when[24];
    style_fmt_time(when, sizeof when, a->cursor);

    /* the out-of-memory banner is at the top of the screen (render.c);
    ** here the over-capacity part of the bar is shaded in the alarm style */
    bool oom = (st->overflow.happened && st->overflow.t <= run_now(a->run)) || !pl->fits;
    {
        char head[48];
        snprintf(head, sizeof head, "t=%s", when);
        /* every group whose peak went over its capacity, the host's too */
        char over[160] = "";
        size_t ol = 0;
        for (int g = 0; g < trace_nmemgroups(t) && ol + 40 < sizeof over; g++) {
            const trace_memgroup *mg = trace_memgroup_at(t, g);
            if (mg->capacity > 0 && sim_mem_peak_total(a->run->s, g, NULL) > mg->capacity * (1 + 1e-9))
                ol += (size_t)snprintf(over + ol, sizeof over - ol, "%s%.32s", ol ? ", " : "over capacity: ", mg->name);
        }
        cv_seg seg[] = {{head, CV_KEEP, ST_DIM}, {over[0] ? over : oom ? "over capacity" : NULL, 6, ST_OOM},
                        {"per device, host per node", 4, ST_DIM}};
        cv_segs(cv, y++, in.x, in.w, 2, seg, 3);
    }
    if (y >= yend) return;

    /* legend at the bottom: the buckets this run uses */
    bool legend = yend - y >= 3;
    int ng = trace_nmemgroups(t), lw = 4;
    for (int g = 0; g < ng; g++) {
        int l = (int)strlen(trace_memgroup_at(t, g)->name);
        if (l > lw) lw = l;
    }
    if (lw > in.w / 3) lw = in.w / 3;
    int order[256], n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int g = 0; g < ng && n < 256; g++)
            if (trace_memgroup_at(t, g)->host == (pass == 1)) order[n++] = g;
    /* groups that hold the same bytes in every bucket now and have the same
    ** peak (the stages of one pipeline, often) fold into one bar with a count */
    int first[256], count[256], nb = 0;
    for (int i = 0; i < n; i++) {
        if (nb > 0 && same_group(a, order[first[nb - 1]], order[i])) { count[nb - 1]++; continue; }
        first[nb] = i;
        count[nb++] = 1;
    }
    for (int i = 0; i < nb; i++) {
        if (count[i] < 2) continue;
        char name[96];
        fold_name(trace_memgroup_at(t, order[first[i]])->name, trace_memgroup_at(t, order[first[i] + count[i] - 1])->name,
                  count[i], name, sizeof name, in.w * 2 / 5);
        if ((int)strlen(name) > lw) lw = (int)strlen(name) > in.w * 2 / 5 ? in.w * 2 / 5 : (int)strlen(name);
    }
    int room = yend - y - (legend ? 1 : 0);
    int *scroll = &a->v.scroll[PANE_MEMORY];
    if (*scroll > nb - room) *scroll = nb - room > 0 ? nb - room : 0;
    mem_drawn dr = {0, false, false, false};
    for (int i = *scroll; i < nb && y < yend - (legend ? 1 : 0); i++, y++) {
        const trace_memgroup *mg = trace_memgroup_at(t, order[first[i]]);
        char name[96];
        if (count[i] > 1)
            fold_name(mg->name, trace_memgroup_at(t, order[first[i] + count[i] - 1])->name, count[i], name, sizeof name, lw);
        else snprintf(name, sizeof name, "%s", mg->name);
        cv_text(cv, y, in.x, lw, mg->host ? ST_DIM : ST_NORMAL, name);
        mem_bar(a, cv, y, in.x + lw + 1, in.w - lw - 1, order[first[i]], &dr);
    }
    if (legend) {
        /* what the bars above drew, in their glyphs: the marks, then the
        ** buckets; one line, or two when the bars left a line free;
        ** entries whole, "..." when cut */
        int glyph[MB__COUNT + 3], sty[MB__COUNT + 3], ne = 0;
        const char *name[MB__COUNT + 3];
        /* the alarm first, then the buckets, then the marks that explain themselves most */
        if (dr.over) { glyph[ne] = G_SHADE; sty[ne] = ST_OOM; name[ne++] = "over"; }
        for (int b = 0; b < MB__COUNT; b++) {
            if (!(dr.buckets & (1u << b))) continue;
            glyph[ne] = style_bucket_letter((mem_bucket)b);
            sty[ne] = style_bucket((mem_bucket)b);
            name[ne++] = style_bucket_short((mem_bucket)b);
        }
        if (dr.peak) { glyph[ne] = G_PEAK; sty[ne] = ST_PEAK; name[ne++] = "peak"; }
        if (dr.cap) { glyph[ne] = G_VLINE; sty[ne] = ST_OOM; name[ne++] = "capacity"; }
        int total = 0;
        for (int i = 0; i < ne; i++) total += 3 + (int)strlen(name[i]);
        int lines = total > in.w && y < yend - 1 ? 2 : 1, ly = yend - lines, x = 0;
        a->ls.want[PANE_MEMORY] = 1 + nb + (total > in.w ? 2 : 1);
        for (int i = 0; i < ne; i++) {
            int need = 2 + (int)strlen(name[i]), tail = i < ne - 1 ? 4 : 0;
            if (x + need + (ly == yend - 1 ? tail : 0) > in.w) {
                if (ly == yend - 1) { cv_text(cv, ly, in.x + x, in.w - x, ST_DIM, "..."); break; }
                ly++;
                x = 0;
            }
            cv_put(cv, ly, in.x + x++, glyph[i], sty[i]);
            x += cv_printf(cv, ly, in.x + x, in.w - x, ST_DIM, " %s ", name[i]);
        }
    }
}

static int mem_request(tui_app *a, tui_req req, tui_rect in)
{
    int *s = &a->v.scroll[PANE_MEMORY];
    switch (req) {
    case REQ_UP: if (*s == 0) return RE_HANDLED; (*s)--; return RE_REDRAW;
    case REQ_DOWN: (*s)++; return RE_REDRAW;      /* clamped when drawn */
    case REQ_PGUP: if (*s == 0) return RE_HANDLED; *s = *s > 5 ? *s - 5 : 0; return RE_REDRAW;
    case REQ_PGDN: *s += 5; return RE_REDRAW;
    default: (void)in; return RE_NONE;
    }
}

const pane_ops pane_memory = {"Memory", NULL, mem_draw, mem_request, NULL};
