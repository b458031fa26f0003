/*
** eng_train.c — the analytic tasks of a step: forward passes and training.
**
** A task is computed whole when it starts: every pipeline op gets its span,
** and the pool gets one event when the task ends (eng_sched_task).  Here are
** a stage's forward time (with the micro-batches of the most loaded replica
** from eng_mb.c), the 1F1B schedule, forward-only passes (old log-probs, reference, reward,
** critic) with the DistQueue read before them (eng_step.c), and training
** with the gradient reduction and the optimizer.  The controller (eng_ctrl.c)
** decides when each task runs.  Formulas: docs/model.md, sections 6
** (Forward passes) and 7 (Training).  Shared state and helpers: engine_int.h.
*/
#include "engine_int.h"
#include "model_mem.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------- training passes */

/* A stage's forward-time constants for model m on pool q (model.h,
** mdl_stage_fb): fixed for a task, worked out once per pipeline. */
static mdl_stage stage_setup(const sim *s, const scn_model *m, const plan_pool *q)
{
    scn_link ltp = eng_pool_link(s, q, 0, 1, q->tp), lep = {0}, lpp = {0}, lcp = {0};
    /* Megatron-Core's expert rank order, tp-ep-dp-pp with the expert TP
    ** in place of tp (RankGenerator in megatron/core/parallel_state.py):
    ** an expert-TP group is etp consecutive devices, an EP group ep
    ** devices etp apart */
    scn_link letp = {0};
    if (m->experts > 0) {
        lep = eng_pool_link(s, q, 0, q->etp, q->ep);
        letp = eng_pool_link(s, q, 0, 1, q->etp);
    }
    if (q->pp > 1) lpp = eng_pool_link(s, q, 0, q->tp * q->gdp, 2);
    mdl_stage c = mdl_stage_setup(m, q->tp, q->pp, q->ep, &ltp, m->experts > 0 ? &lep : NULL, q->pp > 1 ? &lpp : NULL);
    if (m->experts > 0) mdl_stage_experts(&c, m, q->ep, q->etp, &lep, &letp);
    if (m->experts > 0 && s->scn.plan.train.moe_dispatcher != MOE_DISP_ALLTOALL) {
        /* the all-gather and flex dispatchers span the ep·etp group */
        scn_link lx = eng_pool_link(s, q, 0, 1, q->ex);
        mdl_stage_dispatcher(&c, m, s->scn.plan.train.moe_dispatcher, &lx);
    }
    const scn_train_layout *tl = &s->scn.plan.train;
    if (q->cp > 1) lcp = eng_pool_link(s, q, 0, q->tp, q->cp);
    mdl_stage_par(&c, m, q->cp, tl->cp_kind, q->cp > 1 ? &lcp : NULL, tl->overlap_tp, tl->overlap_ep);
    mdl_stage_train(&c, m, plan_pool_device(&s->scn, q), &s->scn.eff, tl->recompute);
    /* FP8 training (docs/model.md, section 7): the policy worker's passes,
    ** the actor's and the reference's it runs; a critic stays BF16 */
    if (m != &s->scn.critic) mdl_stage_fp8(&c, m, plan_pool_device(&s->scn, q), &s->scn.eff, tl);
    /* LoRA adapts the actor alone (docs/model.md, section 3) */
    if (m == &s->scn.actor) mdl_stage_lora(&c, m, tl->lora_rank, tl->lora_targets);
    /* the actor's Megatron split (a critic keeps the even one, as plan_cost.c) */
    if (m == &s->scn.actor) mdl_stage_split(&c, m, tl->pp_embedding_layer, tl->pp_loss_layer);
    if (m == &s->scn.actor && tl->entropy_loss) mdl_stage_entropy(&c, tl->entropy);
    return c;
}

static inline double later(double a, double b) { return a > b ? a : b; }   /* fmax of two times >= 0 */

/* The pipeline table's rows (below) are M entries and one cache line more
** apart: at M a multiple of 512, rows M apart would be a multiple of 4 KiB
** apart, and the same micro-batch's entries of every row, which the pass
** reaches together, would all fall in one set of the first-level cache. */
static inline size_t pipe_stride(int M) { return (size_t)M + 8; }

/* Scratch of the pipeline: op end times per stage and micro-batch (the
** 1F1B pass's rows, below), per micro-batch op durations, per stage state;
** grown, never shrunk. */
static void ensure_pipe(sim *s, size_t ops, size_t m, size_t p)
{
    if (ops > s->pipe_cap) {
        s->pipe_cap = ops;
        free(s->f_end);
        s->f_end = xmalloc(ops * sizeof(double));
    }
    if (m > s->pipe_mcap) {
        s->pipe_mcap = m;
        s->f_dur = xrealloc(s->f_dur, m * sizeof(double));
        s->b_dur = xrealloc(s->b_dur, m * sizeof(double));
    }
    if (p > s->pipe_pcap) {
        s->pipe_pcap = p;
        free(s->pipe_st);
        s->pipe_st = xmalloc(p * sizeof(pipe_stage));
    }
}

