/*
** chrome.c — Chrome trace-event JSON writer (streaming).
**
** Mapping: pid 0 = the step track, staleness windows and version instants
** (a preemption instant sits on its rollout instance's thread);
** pid p+1 = pool p, one tid per track (pipeline stage, rollout instance,
** forward-only replica group, host link).  A track stands for the devices
** that behave alike (its args give their count and first index).  Memory
** buckets are counter tracks named "mem <group> <bucket>" in GiB.  ts/dur in
** microseconds with nanosecond precision.
*/
#include "chrome.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The fixed text of a span's line, by track and by phase, made once: a
** track's "cat", pid and tid, up to its "ts" key, and a phase's
** {"name":"NAME; each padded so that it is copied whole in one fixed-size
** move and the line then goes on from its length. */
#define TRACK_TEXT 80
#define NAME_TEXT  32
typedef struct track_text {
    char    text[TRACK_TEXT];
    uint8_t len;
    uint8_t step;           /* the step track: its phases are trace_step_phase */
} track_text;
typedef struct name_text {
    char    text[NAME_TEXT];
    uint8_t len;
} name_text;

struct chrome_writer {
    FILE   *f;
    char   *path, *tmp;
    bool    failed;
    int     saved_errno;
    const sim *s;
    bool    first;
    bool    direct;         /* writing straight to a device or pipe */
    fs_buf  line;
    char   *out;            /* text not yet written, OUT_CAP bytes */
    size_t  olen;
    track_text *tk;  /* per track, the fixed text of its spans */
    int     ntk;
    name_text phase_names[PH__COUNT + 1], step_names[STEP__COUNT + 1];   /* the last: "?" */
};

/* The trace is written in chunks of this size: one write per megabyte, not
** one per event. */
#define OUT_CAP (1u << 20)
/* Room an event line of a span needs at most: its fixed text, the longest
** phase name and nine 20-digit numbers. */
#define SPAN_MAX 512

static void flush_out(chrome_writer *w)
{
    if (w->olen && !w->failed && fwrite(w->out, 1, w->olen, w->f) != w->olen) {
        w->failed = true;
        w->saved_errno = errno;
    }
    w->olen = 0;
}

static void put(chrome_writer *w, const char *text, size_t n)
{
    if (w->failed) return;
    if (w->olen + n > OUT_CAP) {
        flush_out(w);
        if (n > OUT_CAP) {
            if (!w->failed && fwrite(text, 1, n, w->f) != n) { w->failed = true; w->saved_errno = errno; }
            return;
        }
    }
    memcpy(w->out + w->olen, text, n);
    w->olen += n;
}

static void emit(chrome_writer *w)
{
    if (!w->first) put(w, ",\n", 2);
    w->first = false;
    put(w, w->line.s, w->line.len);
    w->line.len = 0;
    if (w->line.s) w->line.s[0] = 0;
}

static void ts(fs_buf *b, const char *key, sim_time t)
{
    buf_printf(b, ",\"%s\":%lld.%03lld", key, (long long)(t / 1000), (long long)(t % 1000));
}

static int pid_of(const trace *t, int track)
{
    const trace_track *tk = trace_track_at(t, track);
    return tk->pool < 0 ? 0 : tk->pool + 1;
}

/* Decimal digits of v, as printf's %lld writes them: two at a time from a
** table of the pairs 00..99, written from the last. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint32_t pow10_32[10] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u, 1000000000u
};

/* Digits of u (one for 0): the bit length gives the count or one less
** (log10(2) is about 1233 / 4096), one comparison with a power of ten settles
** which.  u | 1 has the digits of u: it differs only for 0, and no power of
** ten above 1 is odd. */
static inline int ndigits32(uint32_t u)
{
    uint32_t v = u | 1;
    int d = ((32 - __builtin_clz(v)) * 1233) >> 12;
    return d + (v >= pow10_32[d]);
}

/* u's digits from p backwards: pairs while two or more are left. */
static inline void digits_back32(char *p, uint32_t u)
{
    while (u >= 100) {
        uint32_t q = u / 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * (u - q * 100), 2);
        u = q;
    }
    if (u >= 10) memcpy(p - 2, digit_pairs + 2 * u, 2);
    else p[-1] = (char)('0' + u);
}

