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
**
** The run's thread and the writer's share one ring of blocks and one record
** format, kept in this one file; the number formatting the records use
** (spans formatted by hand must give the printf path's bytes, test_chrome)
** is src/chrome_fmt.h.
*/
/* sync_file_range (Linux) is declared only with _GNU_SOURCE; without it the
** writer does without (write_chunk). */
#define _GNU_SOURCE
#include "chrome.h"
#include "chrome_fmt.h"
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
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
/* A memory counter's value as text (fmt_double's, costly to make): the run
** has few distinct values, so the writer keeps the latest ones. */
#define VALUE_CACHE 64
typedef struct value_text {
    uint64_t bits;          /* the value's, as a key: -0 is not 0 */
    char     text[40];
    uint8_t  len;
    bool     set;
} value_text;

/* Two threads (docs/performance.md, "The trace writer"): the run's, which
** hands the events over in blocks of records, and the writer's, which
** formats them, in the same order, and writes the file.  A block holds
** records one after the other: a tag byte, then a span or a memory counter
** as recorded (trace_span, trace_counter), or a length (uint32_t) and that
** much text already formatted (the rarer events).  NBLOCKS blocks go round;
** the run's thread waits only when all are full.  4 MiB of them hold a
** training step's burst of pipeline spans (tens of thousands, recorded
** faster than they are written) while the writer catches up in the next
** generation phase.  Without a second thread (the tests', or one that could
** not be started) the run's thread writes each block itself when it is
** full. */
#define BLOCK_CAP (128u << 10)
#define NBLOCKS   32
enum { REC_SPAN = 1, REC_COUNTER, REC_EVENT, REC_RAW };   /* REC_EVENT: one line of traceEvents; REC_RAW: text as it is */
#define SPAN_REC    (1 + sizeof(trace_span))
#define COUNTER_REC (1 + sizeof(trace_counter))
#define TEXT_REC 5                           /* tag and length, before the text */

struct chrome_writer {
    /* the run's thread */
    const sim *s;
    trace_sink sink;        /* as attached (chrome_sink) */
    char   *path, *tmp;
    bool    direct;         /* writing straight to a device or pipe */
    bool    by_hand;        /* spans formatted by out_span (else all by printf) */
    fs_buf  line;           /* a rare event's text, formatted here */
    int     train_pool;     /* weight-sync flows start on its first track (flow_src) */
    int     flow_src;       /* -1: no training track, no flows */
    unsigned flows;         /* flow ids given so far */
    char   *blk;            /* the block being filled: blocks[filled % NBLOCKS] */
    size_t  blen;
    /* set before the writer's thread starts, read by both */
    FILE   *f;
    int     fd;             /* f's: the chunks are written to it directly, f buffers nothing */
    track_text *tk;         /* per track, the fixed text of its spans */
    int     ntk;
    name_text phase_names[PH__COUNT + 1], step_names[STEP__COUNT + 1];   /* the last: "?" */
    fs_buf  ctr_text;       /* per memory group and bucket, a counter's line up to its "ts" value */
    size_t *ctr_at;         /* [group * MB__COUNT + bucket]: where in ctr_text, and up to the next */
    int     ngroups;
    char   *blocks[NBLOCKS];
    /* under mu: blocks handed over (filled) and written (done), their
    ** lengths; no more to come (closing); stop now (stop) */
    pthread_mutex_t mu;
    pthread_cond_t  more, room;
    unsigned long long filled, done;
    size_t  lens[NBLOCKS];
    bool    closing, stop;
    bool    exited;         /* the writer's thread has returned */
    bool    threaded;
    pthread_t thread;
    /* the writer's (the run's thread's again once it has ended) */
    bool    failed;
    int     saved_errno;
    bool    first;
    off_t   written;        /* bytes written so far */
    char   *out;            /* text not yet written, OUT_CAP bytes */
    size_t  olen;
    value_text values[VALUE_CACHE];
};

/* The trace is written in chunks of this size: one write per megabyte, not
** one per event. */
#define OUT_CAP (1u << 20)
/* Room an event line of a span needs at most: its fixed text, the longest
** phase name and nine 20-digit numbers, and the eight bytes that the number
** formatter may store past the line's end (put8). */
#define SPAN_MAX 512

/* n bytes to the file, resuming after a signal or a short write; false
** with errno when the file cannot take them (a full disk). */
static bool write_all_fd(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t r = write(fd, p, n);
        if (r < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (r == 0) {
            errno = ENOSPC;
            return false;
        }
        p += r;
        n -= (size_t)r;
    }
    return true;
}

/* A chunk written, and the kernel asked to start writing it back to the disk
** now (Linux's sync_file_range, SYNC_FILE_RANGE_WRITE: it starts the write
** and does not wait for it), so that the fsync before the rename
** (chrome_close) finds little left to do; where there is no such call the
** fsync does it all.  Not for devices and pipes. */
static void write_chunk(chrome_writer *w, const char *p, size_t n)
{
    if (w->failed || n == 0) return;
    if (!write_all_fd(w->fd, p, n)) {
        w->failed = true;
        w->saved_errno = errno;
        return;
    }
#ifdef SYNC_FILE_RANGE_WRITE
    /* advisory: a failure to start the write-back shows at the fsync */
    if (!w->direct) (void)sync_file_range(w->fd, w->written, (off_t)n, SYNC_FILE_RANGE_WRITE);
#endif
    w->written += (off_t)n;
}

static void flush_out(chrome_writer *w)
{
    write_chunk(w, w->out, w->olen);
    w->olen = 0;
}

/* The writer's: text as it is, and one line of traceEvents (after the
** comma that ends the one before). */
static void out_put(chrome_writer *w, const char *text, size_t n)
{
    if (w->olen + n > OUT_CAP) {
        flush_out(w);
        if (n > OUT_CAP) {
            write_chunk(w, text, n);
            return;
        }
    }
    memcpy(w->out + w->olen, text, n);
    w->olen += n;
}

static void out_event(chrome_writer *w, const char *text, size_t n)
{
    if (!w->first) out_put(w, ",\n", 2);
    w->first = false;
    out_put(w, text, n);
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


static void name_text_set(name_text *n, const char *name)
{
    memset(n->text, 0, sizeof n->text);
    int len = snprintf(n->text, sizeof n->text, "{\"name\":\"%s", name);
    n->len = (uint8_t)len;
}

chrome_span_path chrome_spans = CHROME_SPANS_THREAD;

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
** digit what the printf format of the other events would give (on_span's
** general path), straight into the output chunk.  The writer's. */
static void out_span(chrome_writer *w, const trace_span *sp)
{
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

/* A memory counter's line up to its pid, and its value's text, as the
** printf formats make them: the writer's texts per group and bucket are made
** with them, and so is the whole line of a counter those do not cover, on the
** run's thread (on_counter). */
static void counter_head(fs_buf *b, const char *group, int pool, int bucket)
{
    buf_puts(b, "{\"name\":");
    char nm[160];
    snprintf(nm, sizeof nm, "mem %s %s", group, trace_bucket_name((mem_bucket)bucket));
    json_escape(b, nm);
    buf_printf(b, ",\"ph\":\"C\",\"pid\":%d", pool + 1);
}

static void counter_value(char *v, size_t n, double bytes)
{
    fmt_double(v, n, bytes / (1024.0 * 1024.0 * 1024.0));
}

/* The writer's: a counter of a group and bucket that ctr_text covers, at a
** time at or after zero. */
static void out_counter(chrome_writer *w, const trace_counter *c)
{
    size_t k = (size_t)c->group * MB__COUNT + c->bucket;
    out_event(w, w->ctr_text.s + w->ctr_at[k], w->ctr_at[k + 1] - w->ctr_at[k]);
    uint64_t bits;
    memcpy(&bits, &c->bytes, sizeof bits);
    value_text *v = &w->values[(bits ^ bits >> 29 ^ bits >> 47) % VALUE_CACHE];
    if (!v->set || v->bits != bits) {
        counter_value(v->text, sizeof v->text, c->bytes);
        v->len = (uint8_t)strlen(v->text);
        v->bits = bits;
        v->set = true;
    }
    char rest[96], *o = put_us(rest, c->t);
    o = PUT_LIT(o, ",\"args\":{\"GiB\":");
    memcpy(o, v->text, v->len);
    o = PUT_LIT(o + v->len, "}}");
    out_put(w, rest, (size_t)(o - rest));
}

/* The writer's: a block's records, in order. */
static void consume(chrome_writer *w, const char *p, size_t n)
{
    const char *e = p + n;
    while (p < e && !w->failed) {
        if (*p == REC_SPAN) {
            trace_span sp;
            memcpy(&sp, p + 1, sizeof sp);
            out_span(w, &sp);
            p += SPAN_REC;
            continue;
        }
        if (*p == REC_COUNTER) {
            trace_counter c;
            memcpy(&c, p + 1, sizeof c);
            out_counter(w, &c);
            p += COUNTER_REC;
            continue;
        }
        uint32_t len;
        memcpy(&len, p + 1, sizeof len);
        if (*p == REC_EVENT) out_event(w, p + TEXT_REC, len);
        else out_put(w, p + TEXT_REC, len);
        p += TEXT_REC + len;
    }
}

static void *writer_main(void *arg)
{
    chrome_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->done == w->filled && !w->closing && !w->stop) pthread_cond_wait(&w->more, &w->mu);
        if (w->stop || w->done == w->filled) break;
        size_t k = (size_t)(w->done % NBLOCKS), n = w->lens[k];
        pthread_mutex_unlock(&w->mu);
        consume(w, w->blocks[k], n);
        pthread_mutex_lock(&w->mu);
        w->done++;
        pthread_cond_signal(&w->room);
    }
    w->exited = true;
    pthread_cond_signal(&w->room);
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* The run's thread waiting for the writer (under mu) for room or for its
** end.  The writer blocks the stop signals and may itself be blocked in
** write(2): on a pipe whose reader has stopped reading, for ever.  So the
** wait is in slices of a tenth of a second, and once a stop signal (Ctrl-C,
** SIGTERM) has been pending for a second the process ends as at a second
** Ctrl-C: the temporary files removed, status 130 (util.c, fs_fatal_exit).
** A writer that is only slow (a regular file) ends well within that second
** when it is told to stop, and the run is aborted cleanly instead. */
static void wait_writer(chrome_writer *w, int *slices)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 100000000L;
    if (ts.tv_nsec >= 1000000000L) { ts.tv_sec++; ts.tv_nsec -= 1000000000L; }
    pthread_cond_timedwait(&w->room, &w->mu, &ts);
    if (!fs_stop_signal) { *slices = 0; return; }
    if (++*slices >= 10) fs_fatal_exit(fs_stop_status(), "\nfusync: interrupted (the trace's reader stopped reading)\n");
}

/* The run's thread: the block being filled handed over to the writer (or
** written, without one); then, unless it was the last, the next block to
** fill, once the writer is done with it. */
static void hand_over(chrome_writer *w, bool last)
{
    if (!w->threaded) {
        consume(w, w->blk, w->blen);
        w->blen = 0;
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->lens[w->filled % NBLOCKS] = w->blen;
    w->filled++;
    if (last) w->closing = true;
    pthread_cond_signal(&w->more);
    int slices = 0;
    while (!last && w->filled - w->done >= NBLOCKS) wait_writer(w, &slices);
    pthread_mutex_unlock(&w->mu);
    w->blk = w->blocks[w->filled % NBLOCKS];
    w->blen = 0;
}

static inline void need_room(chrome_writer *w, size_t n)
{
    if (w->blen + n > BLOCK_CAP) hand_over(w, false);
}

/* Text for the writer: REC_EVENT, a line of traceEvents, or REC_RAW; split
** over blocks when it is longer than one (the pieces after the first as
** they are). */
static void send_text(chrome_writer *w, int tag, const char *text, size_t n)
{
    do {
        size_t piece = n < BLOCK_CAP - TEXT_REC ? n : BLOCK_CAP - TEXT_REC;
        need_room(w, TEXT_REC + piece);
        char *o = w->blk + w->blen;
        o[0] = (char)tag;
        uint32_t len = (uint32_t)piece;
        memcpy(o + 1, &len, sizeof len);
        memcpy(o + TEXT_REC, text, piece);
        w->blen += TEXT_REC + piece;
        text += piece;
        n -= piece;
        tag = REC_RAW;
    } while (n > 0);
}

/* The line formatted in w->line, as one event. */
static void emit(chrome_writer *w)
{
    send_text(w, REC_EVENT, w->line.s, w->line.len);
    w->line.len = 0;
    if (w->line.s) w->line.s[0] = 0;
}

/* A span through the printf formats, on the run's thread: those not from
** the engine, and every one when the tests ask (CHROME_SPANS_PRINTF).  Out
** of line, so that on_span's own path stays short. */
static __attribute__((noinline)) void span_printf(chrome_writer *w, const trace *t, const trace_span *sp)
{
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
}

/* A weight sync's arrow (a flow event pair, the trace-event format's "s"
** and "f"): from the training pool's first track to each rollout instance
** that receives the weights, both at the sync's start, each bound to the
** enclosing weight_sync slice ("bp":"e").  Rare: on the run's thread. */
static __attribute__((noinline)) void sync_flow(chrome_writer *w, const trace *t, const trace_span *sp)
{
    const trace_track *tk = trace_track_at(t, sp->track);
    if (tk->kind != TRK_INSTANCE || tk->pool == w->train_pool) return;
    unsigned id = ++w->flows;
    fs_buf *b = &w->line;
    buf_printf(b, "{\"name\":\"weights v%d\",\"cat\":\"weight_sync\",\"ph\":\"s\",\"id\":%u,\"pid\":%d,\"tid\":%d",
               sp->version, id, pid_of(t, w->flow_src), w->flow_src);
    ts(b, "ts", sp->t0);
    buf_puts(b, "}");
    emit(w);
    buf_printf(b, "{\"name\":\"weights v%d\",\"cat\":\"weight_sync\",\"ph\":\"f\",\"bp\":\"e\",\"id\":%u,\"pid\":%d,\"tid\":%d",
               sp->version, id, pid_of(t, sp->track), sp->track);
    ts(b, "ts", sp->t0);
    buf_puts(b, "}");
    emit(w);
}

static void on_span(void *ud, const trace *t, const trace_span *sp)
{
    chrome_writer *w = ud;
    if (sp->t0 >= 0 && sp->t1 >= sp->t0 && sp->track >= 0 && sp->track < w->ntk && w->by_hand) {
        /* from the engine (its times start at zero, a span never ends
        ** before it starts, its tracks are those of the header): as it is,
        ** for the writer to format */
        need_room(w, SPAN_REC);
        char *o = w->blk + w->blen;
        o[0] = REC_SPAN;
        memcpy(o + 1, sp, sizeof *sp);
        w->blen += SPAN_REC;
    } else {
        span_printf(w, t, sp);
    }
    /* a weight sync's arrows follow its slice (weight syncs come one span
    ** at a time, never through on_spans) */
    if (sp->phase == PH_WEIGHT_SYNC && w->flow_src >= 0 && sp->track >= 0 && sp->track < trace_ntracks(t))
        sync_flow(w, t, sp);
}

/* A batch of spans (a task's pipeline): on_span's, the block's room asked
** once for as many as it can take. */
static void on_spans(void *ud, const trace *t, const trace_span *sp, size_t n)
{
    chrome_writer *w = ud;
    const trace_span *e = sp + n;
    while (sp < e) {
        if (w->blen + SPAN_REC > BLOCK_CAP) hand_over(w, false);
        size_t room = (BLOCK_CAP - w->blen) / SPAN_REC;
        char *o = w->blk + w->blen;
        for (; room > 0 && sp < e; sp++) {
            if (!(sp->t0 >= 0 && sp->t1 >= sp->t0 && sp->track >= 0 && sp->track < w->ntk && w->by_hand)) {
                w->blen = (size_t)(o - w->blk);
                span_printf(w, t, sp);
                o = w->blk + w->blen;
                room = (BLOCK_CAP - w->blen) / SPAN_REC;
                continue;
            }
            o[0] = REC_SPAN;
            memcpy(o + 1, sp, sizeof *sp);
            o += SPAN_REC;
            room--;
        }
        w->blen = (size_t)(o - w->blk);
    }
}

static void on_counter(void *ud, const trace *t, const trace_counter *c)
{
    chrome_writer *w = ud;
    if (c->group >= 0 && c->group < w->ngroups && c->bucket < MB__COUNT && c->t >= 0 && w->by_hand) {
        /* a memory group of the header's time and a bucket of the engine's
        ** (the writer has their text) at one of the engine's times */
        need_room(w, COUNTER_REC);
        char *o = w->blk + w->blen;
        o[0] = REC_COUNTER;
        memcpy(o + 1, c, sizeof *c);
        w->blen += COUNTER_REC;
        return;
    }
    const trace_memgroup *g = trace_memgroup_at(t, c->group);
    fs_buf *b = &w->line;
    counter_head(b, g->name, g->pool, c->bucket);
    ts(b, "ts", c->t);
    char v[40];
    counter_value(v, sizeof v, c->bytes);
    buf_printf(b, ",\"args\":{\"GiB\":%s}}", v);
    emit(w);
}

static void on_instant(void *ud, const trace *t, const trace_instant *in)
{
    chrome_writer *w = ud;
    fs_buf *b = &w->line;
    if (in->kind == INST_BATCH) {
        /* an arrow from the instance's slice that finished the batch's last
        ** sample (1 ns before its end, inside it) to the training pool's
        ** next slice after the take (the flow end's default binding) */
        if (w->flow_src < 0 || in->track < 0 || in->track >= trace_ntracks(t)) return;
        unsigned id = ++w->flows;
        sim_time t0 = in->t_from > 0 ? in->t_from - 1 : in->t_from;
        buf_printf(b, "{\"name\":\"batch of step %d\",\"cat\":\"batch\",\"ph\":\"s\",\"id\":%u,\"pid\":%d,\"tid\":%d",
                   in->iter, id, pid_of(t, in->track), in->track);
        ts(b, "ts", t0);
        buf_puts(b, "}");
        emit(w);
        buf_printf(b, "{\"name\":\"batch of step %d\",\"cat\":\"batch\",\"ph\":\"f\",\"id\":%u,\"pid\":%d,\"tid\":%d",
                   in->iter, id, pid_of(t, w->flow_src), w->flow_src);
        ts(b, "ts", in->t);
        buf_printf(b, ",\"args\":{\"samples\":%d}}", in->count);
        emit(w);
        return;
    }
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
               "a pipeline stage (all its TP and DP ranks), a rollout instance, a forward-only pool\","
               "\"fusync_version\":\"%s\",", scn_mode_name(sc->plan.mode), sc->plan.staleness, FUSYNC_VERSION_STR);
    /* the resolved scenario, as the JSON report writes it (report.h) */
    fs_json j;
    json_init(&j, b, false);
    report_scenario_json(sc, &j, "scenario_fields");
    buf_puts(b, "},\n\"traceEvents\":[\n");
    send_text(w, REC_RAW, b->s, b->len);
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

/* The writer's thread, with every signal blocked: they go to the run's
** thread, whose loop reads the stop request (util.h). */
static bool start_writer(chrome_writer *w)
{
    sigset_t all, old;
    sigfillset(&all);
    if (pthread_sigmask(SIG_SETMASK, &all, &old) != 0) return false;
    bool ok = pthread_create(&w->thread, NULL, writer_main, w) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
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
        w->f = fs_open_direct(w->tmp);
    } else {
        /* O_EXCL in the target's folder, removed on a signal (util.h) */
        w->f = fs_tmp_create(path, &w->tmp);
    }
    if (!w->f) {
        fs_err_set(err, 2, "%s: cannot write the trace: %s", path, fs_direct_error(errno));
        free(w->path);
        free(w->tmp);
        free(w);
        return NULL;
    }
    w->fd = fileno(w->f);
    w->s = s;
    w->train_pool = sim_plan(s)->train_pool;
    w->flow_src = -1;
    for (int k = 0; k < trace_ntracks(sim_trace(s)) && w->flow_src < 0; k++)
        if (trace_track_at(sim_trace(s), k)->pool == w->train_pool) w->flow_src = k;
    w->first = true;
    buf_init(&w->line);
    w->out = xmalloc(OUT_CAP);
    for (int p = 0; p <= PH__COUNT; p++) name_text_set(&w->phase_names[p], trace_phase_name((trace_phase)p));
    for (int p = 0; p <= STEP__COUNT; p++) name_text_set(&w->step_names[p], trace_step_phase_name((trace_step_phase)p));
    track_texts_update(w, sim_trace(s));
    w->ngroups = trace_nmemgroups(sim_trace(s));
    buf_init(&w->ctr_text);
    w->ctr_at = xmalloc(((size_t)w->ngroups * MB__COUNT + 1) * sizeof *w->ctr_at);
    for (int g = 0; g < w->ngroups; g++) {
        const trace_memgroup *mg = trace_memgroup_at(sim_trace(s), g);
        for (int b = 0; b < MB__COUNT; b++) {
            w->ctr_at[g * MB__COUNT + b] = w->ctr_text.len;
            counter_head(&w->ctr_text, mg->name, mg->pool, b);
            buf_puts(&w->ctr_text, ",\"ts\":");
        }
    }
    w->ctr_at[(size_t)w->ngroups * MB__COUNT] = w->ctr_text.len;
    for (int k = 0; k < (chrome_spans == CHROME_SPANS_THREAD ? NBLOCKS : 1); k++) w->blocks[k] = xmalloc(BLOCK_CAP);
    w->blk = w->blocks[0];
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->more, NULL);
    pthread_cond_init(&w->room, NULL);
    w->by_hand = chrome_spans != CHROME_SPANS_PRINTF;
    w->threaded = chrome_spans == CHROME_SPANS_THREAD && start_writer(w);
    write_header(w);
    w->sink = (trace_sink){on_span, on_counter, on_instant, on_window, w, on_vgroup, on_spans};
    trace_set_sink(sim_trace_mut(s), &w->sink);
    /* what was recorded before the writer was attached (initial memory) */
    const trace *t = sim_trace(s);
    for (size_t i = 0; i < trace_ncounters(t); i++) on_counter(w, t, &trace_counters(t)[i]);
    for (size_t i = 0; i < trace_nspans(t); i++) on_span(w, t, &trace_spans(t)[i]);
    for (size_t i = 0; i < trace_ninstants(t); i++) on_instant(w, t, &trace_instants(t)[i]);
    for (size_t i = 0; i < trace_nwindows(t); i++) on_window(w, t, &trace_windows(t)[i]);
    for (size_t i = 0; i < trace_nvgroups(t); i++) on_vgroup(w, t, &trace_vgroups(t)[i]);
    return w;
}