/* 1F1B schedule (PipeDream-flush, Narayanan et al. 2021) at micro-batch
** granularity: stage s runs min(p-s-1, m) warm-up forwards, then alternates
** one forward and one backward, then drains.  Emits a span per op and returns
** the time the last stage finishes, relative to t0. */
/* Pipeline ops are recorded merged while they run back to back on a stage:
** a steady 1F1B run becomes one "train_1f1b" span, and every gap — the
** warm-up and drain bubbles, waits on a neighbour — stays exact. */
/* A pipeline's spans, gathered and handed to the trace a few hundred at a
** time, in the order they are drawn (trace_add_spans_in): a task is computed
** at one instant, so they all see the same window.  The lean pass (below)
** hands its runs over one by one as it draws them (trace_runs_add). */
enum { PIPE_SPANS = 256 };
typedef struct {
    sim       *s;
    sim_time   t0;          /* the task's start */
    int        iter;
    int        n;
    sim_time   w0, open, lo;
    bool       lean;        /* the lean pass: its spans in runs, to w */
    /* the lean pass for a streaming sink (rec_draw, below) */
    int        track0, M, version;
    bool       fwd_only;
    uint8_t    ph[4];       /* a run's phase by the ops it holds: 1 forwards, 2 backwards, 3 both */
    const int64_t *ptok;    /* [M + 1]: the micro-batches' tokens summed, ptok[i] those before i */
    uint64_t  *done0;       /* per stage: forwards | backwards << 32 done when its open run started */
    const uint32_t *warm;   /* per stage: its warm-up forwards (M for a forward-only pass) */
    trace_runs w;
    trace_span buf[PIPE_SPANS];
} span_buf;

static void spans_flush(span_buf *sb)
{
    if (sb->lean) {
        /* rec's spans: their runs went to the totals as they were drawn */
        trace_stream_spans(sb->s->tr, sb->buf, (size_t)sb->n);
        sb->n = 0;
        return;
    }
    trace_add_spans_in(sb->s->tr, sb->buf, (size_t)sb->n, sb->w0, sb->open, sb->lo);
    sb->n = 0;
}

/* Draws stage g's open run, which ends at b. */
static inline void run_draw(span_buf *sb, int track, const pipe_run *pr, sim_time b)
{
    if (sb->n == PIPE_SPANS) spans_flush(sb);
    sb->buf[sb->n++] = eng_span_make(track, (trace_phase)pr->phase, pr->a, b, sb->iter, sb->s->version,
                                     pr->n == 1 ? pr->mb : -1, pr->tokens);
}

/* A stage's open run ends where the stage is free (g->free_at seconds after
** t0): its end instant is converted only when the run is drawn, or compared
** with an op that does not start at that very second. */
static inline void run_flush(span_buf *sb, int track, pipe_stage *g)
{
    pipe_run *pr = &g->run;
    if (pr->n == 0) return;
    pr->b = sb->t0 + sim_from_secs(g->free_at);
    run_draw(sb, track, pr, pr->b);
    pr->n = 0;
}

/* An op of stage g that could start at `ready` seconds after t0 and lasts d:
** it starts when the stage is free, and is merged into the open run when it
** starts at the instant the run ends (the same second, or seconds that round
** to the same nanosecond), else the run is drawn and a new one opened.  The
** phases a task passes are fph and bph: equal, or the training forward and
** backward, whose merged run is "train_1f1b".  Returns the op's end. */
static inline double op_run(span_buf *sb, int track, pipe_stage *g, trace_phase ph, double ready, double d, int mb,
                            int64_t tok)
{
    pipe_run *pr = &g->run;
    const double f = g->free_at;
    const double t = later(ready, f), e = t + d;
    g->free_at = e;
    const sim_time t0 = sb->t0;
    if (pr->n > 0) {
        if (ready <= f) {                       /* then t is f itself: the op joins */
            if ((int)ph != pr->phase) pr->phase = PH_TRAIN_1F1B;
            pr->tokens += tok;
            pr->n++;
            return e;
        }
        const sim_time a = t0 + sim_from_secs(t), b = t0 + sim_from_secs(f);
        if (a == b) {
            if ((int)ph != pr->phase) pr->phase = PH_TRAIN_1F1B;
            pr->tokens += tok;
            pr->n++;
            return e;
        }
        pr->b = b;
        run_draw(sb, track, pr, b);
        pr->a = a;
    } else {
        pr->a = t0 + sim_from_secs(t);
    }
    pr->phase = (int)ph;
    pr->mb = mb;
    pr->n = 1;
    pr->tokens = tok;
    return e;
}

/* The same pass when no span is read one by one (trace_spans_read: a
** headless trace with no span sink), where the running totals read only a
** span's track, its ends and whether its phase is computation — every
** pipeline phase is.  The ops, their ends and the runs' ends come out as
** op_run and run_flush give them, in the same order, without what only a
** stored span carries (micro-batch, tokens, the merged phase).  A stage
** keeps its free time and its open run's start; free_at is -1 until its
** first op, which then always takes the branch that opens a run. */
typedef struct {
    double   free_at;       /* seconds after the task's start */
    sim_time a;             /* the open run's start */
} lean_stage;

/* A run of the lean pass goes to the running totals as it is drawn. */
static inline void lean_draw(span_buf *sb, int track, sim_time a, sim_time b)
{
    trace_runs_add(&sb->w, a, b, track);
}

/* An op that cannot start when stage g is free (ready > f, its free time):
** it opens a new run, unless its start rounds to the nanosecond the open
** run ends at. */
static inline double lean_wait(span_buf *sb, int track, lean_stage *g, double ready, double f, double d)
{
    const sim_time a = sb->t0 + sim_from_secs(ready);
    if (f >= 0) {
        const sim_time b = sb->t0 + sim_from_secs(f);
        if (a != b) {                                   /* else the same nanosecond: joins */
            lean_draw(sb, track, g->a, b);
            g->a = a;
        }
    } else {
        g->a = a;
    }
    return g->free_at = ready + d;
}