static inline char *put_u32(char *o, uint32_t u)
{
    char *e = o + ndigits32(u);
    digits_back32(e, u);
    return e;
}

static char *put_u64(char *o, unsigned long long u)
{
    if (u <= UINT32_MAX) return put_u32(o, (uint32_t)u);
    int n = 10;
    for (unsigned long long k = u / 10000000000ull; k; k /= 10) n++;
    char *e = o + n, *p = e;
    while (u > UINT32_MAX) {
        unsigned d = (unsigned)(u % 100) * 2;
        u /= 100;
        p -= 2;
        memcpy(p, digit_pairs + d, 2);
    }
    /* the rest has exactly p - o digits, leading zeros never: u >= 10^(n-2k) */
    digits_back32(p, (uint32_t)u);
    return e;
}

static inline char *put_i32(char *o, int32_t v)
{
    if (v >= 0) return put_u32(o, (uint32_t)v);
    *o++ = '-';
    return put_u32(o, 0u - (uint32_t)v);
}

#define PUT_LIT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

/* Microseconds with nanosecond precision, as ts() prints them ("%lld.%03lld")
** for a time at or after zero. */
static inline char *put_us(char *o, sim_time t)
{
    unsigned long long u = (unsigned long long)t, q = u / 1000;
    unsigned f = (unsigned)(u - q * 1000);
    o = q <= UINT32_MAX ? put_u32(o, (uint32_t)q) : put_u64(o, q);
    unsigned h = f / 100;
    o[0] = '.';
    o[1] = (char)('0' + h);
    memcpy(o + 2, digit_pairs + 2 * (f - h * 100), 2);
    return o + 4;
}

static void name_text_set(name_text *n, const char *name)
{
    memset(n->text, 0, sizeof n->text);
    int len = snprintf(n->text, sizeof n->text, "{\"name\":\"%s", name);
    n->len = (uint8_t)len;
}

static void track_texts_update(chrome_writer *w, const trace *t)
{
    int n = trace_ntracks(t);
    if (n <= w->ntk) return;
    w->tk = xrealloc(w->tk, (size_t)n * sizeof *w->tk);
    for (int k = w->ntk; k < n; k++) {
        const trace_track *tk = trace_track_at(t, k);
        track_text *x = &w->tk[k];
        memset(x->text, 0, sizeof x->text);
        x->step = tk->kind == TRK_STEP;
        x->len = (uint8_t)snprintf(x->text, sizeof x->text, "\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":",
                                   x->step ? "step" : "device", pid_of(t, k), k);
    }
    w->ntk = n;
}