/* The writer's thread ended: with what was handed over written (closing),
** or at once (stop). */
static void end_writer(chrome_writer *w, bool stop)
{
    if (!w->threaded) return;
    pthread_mutex_lock(&w->mu);
    if (stop) w->stop = true;
    w->closing = true;
    pthread_cond_signal(&w->more);
    int slices = 0;
    while (!w->exited) wait_writer(w, &slices);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    w->threaded = false;
}

static void writer_free(chrome_writer *w)
{
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->more);
    pthread_cond_destroy(&w->room);
    for (int k = 0; k < NBLOCKS; k++) free(w->blocks[k]);
    buf_free(&w->line);
    buf_free(&w->ctr_text);
    free(w->ctr_at);
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
    end_writer(w, true);
    if (w->f) fclose(w->f);
    if (!w->direct) { unlink(w->tmp); fs_tmp_forget(w->tmp); }
    writer_free(w);
}

bool chrome_close(chrome_writer *w, fs_err *err)
{
    trace_set_sink(sim_trace_mut((sim *)w->s), NULL);
    send_text(w, REC_RAW, "\n]}\n", 4);
    hand_over(w, true);
    end_writer(w, false);
    flush_out(w);
    if (!w->failed && !w->direct && fsync(w->fd) != 0 && errno != EINVAL) { w->failed = true; w->saved_errno = errno; }
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

const trace_sink *chrome_sink(const chrome_writer *w) { return &w->sink; }