static inline void lean_flush(span_buf *sb, int track, const lean_stage *g)
{
    if (g->free_at >= 0) lean_draw(sb, track, g->a, sb->t0 + sim_from_secs(g->free_at));
}

/* The lean pass when the only reader of spans is a streaming sink
** (trace_spans_streamed: the Chrome trace writer of a headless run): the
** same ops and runs, each run drawn whole as op_run and run_flush draw it,
** in the same order, so that the sink sees the spans of the pass above.
** What only a whole span carries — its merged phase, its micro-batch when
** it holds one op, its tokens — follows from which of the stage's ops the
** run holds: a stage's ops come in a fixed order (order_1f1b: w = min(P-st-1,
** M) warm-up forwards, then a forward and a backward in turn, then the
** remaining backwards), so the forwards and backwards done when an op starts
** follow from the op alone — forward i: i forwards and max(0, i - w)
** backwards; backward j: min(M, w + j + 1) forwards and j backwards — and a
** run holds the forwards and backwards done between its first op and the
** first op of the next run.  The loops pay nothing for it; a run drawn does. */

/* Stage st's forwards and backwards done when the op of micro-batch code
** (2i, + 1 for a backward: order_1f1b's second word) starts, as f | b << 32;
** code UINT32_MAX: the stage's end. */
static inline uint64_t rec_done(const span_buf *sb, int st, uint32_t code)
{
    const uint32_t M = (uint32_t)sb->M, w = sb->warm[st];
    if (code == UINT32_MAX) return M | (uint64_t)(sb->fwd_only ? 0 : M) << 32;
    const uint32_t i = code >> 1;
    if (!(code & 1)) return i | (uint64_t)(i > w ? i - w : 0) << 32;
    return (w + i + 1 < M ? w + i + 1 : M) | (uint64_t)i << 32;
}

/* Stage st's open run, drawn from a to b; the next one opens with the op of
** micro-batch code. */
static __attribute__((noinline)) void rec_draw(span_buf *sb, int st, uint32_t code, sim_time a, sim_time b)
{
    const uint64_t d0 = sb->done0[st], d1 = rec_done(sb, st, code);
    sb->done0[st] = d1;
    const uint32_t f0 = (uint32_t)d0, f1 = (uint32_t)d1, b0 = (uint32_t)(d0 >> 32), b1 = (uint32_t)(d1 >> 32);
    const uint32_t nf = f1 - f0, nb = b1 - b0;
    const int mb = nf + nb == 1 ? (int)(nf ? f0 : b0) : -1;
    const int64_t *pt = sb->ptok;
    const int64_t tok = pt[f1] - pt[f0] + pt[b1] - pt[b0];
    const int32_t track = sb->track0 + st;
    trace_runs_add(&sb->w, a, b, track);
    if (sb->n == PIPE_SPANS) spans_flush(sb);
    trace_span *o = &sb->buf[sb->n++];           /* eng_span_make's */
    o->t0 = a;
    o->t1 = b < a ? a : b;
    o->track = track;
    o->phase = sb->ph[(nf != 0) | (nb != 0) << 1];
    o->iter = sb->iter;
    o->version = sb->version;
    o->mb = mb;
    o->tokens = tok > INT32_MAX ? INT32_MAX : (int32_t)tok;
}

/* lean_wait's, for an op of micro-batch code on stage st. */
static inline double rec_wait(span_buf *sb, int st, lean_stage *g, double ready, double f, double d, uint32_t code)
{
    const sim_time a = sb->t0 + sim_from_secs(ready);
    if (f >= 0) {
        const sim_time b = sb->t0 + sim_from_secs(f);
        if (a != b) {                                   /* else the same nanosecond: joins */
            rec_draw(sb, st, code, g->a, b);
            g->a = a;
        }
    } else {
        g->a = a;
        sb->done0[st] = rec_done(sb, st, code);
    }
    return g->free_at = ready + d;
}

static inline void rec_flush(span_buf *sb, int st, const lean_stage *g)
{
    if (g->free_at >= 0) rec_draw(sb, st, UINT32_MAX, g->a, sb->t0 + sim_from_secs(g->free_at));
}