/* A span is the run's most frequent event: formatted here by hand, digit for
** digit what the printf format of the other events would give, straight into
** the output chunk. */
static void on_span(void *ud, const trace *t, const trace_span *sp)
{
    chrome_writer *w = ud;
    if (w->failed) return;
    if (sp->track >= w->ntk && sp->track >= 0) track_texts_update(w, t);
    if (sp->t0 < 0 || sp->t1 < sp->t0 || sp->track < 0 || sp->track >= w->ntk) {
        /* not from the engine (its times start at zero, a span never ends
        ** before it starts, its tracks are the trace's): the general path */
        const trace_track *tk = trace_track_at(t, sp->track);
        const char *name = tk->kind == TRK_STEP ? trace_step_phase_name((trace_step_phase)sp->phase)
                                                : trace_phase_name((trace_phase)sp->phase);
        fs_buf *b = &w->line;
        buf_printf(b, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d", name,
                   tk->kind == TRK_STEP ? "step" : "device", pid_of(t, sp->track), sp->track);
        ts(b, "ts", sp->t0);
        ts(b, "dur", sp->t1 - sp->t0);
        buf_printf(b, ",\"args\":{\"iteration\":%d,\"version\":%d", sp->iter, sp->version);
        if (sp->mb >= 0) buf_printf(b, ",\"%s\":%d", sp->phase == PH_GENERATE ? "batch" : "micro_batch", sp->mb);
        if (sp->tokens > 0) buf_printf(b, ",\"tokens\":%lld", (long long)sp->tokens);
        buf_puts(b, "}}");
        emit(w);
        return;
    }
    const track_text *tt = &w->tk[sp->track];
    const name_text *nt = tt->step ? &w->step_names[sp->phase < STEP__COUNT ? sp->phase : STEP__COUNT]
                                   : &w->phase_names[sp->phase < PH__COUNT ? sp->phase : PH__COUNT];
    if (w->olen + SPAN_MAX > OUT_CAP) flush_out(w);
    char *o = w->out + w->olen;
    if (!w->first) o = PUT_LIT(o, ",\n");
    w->first = false;
    memcpy(o, nt->text, NAME_TEXT);
    o += nt->len;
    memcpy(o, tt->text, TRACK_TEXT);
    o += tt->len;
    o = put_us(o, sp->t0);
    o = PUT_LIT(o, ",\"dur\":");
    o = put_us(o, sp->t1 - sp->t0);
    o = PUT_LIT(o, ",\"args\":{\"iteration\":");
    o = put_i32(o, sp->iter);
    o = PUT_LIT(o, ",\"version\":");
    o = put_i32(o, sp->version);
    if (sp->mb >= 0) {
        o = sp->phase == PH_GENERATE ? PUT_LIT(o, ",\"batch\":") : PUT_LIT(o, ",\"micro_batch\":");
        o = put_u32(o, (uint32_t)sp->mb);
    }
    if (sp->tokens > 0) {
        o = PUT_LIT(o, ",\"tokens\":");
        o = put_u32(o, (uint32_t)sp->tokens);
    }
    o = PUT_LIT(o, "}}");
    w->olen = (size_t)(o - w->out);
}

static void on_counter(void *ud, const trace *t, const trace_counter *c)
{
    chrome_writer *w = ud;
    fs_buf *b = &w->line;
    const trace_memgroup *g = trace_memgroup_at(t, c->group);
    buf_puts(b, "{\"name\":");
    char nm[160];
    snprintf(nm, sizeof nm, "mem %s %s", g->name, trace_bucket_name((mem_bucket)c->bucket));
    json_escape(b, nm);
    buf_printf(b, ",\"ph\":\"C\",\"pid\":%d", g->pool + 1);
    ts(b, "ts", c->t);
    char v[40];
    fmt_double(v, sizeof v, c->bytes / (1024.0 * 1024.0 * 1024.0));
    buf_printf(b, ",\"args\":{\"GiB\":%s}}", v);
    emit(w);
}

static void on_instant(void *ud, const trace *t, const trace_instant *in)
{
    chrome_writer *w = ud;
    fs_buf *b = &w->line;
    if (in->kind == INST_PREEMPT) {
        /* on the instance's own row: sequences taken off a full paged cache */
        buf_printf(b, "{\"name\":\"preempt %d\",\"cat\":\"kv\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d",
                   in->count, pid_of(t, in->track), in->track);
        ts(b, "ts", in->t);
        buf_printf(b, ",\"args\":{\"version\":%d,\"sequences\":%d,\"context_tokens\":%lld}}", in->version, in->count,
                   (long long)in->tokens);
        emit(w);
        return;
    }
    if (in->kind == INST_VERSION)
        buf_printf(b, "{\"name\":\"version %d published\",\"cat\":\"version\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0", in->version);
    else
        buf_printf(b, "{\"name\":\"iteration %d %s\",\"cat\":\"iteration\",\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0",
                   in->iter, in->kind == INST_ITER_BEGIN ? "begins" : "ends");
    ts(b, "ts", in->t);
    buf_printf(b, ",\"args\":{\"iteration\":%d,\"version\":%d}}", in->iter, in->version);
    emit(w);
}