/* The order in which the 1F1B pass below resolves a training pipeline's
** ops: stage by stage, each stage as far as it can go, over and over until
** every op is done.  It depends only on (P, M) — whether an op can run is a
** matter of counts, not of times — so it is worked out once per shape and
** kept (a few shapes occur in a run); the timed pass then follows it with no
** decisions, and emits its spans in the same order.
**
** The pass keeps every op's end in one table of 2P + 1 rows of M entries
** (pipe_stride apart): row 0 zeros (what stage 0's forwards wait for), row
** 1 + st stage st's forward ends, row P + 1 + st its backward ends.  An op
** is four words: its stage times 2 (+ 1 for a backward), its micro-batch,
** the table entry it waits for (the previous stage's forward; the next
** stage's backward, or for the last stage its own forward) and the one it
** writes.  The micro-batch is given as 2i (+ 1 for a backward): the lean
** pass's index of its duration. */
static const pipe_order *order_1f1b(sim *s, int P, int M)
{
    for (int k = 0; k < PIPE_ORDERS; k++)
        if (s->porder[k].ops && s->porder[k].P == P && s->porder[k].M == M) return &s->porder[k];
    pipe_order *o = &s->porder[s->porder_next++ % PIPE_ORDERS];
    free(o->ops);
    o->P = P;
    o->M = M;
    o->ops = xmalloc((size_t)2 * P * M * 4 * sizeof *o->ops);
    o->n = 0;
    int *nf = xcalloc((size_t)P * 2, sizeof *nf), *nb = nf + P;
    int total = 2 * P * M;
    const uint32_t um = (uint32_t)pipe_stride(M);
    while (o->n < total) {
        int done0 = o->n;
        for (int st = 0; st < P; st++) {
            const int warm = P - st - 1 < M ? P - st - 1 : M;
            for (;;) {
                bool want_f;
                if (nf[st] < warm) want_f = true;
                else if (nf[st] >= M) want_f = false;
                else want_f = (nf[st] - warm) <= nb[st];
                uint32_t *op = o->ops + (size_t)4 * o->n;
                const uint32_t ust = (uint32_t)st;
                if (want_f) {
                    if (st > 0 && nf[st - 1] <= nf[st]) break;          /* its input is not there yet */
                    const uint32_t i = (uint32_t)nf[st]++;
                    op[0] = ust * 2;
                    op[1] = 2 * i;
                    op[2] = ust * um + i;
                    op[3] = (ust + 1) * um + i;
                } else {
                    if (nb[st] >= M) break;
                    if (st == P - 1 ? nf[st] <= nb[st] : nb[st + 1] <= nb[st]) break;   /* its gradient is not */
                    const uint32_t i = (uint32_t)nb[st]++;
                    op[0] = ust * 2 + 1;
                    op[1] = 2 * i + 1;
                    op[2] = (st == P - 1 ? (uint32_t)P : (uint32_t)P + 2 + ust) * um + i;
                    op[3] = ((uint32_t)P + 1 + ust) * um + i;
                }
                o->n++;
            }
        }
        if (o->n == done0) break;   /* cannot happen with a valid schedule */
    }
    free(nf);
    return o;
}

/* A stage's forwards in the lean forward-only pass, one after the other:
** the stage's state is held in locals, so that each op's end waits only
** for the previous op's, not for its trip through memory. */
static __attribute__((noinline)) void lean_fwd(span_buf *sb, int track, lean_stage *g, const double *fprev, double *fes,
                                               const double *fd, int M)
{
    lean_stage st = *g;
    for (int i = 0; i < M; i++) {
        const double ready = fprev[i], f = st.free_at;
        if (ready <= f) fes[i] = st.free_at = f + fd[i];        /* starts at f: joins the run */
        else fes[i] = lean_wait(sb, track, &st, ready, f, fd[i]);
    }
    *g = st;
}

static __attribute__((noinline)) void rec_fwd(span_buf *sb, int stage, lean_stage *g, const double *fprev, double *fes,
                                              const double *fd, int M)
{
    lean_stage st = *g;
    for (int i = 0; i < M; i++) {
        const double ready = fprev[i], f = st.free_at;
        if (ready <= f) fes[i] = st.free_at = f + fd[i];
        else fes[i] = rec_wait(sb, stage, &st, ready, f, fd[i], 2 * (uint32_t)i);
    }
    *g = st;
}

/* An op that waits (lean_wait), or for a streaming sink (rec) rec_wait:
** rec is a constant in each caller (ops_1f1b's two), which keeps one of
** the two.  who is the op's track for lean_wait, its stage for rec_wait;
** code is order_1f1b's second word. */
static inline __attribute__((always_inline)) double any_wait(span_buf *sb, int who, lean_stage *g, double ready, double f,
                                                             double d, uint32_t code, const bool rec)
{
    return rec ? rec_wait(sb, who, g, ready, f, d, code) : lean_wait(sb, who, g, ready, f, d);
}

/* The lean pass over a training pipeline's ops in the order of order_1f1b,
** apart from run_1f1b so that its state stays in registers.  A forward
** mostly waits for its input (the stage idles), a backward mostly starts
** as the stage frees: the two tests are kept apart, each taken the same way
** most of the time.  rec: for a streaming sink (rec_wait's runs). */
static inline __attribute__((always_inline)) void ops_1f1b(span_buf *sb, const uint32_t *op, const uint32_t *op_end,
                                                           double *T, const double *dd, lean_stage *ls, int track0,
                                                           const bool rec)
{
    for (; op < op_end; op += 4) {
        const uint32_t c = op[0];
        const int st = (int)(c >> 1);
        lean_stage *g = &ls[st];
        const double ready = T[op[2]], d = dd[op[1]], f = g->free_at;
        double e;
        if (c & 1) {
            if (__builtin_expect(ready <= f, 1)) e = g->free_at = f + d;
            else e = any_wait(sb, rec ? st : track0 + st, g, ready, f, d, op[1], rec);
        } else {
            if (__builtin_expect(ready > f, 1)) e = any_wait(sb, rec ? st : track0 + st, g, ready, f, d, op[1], rec);
            else e = g->free_at = f + d;
        }
        T[op[3]] = e;
    }
}

static __attribute__((noinline)) void lean_1f1b(span_buf *sb, const uint32_t *op, const uint32_t *op_end, double *T,
                                                const double *dd, lean_stage *ls, int track0)
{
    ops_1f1b(sb, op, op_end, T, dd, ls, track0, false);
}

static __attribute__((noinline)) void rec_1f1b(span_buf *sb, const uint32_t *op, const uint32_t *op_end, double *T,
                                               const double *dd, lean_stage *ls)
{
    ops_1f1b(sb, op, op_end, T, dd, ls, 0, true);
}

static double run_1f1b(sim *s, int p0, const scn_model *m, const mb_set *ms, sim_time t0, int iter,
                       trace_phase fph, trace_phase bph, bool backward)
{
    const plan_pool *q = &s->pl.pools[p0];
    pool_rt *r = &s->pr[p0];
    int P = q->pp, M = ms->m;
    /* the lean pass when nothing reads spans one by one, or only a sink
    ** streaming them (then rec: its runs drawn whole) */
    const bool rec = trace_spans_streamed(s->tr);
    const bool lean = (!trace_spans_read(s->tr) || rec) && trace_phase_is_compute(fph) && trace_phase_is_compute(bph);
    /* the table; for the lean pass also each micro-batch's forward and
    ** backward durations side by side, and the stages (lean_stage); for
    ** rec the tokens summed (M + 1), each stage's done0 and warm */
    const size_t stride = pipe_stride(M), table = (size_t)(2 * P + 1) * stride;
    ensure_pipe(s, table + (lean ? (size_t)2 * M + (size_t)2 * P + (rec ? (size_t)M + 1 + (size_t)2 * P : 0) : 0), (size_t)M,
                (size_t)P);
    double *T = s->f_end, *fd = s->f_dur, *bd = s->b_dur;
    double *dd = T + table;
    lean_stage *ls = (lean_stage *)(dd + 2 * (size_t)M);
    const double *tok = ms->tok;
    pipe_stage *stg = s->pipe_st;
    /* each micro-batch's forward and backward on the slowest stage, the
    ** backward's communication counted, not multiplied (mdl_stage_fb) */
    mdl_stage sc = stage_setup(s, m, q);
    mdl_stage_fb_n(m, plan_pool_device(&s->scn, q), s->scn.eff.link, &sc, tok, ms->sq, s->scn.eff.train, fd,
                   backward ? bd : NULL, M);
    if (!backward)
        for (int i = 0; i < M; i++) bd[i] = 0;
    if (lean) {
        for (int i = 0; i < M; i++) {
            dd[2 * i] = fd[i];
            dd[2 * i + 1] = bd[i];
        }
        for (int st = 0; st < P; st++) ls[st] = (lean_stage){-1, 0};
    }
    memset(stg, 0, (size_t)P * sizeof *stg);
    const int track0 = r->track0;
    span_buf sb;
    sb.s = s;
    sb.t0 = t0;
    sb.iter = iter;
    sb.n = 0;
    eng_span_window(s, &sb.w0, &sb.open, &sb.lo);
    double end = 0;
    uint64_t done = 0;
    sb.lean = lean;
    if (lean && rec) trace_runs_begin_streamed(s->tr, &sb.w, sb.w0, sb.open, sb.lo);
    else if (lean) trace_runs_begin(s->tr, &sb.w, sb.w0, sb.open, sb.lo);
    if (lean && rec) {
        int64_t *pt = (int64_t *)(ls + P);
        pt[0] = 0;
        for (int i = 0; i < M; i++) pt[i + 1] = pt[i] + (int64_t)tok[i];
        sb.ptok = pt;
        sb.done0 = (uint64_t *)(pt + M + 1);
        uint32_t *wm = (uint32_t *)(sb.done0 + P);
        for (int st = 0; st < P; st++) wm[st] = (uint32_t)(backward && P - st - 1 < M ? P - st - 1 : M);
        sb.warm = wm;
        sb.track0 = track0;
        sb.M = M;
        sb.version = s->version;
        sb.fwd_only = !backward;
        sb.ph[0] = sb.ph[1] = (uint8_t)fph;
        sb.ph[2] = (uint8_t)bph;
        sb.ph[3] = (uint8_t)(fph == bph ? fph : PH_TRAIN_1F1B);
    }    if (!backward) {
        /* forward only: stage st's i-th forward waits for stage st-1's, so
        ** each stage runs all its forwards in turn, in one pass, in row
        ** 1 + st of the table (row 0: zeros) */
        memset(T, 0, (size_t)M * sizeof *T);
        for (int st = 0; st < P; st++) {
            pipe_stage *g = &stg[st];
            double *fes = T + (size_t)(st + 1) * stride;
            const double *fprev = T + (size_t)st * stride;
            if (lean && rec)
                rec_fwd(&sb, st, &ls[st], fprev, fes, fd, M);
            else if (lean)
                lean_fwd(&sb, track0 + st, &ls[st], fprev, fes, fd, M);
            else
                for (int i = 0; i < M; i++) fes[i] = op_run(&sb, track0 + st, g, fph, fprev[i], fd[i], i, (int64_t)tok[i]);
            g->nf = M;
        }
        done = (uint64_t)P * M;
    } else {
        /* 1F1B: stage st runs min(P-st-1, M) warm-up forwards, then
        ** alternates one forward and one backward, then drains; a forward
        ** waits for the previous stage's, a backward for the next stage's
        ** (the last stage's for its own forward): the order and the table
        ** entries come from order_1f1b */
        const pipe_order *o = order_1f1b(s, P, M);
        memset(T, 0, (size_t)M * sizeof *T);
        const uint32_t *op = o->ops, *op_end = o->ops + (size_t)4 * o->n;
        if (lean && rec) {
            rec_1f1b(&sb, op, op_end, T, dd, ls);
        } else if (lean) {
            lean_1f1b(&sb, op, op_end, T, dd, ls, track0);
        } else {
            for (; op < op_end; op += 4) {
                const uint32_t c = op[0], i = op[1] >> 1;
                const int st = (int)(c >> 1);
                const bool b = c & 1;
                T[op[3]] = op_run(&sb, track0 + st, &stg[st], b ? bph : fph, T[op[2]], b ? bd[i] : fd[i], (int)i, (int64_t)tok[i]);
            }
        }
        done = (uint64_t)o->n;
    }
    for (int st = 0; st < P; st++) {
        if (lean) {
            if (ls[st].free_at > end) end = ls[st].free_at;
            if (rec) rec_flush(&sb, st, &ls[st]);
            else lean_flush(&sb, track0 + st, &ls[st]);
        } else {
            if (stg[st].free_at > end) end = stg[st].free_at;
            run_flush(&sb, track0 + st, &stg[st]);
        }
    }
    if (lean && rec && sb.n > 0) spans_flush(&sb);
    if (lean) trace_runs_end(&sb.w);
    else spans_flush(&sb);
    s->st.pipeline_ops += done;
    return end;
}