static void on_window(void *ud, const trace *t, const trace_window *wd)
{
    chrome_writer *w = ud;
    (void)t;
    fs_buf *b = &w->line;
    for (int k = 0; k < 2; k++) {
        buf_printf(b, "{\"name\":\"step %d admits v%d..v%d\",\"cat\":\"staleness\",\"ph\":\"%s\",\"id\":%d,\"pid\":0,\"tid\":0",
                   wd->iter, wd->vlo, wd->vhi, k ? "e" : "b", wd->iter + 1);
        ts(b, "ts", k ? wd->t1 : wd->t0);
        buf_printf(b, ",\"args\":{\"step\":%d,\"lowest_admissible_version\":%d,\"largest_lag\":%d,\"samples_by_lag\":[",
                   wd->iter, wd->vlo, wd->lag_max);
        int top = wd->lag_max < TRACE_LAGS - 1 ? wd->lag_max : TRACE_LAGS - 1;
        for (int l = 0; l <= top; l++) buf_printf(b, "%s%d", l ? "," : "", wd->lag_count[l]);
        buf_puts(b, "]}}");
        emit(w);
    }
}

static void on_vgroup(void *ud, const trace *t, const trace_vgroup *g)
{
    chrome_writer *w = ud;
    (void)t;
    fs_buf *b = &w->line;
    for (int k = 0; k < 2; k++) {
        buf_printf(b, "{\"name\":\"samples of v%d\",\"cat\":\"versions\",\"ph\":\"%s\",\"id\":%d,\"pid\":0,\"tid\":0",
                   g->version, k ? "e" : "b", 1000000 + g->version);
        ts(b, "ts", k ? g->t1 : g->t0);
        buf_printf(b, ",\"args\":{\"version\":%d,\"samples\":%d,\"trained\":%d}}", g->version, g->samples, g->trained);
        emit(w);
    }
}

static void meta(chrome_writer *w, const char *what, int pid, int tid, const char *name, int sort)
{
    fs_buf *b = &w->line;
    buf_printf(b, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":", what, pid, tid);
    json_escape(b, name);
    buf_puts(b, "}}");
    emit(w);
    const char *sk = strcmp(what, "process_name") == 0 ? "process_sort_index" : "thread_sort_index";
    buf_printf(b, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}", sk, pid, tid, sort);
    emit(w);
}

static void write_header(chrome_writer *w)
{
    const sim *s = w->s;
    const trace *t = sim_trace(s);
    const plan *pl = sim_plan(s);
    const scn_scenario *sc = sim_scenario(s);
    fs_buf *b = &w->line;
    buf_puts(b, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"fusync\",\"scenario\":");
    json_escape(b, sc->name);
    buf_printf(b, ",\"mode\":\"%s\",\"staleness\":%d,\"note\":\"each track stands for the devices that behave alike: "
               "a pipeline stage (all its TP and DP ranks), a rollout instance, a forward-only pool\"},\n\"traceEvents\":[\n",
               scn_mode_name(sc->plan.mode), sc->plan.staleness);
    put(w, b->s, b->len);
    b->len = 0;
    meta(w, "process_name", 0, 0, "step, versions, staleness windows", 0);
    char nm[160], roles[64];
    for (int p = 0; p < pl->npools; p++) {
        snprintf(nm, sizeof nm, "pool %s (%d devices: %s)", pl->pools[p].name, pl->pools[p].devices,
                 plan_roles_str(pl->pools[p].roles, roles, sizeof roles));
        meta(w, "process_name", p + 1, 0, nm, p + 1);
    }
    for (int k = 0; k < trace_ntracks(t); k++) {
        const trace_track *tk = trace_track_at(t, k);
        if (tk->kind == TRK_STEP) snprintf(nm, sizeof nm, "%s", tk->name);
        else snprintf(nm, sizeof nm, "%s [%d devices from #%d]", tk->name, tk->devices, tk->first_device);
        meta(w, "thread_name", pid_of(t, k), k, nm, k);
    }
}