/* Forward-only pass of model m over samples `ids` on pool p0.
** Train-layout pools use the pipeline; aux pools data-parallel replicas. */
static double fwd_pass(sim *s, int p0, const scn_model *m, trace_phase ph, sim_time t0, const int *ids, int n)
{
    const plan_pool *q = &s->pl.pools[p0];
    pool_rt *r = &s->pr[p0];
    if (q->aux_tp > 0) {
        double tok = 0, sq = 0;
        for (int i = 0; i < n; i++) {
            double L = (double)eng_smp(s, ids[i])->prompt + eng_smp(s, ids[i])->resp;
            tok += L;
            sq += L * L;
        }
        const scn_link l = eng_pool_link(s, q, 0, 1, q->aux_tp);
        double t = mdl_aux_fwd(m, plan_pool_device(&s->scn, q), &s->scn.eff, &l, q->devices, q->aux_tp, q->aux_replicas, tok, sq);
        t += plan_aux_gather(&s->scn, q, m, n);     /* ZeRO-3-sharded: gathers (docs/model.md, section 3) */
        eng_span(s, r->track0, ph, t0, t0 + sim_from_secs(t), s->step_running, s->version, -1, (int64_t)tok);
        return t;
    }
    /* the log-prob forwards (old policy, reference) take their own
    ** micro-batches (plan_logprob_budget); a reward model or the critic's
    ** values the training ones */
    int mbs = s->scn.plan.train.micro_batch;
    double budget = eng_mb_budget(&s->scn);
    if (ph == PH_LOGPROB || ph == PH_REF) budget = plan_logprob_budget(&s->scn, q->cp, &mbs);
    mb_set ms = eng_build_microbatches(s, ids, n, q->dp, mbs, budget);
    double t = run_1f1b(s, p0, m, &ms, t0, s->step_running, ph, ph, false);
    /* ZeRO-3: the parameters are gathered for every micro-batch; the exposed
    ** share is drawn as one span after the pipeline */
    double tz = plan_fwd_gather(&s->scn, q, m, ms.m);
    if (tz > 0) {
        sim_time a = t0 + sim_from_secs(t);
        for (int k = 0; k < r->ntracks; k++) eng_span(s, r->track0 + k, ph, a, a + sim_from_secs(tz), s->step_running, s->version, -1, 0);
    }
    return t + tz;
}

/* ----------------------------------------------------------------- tasks */

/* The forward passes of a pool's next taken chunk, one after the other: the
** DistQueue read, old log-probs, reference and reward models (under full
** co-location loaded from the host for each use), critic values, and the
** rule-based reward on the hosts. */
static void start_infer_on_(sim *s, int p, sim_time now)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    double t = 0;
    sim_time cur = now;
    int k = r->infer_cursor++;
    r->cur_chunk = k;
    const int *ids = s->step_ids + k * s->chunk_n;
    int n = s->chunk_n;
    /* each part's interval, for the split of the inference phase */
#define PART(k, a) (r->inf_t[k][0] = (a), r->inf_t[k][1] = cur)
    for (int j = 0; j < INF__COUNT; j++) r->inf_t[j][0] = r->inf_t[j][1] = now;
    if (q->roles & ROLE_TRAIN) cur += sim_from_secs(eng_queue_transfer(s, p, cur, ids, n));
    else if (q->aux_tp > 0 || (q->roles & ROLE_CRITIC)) cur += sim_from_secs(eng_queue_aux(s, p, cur, ids, n));
    PART(INF_QUEUE, now);
    /* the log-prob forwards' logits and layer (plan.c lp_act, the fit's figure) */
    if (q->lp_act > 0) eng_mem_pool(s, p, MB_ACTIVATIONS, q->lp_act, cur);
    if ((q->roles & ROLE_TRAIN) && s->scn.work.recompute_logprob) {
        sim_time a = cur;
        t = fwd_pass(s, p, eng_actor(s), PH_LOGPROB, cur, ids, n);
        cur += sim_from_secs(t);
        PART(INF_LOGPROB, a);
    }
    const scn_model *aux[2] = {s->scn.has_ref && (q->roles & ROLE_REF) ? &s->scn.ref : NULL,
                               s->scn.reward_is_model && (q->roles & ROLE_REWARD) ? &s->scn.reward : NULL};
    trace_phase aph[2] = {PH_REF, PH_REWARD};
    mem_bucket ab[2] = {MB_REF_WEIGHTS, MB_REWARD_WEIGHTS};
    for (int a = 0; a < 2; a++) {
        if (!aux[a]) continue;
        sim_time a0 = cur;
        if (q->swap_aux) {
            /* full co-location: the model waits on the host and is loaded per use */
            double bytes = q->aux_bytes[a];
            double tl = mdl_param_reload(bytes, plan_pool_cluster(&s->scn, q), s->scn.eff.host_link);
            if (r->hostlink_track >= 0) eng_span(s, r->hostlink_track, PH_ONLOAD, cur, cur + sim_from_secs(tl), s->step_running, s->version, -1, 0);
            eng_mem_pool(s, p, ab[a], bytes, cur);
            cur += sim_from_secs(tl);
            t = fwd_pass(s, p, aux[a], aph[a], cur, ids, n);
            cur += sim_from_secs(t);
            eng_mem_pool(s, p, ab[a], 0, cur);
        } else {
            t = fwd_pass(s, p, aux[a], aph[a], cur, ids, n);
            cur += sim_from_secs(t);
        }
        PART(a ? INF_REWARD : INF_REF, a0);      /* a model loaded from the host counts its load */
    }
    if (q->lp_act > 0) eng_mem_pool(s, p, MB_ACTIVATIONS, 0, cur);
    if (s->scn.has_critic && (q->roles & ROLE_CRITIC)) {
        sim_time a0 = cur;
        t = fwd_pass(s, p, &s->scn.critic, PH_CRITIC_FWD, cur, ids, n);
        cur += sim_from_secs(t);
        PART(INF_CRITIC, a0);
    }
    if (!s->scn.reward_is_model && (q->roles & ROLE_TRAIN)) {
        /* rule-based reward: CPU work on a pool of plan.reward_workers
        ** processes (0: one per training device); the pool waits for it */
        int rw = s->scn.plan.reward_workers > 0 ? s->scn.plan.reward_workers : q->devices;
        double tr = mdl_reward_cpu(n, s->scn.eff.reward_rule_s, rw);
        if (r->hostlink_track >= 0 && tr > 0)
            eng_span(s, r->hostlink_track, PH_REWARD, cur, cur + sim_from_secs(tr), s->step_running, s->version, -1, n);
        sim_time a0 = cur;
        cur += sim_from_secs(tr);
        PART(INF_REWARD, a0);           /* the critic runs between; a pool has one reward */
    }
#undef PART
    eng_pool_class(s, p, P_INFER);
    r->st = P_INFER;
    eng_sched_task(s, p, cur);
}

/* The analytic tasks (pipelines, passes) are timed apart from the event
** loop, so the bench can report the loop's own rate. */
void eng_start_infer_on(sim *s, int p, sim_time now)
{
    double w0 = wall_now();
    start_infer_on_(s, p, now);
    s->st.task_wall_s += wall_now() - w0;
}

/* plan.train.balance = step (docs/model.md, section 7, "Balancing per
** step"): verl's trainer balances the whole step over the ranks before
** training (ray_trainer.py _balance_batch: seqlen_balancing's equal-size
** partition, each rank's sequences kept in batch order), and each rank
** cuts its share into mini-batches in that order (the actor's
** make_iterator, no shuffle).  A rank's mini-batch is then a slice of its
** step, not balanced against the other ranks' slices, and the optimizer
** step of each mini-batch waits for the most loaded.  Worked out once a
** step: bal_ids + k·per_mb holds mini-batch k's most loaded rank's
** samples (bal_n[k] of them).  Equal counts: the longest first, each to
** the least loaded rank that has room (ties: the lowest rank). */
typedef struct { uint64_t len; int id, pos; } bal_seq;