chrome_writer *chrome_open(sim *s, const char *path, fs_err *err)
{
    if (!*path) {
        fs_err_set(err, 2, "--trace: the file name is empty; give a path for the trace");
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        /* stdout carries the report; a trace runs to tens of megabytes */
        fs_err_set(err, 2, "--trace: '-' (stdout) is not supported; give a file name (or /dev/stdout)");
        return NULL;
    }
    chrome_writer *w = xcalloc(1, sizeof *w);
    w->path = xstrdup(path);
    /* devices and pipes are written in place, never renamed over */
    w->direct = path_is_special(path);
    if (w->direct) {
        w->tmp = xstrdup(path);
        w->f = fopen(w->tmp, "wb");
    } else {
        /* O_EXCL in the target's folder, removed on a signal (util.h) */
        w->f = fs_tmp_create(path, &w->tmp);
    }
    if (!w->f) {
        fs_err_set(err, 2, "%s: cannot write the trace: %s", path, strerror(errno));
        free(w->path);
        free(w->tmp);
        free(w);
        return NULL;
    }
    w->s = s;
    w->first = true;
    buf_init(&w->line);
    w->out = xmalloc(OUT_CAP);
    for (int p = 0; p <= PH__COUNT; p++) name_text_set(&w->phase_names[p], trace_phase_name((trace_phase)p));
    for (int p = 0; p <= STEP__COUNT; p++) name_text_set(&w->step_names[p], trace_step_phase_name((trace_step_phase)p));
    write_header(w);
    track_texts_update(w, sim_trace(s));
    trace_sink sk = {on_span, on_counter, on_instant, on_window, w, on_vgroup};
    trace_set_sink(sim_trace_mut(s), &sk);
    /* what was recorded before the writer was attached (initial memory) */
    const trace *t = sim_trace(s);
    for (size_t i = 0; i < trace_ncounters(t); i++) on_counter(w, t, &trace_counters(t)[i]);
    for (size_t i = 0; i < trace_nspans(t); i++) on_span(w, t, &trace_spans(t)[i]);
    for (size_t i = 0; i < trace_ninstants(t); i++) on_instant(w, t, &trace_instants(t)[i]);
    for (size_t i = 0; i < trace_nwindows(t); i++) on_window(w, t, &trace_windows(t)[i]);
    for (size_t i = 0; i < trace_nvgroups(t); i++) on_vgroup(w, t, &trace_vgroups(t)[i]);
    return w;
}

static void writer_free(chrome_writer *w)
{
    buf_free(&w->line);
    free(w->out);
    free(w->tk);
    free(w->path);
    free(w->tmp);
    free(w);
}

void chrome_abort(chrome_writer *w)
{
    if (!w) return;
    trace_set_sink(sim_trace_mut((sim *)w->s), NULL);
    if (w->f) fclose(w->f);
    if (!w->direct) { unlink(w->tmp); fs_tmp_forget(w->tmp); }
    writer_free(w);
}

bool chrome_close(chrome_writer *w, fs_err *err)
{
    trace_set_sink(sim_trace_mut((sim *)w->s), NULL);
    put(w, "\n]}\n", 4);
    flush_out(w);
    if (!w->failed && fflush(w->f) != 0) { w->failed = true; w->saved_errno = errno; }
    if (!w->failed && !w->direct && fsync(fileno(w->f)) != 0 && errno != EINVAL) { w->failed = true; w->saved_errno = errno; }
    if (fclose(w->f) != 0 && !w->failed) { w->failed = true; w->saved_errno = errno; }
    w->f = NULL;
    if (!w->failed && !w->direct && rename(w->tmp, w->path) != 0) { w->failed = true; w->saved_errno = errno; }
    if (!w->direct && !w->failed) fs_tmp_forget(w->tmp);
    if (w->failed) {
        if (!w->direct) { unlink(w->tmp); fs_tmp_forget(w->tmp); }
        fs_err_set(err, 2, "%s: writing the trace failed: %s (no trace written)", w->path, strerror(w->saved_errno));
        writer_free(w);
        return false;
    }
    writer_free(w);
    return true;
}

bool chrome_write_trace(const sim *s, const char *path, fs_err *err)
{
    chrome_writer *w = chrome_open((sim *)s, path, err);
    if (!w) return false;
    return chrome_close(w, err);
}