static int bal_by_len(const void *a, const void *b)
{
    const bal_seq *x = a, *y = b;
    if (x->len != y->len) return x->len > y->len ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

static int bal_by_id(const void *a, const void *b)
{
    const bal_seq *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static void step_balance(sim *s, int dp)
{
    if (s->bal_ids && s->bal_step == s->step_running && s->bal_dp == dp) return;
    const int n = s->N, nmb = s->scn.work.minibatches > 0 ? s->scn.work.minibatches : 1, per_mb = n / nmb;
    if (!s->bal_ids) {
        s->bal_ids = xmalloc((size_t)n * sizeof *s->bal_ids);
        s->bal_n = xmalloc((size_t)nmb * sizeof *s->bal_n);
    }
    bal_seq *q = xmalloc((size_t)n * sizeof *q);
    int *rank = xmalloc((size_t)n * sizeof *rank), *cnt = xcalloc((size_t)dp, sizeof *cnt);
    uint64_t *load = xcalloc((size_t)dp, sizeof *load);
    for (int i = 0; i < n; i++) {
        const sample *x = eng_smp(s, s->step_ids[i]);
        q[i] = (bal_seq){(uint64_t)x->prompt + (uint64_t)x->resp, s->step_ids[i], i};
    }
    qsort(q, (size_t)n, sizeof *q, bal_by_len);
    const int cap = (n + dp - 1) / dp;
    for (int i = 0; i < n; i++) {
        int best = -1;
        for (int r = 0; r < dp; r++)
            if (cnt[r] < cap && (best < 0 || load[r] < load[best])) best = r;
        rank[q[i].pos] = best;
        cnt[best]++;
        load[best] += q[i].len;
    }
    /* each rank's sequences in batch (sample id) order, cut into nmb
    ** mini-batches of cnt/nmb; per mini-batch the most loaded slice */
    for (int i = 0; i < n; i++) q[i].pos = rank[q[i].pos];     /* pos now holds the rank */
    qsort(q, (size_t)n, sizeof *q, bal_by_id);
    int *fill = xcalloc((size_t)dp, sizeof *fill);
    uint64_t *mload = xcalloc((size_t)dp * nmb, sizeof *mload);
    for (int i = 0; i < n; i++) {
        int r = q[i].pos, c = cnt[r] / nmb > 0 ? cnt[r] / nmb : 1;
        int k = fill[r]++ / c;
        if (k >= nmb) k = nmb - 1;
        q[i].pos = r * nmb + k;     /* the slice it falls in */
        mload[q[i].pos] += q[i].len;
    }
    for (int k = 0; k < nmb; k++) {
        int w = 0;
        for (int r = 1; r < dp; r++) if (mload[r * nmb + k] > mload[w * nmb + k]) w = r;
        int m = 0;
        for (int i = 0; i < n && m < per_mb; i++)
            if (q[i].pos == w * nmb + k) s->bal_ids[k * per_mb + m++] = q[i].id;
        s->bal_n[k] = m;
    }
    free(q);
    free(rank);
    free(cnt);
    free(load);
    free(fill);
    free(mload);
    s->bal_step = s->step_running;
    s->bal_dp = dp;
}

/* Train mini-batches [mb0, mb1) for epochs [e0, e1): each a 1F1B pipeline,
** the gradient reduction and the optimizer step. */
static void start_train_(sim *s, int p, sim_time now, int e0, int e1, int mb0, int mb1)
{
    const plan_pool *q = &s->pl.pools[p];
    pool_rt *r = &s->pr[p];
    const scn_workload *w = &s->scn.work;
    int per_mb = s->N / w->minibatches;
    sim_time cur = now;
    /* the actor where it trains, the critic where it does: on one pool in
    ** turn, or each on its own (docs/model.md, section 2) */
    const scn_model *models[2] = {q->roles & ROLE_TRAIN ? eng_actor(s) : NULL,
                                  s->scn.has_critic && (q->roles & ROLE_CRITIC) ? &s->scn.critic : NULL};
    /* gradients that live only while a step trains (plan.train.grad_buffer =
    ** step): allocated by the first backward, freed by the zero_grad after the
    ** last optimizer step (docs/model.md, section 3) */
    bool step_grads = models[0] && s->scn.plan.train.grad_buffer == GRADS_STEP;
    if (step_grads) eng_mem_pool(s, p, MB_GRADS, q->train_mem[MB_GRADS], now);
    for (int e = e0; e < e1; e++) {
        for (int mbi = mb0; mbi < mb1; mbi++) {
            for (int mi = 0; mi < 2; mi++) {
                const scn_model *m = models[mi];
                if (!m) continue;
                mb_set ms;
                if (s->scn.plan.train.balance == BAL_STEP && q->dp > 1 && !s->streaming) {
                    /* the most loaded rank's slice, cut alone (docs/model.md, section 7) */
                    step_balance(s, q->dp);
                    ms = eng_build_microbatches(s, s->bal_ids + mbi * per_mb, s->bal_n[mbi], 1,
                                                s->scn.plan.train.micro_batch, eng_mb_budget(&s->scn));
                } else {
                    ms = eng_build_microbatches(s, s->step_ids + mbi * per_mb, per_mb, q->dp, s->scn.plan.train.micro_batch,
                                                eng_mb_budget(&s->scn));
                }
                double tp = run_1f1b(s, p, m, &ms, cur, s->step_running, mi ? PH_CRITIC_TRAIN : PH_TRAIN_FWD,
                                     mi ? PH_CRITIC_TRAIN : PH_TRAIN_BWD, true);
                /* activations: each stage reserves what 1F1B holds at the
                ** longest sequence the workload allows (min(p - s, m)
                ** micro-batches; plan.c, the fit's own figure), so a layout
                ** that fits never meets a longer batch later */
                for (int g = 0; g < r->ngroups; g++)
                    eng_mem_set(s, r->group0 + g, MB_ACTIVATIONS, plan_act_peak_model(&s->scn, q, m, g), cur);
                sim_time pend = cur + sim_from_secs(tp);
                eng_mem_pool(s, p, MB_ACTIVATIONS, 0, pend);
                /* the tail (plan_train_tail, the estimate's too): gradient
                ** reduction over DP (dense) and expert-DP (experts), under
                ** ZeRO-2/3 also the exposed per-micro-batch collectives,
                ** drawn with it as one span after the pipeline (the
                ** end-of-mini-batch reduction may run in buckets during the
                ** last micro-batch's backward); then the optimizer */
                double tg, to;
                plan_train_tail(&s->scn, q, m, ms.m, s->b_dur[ms.m - 1], &tg, &to);
                sim_time g1 = pend + sim_from_secs(tg), o1 = g1 + sim_from_secs(to);
                for (int k = 0; k < r->ntracks; k++) {
                    if (tg > 0) eng_span(s, r->track0 + k, PH_GRAD_SYNC, pend, g1, s->step_running, s->version, -1, 0);
                    eng_span(s, r->track0 + k, PH_OPTIMIZER, g1, o1, s->step_running, s->version, -1, 0);
                }
                cur = o1;
            }
        }
    }
    if (step_grads) eng_mem_pool(s, p, MB_GRADS, 0, cur);
    eng_pool_class(s, p, P_TRAIN);
    r->st = P_TRAIN;
    eng_sched_task(s, p, cur);
}

void eng_start_train(sim *s, int p, sim_time now, int e0, int e1, int mb0, int mb1)
{
    double w0 = wall_now();
    start_train_(s, p, now, e0, e1, mb0, mb1);
    s->st.task_wall_s += wall_now() - w0;
}
