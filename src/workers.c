/*
** workers.c — the fork worker pool (workers.h).  A worker takes items
** w, w+jobs, ...; each result is a line "ITEM ROWJSON\n", "ITEM -\n" for no
** row, a failure "ITEM !CODE MESSAGE\n" (newlines of the message as \v).
*/
#include "workers.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The one piece of mutable static state: a signal handler may only set a
** flag (the main loop and the worker pool poll it). */
static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    stop_requested = 1;
    fs_on_stop_signal(sig);     /* so a Lua call under way stops too */
}

/* The four stop signals of docs/security.md, as fs_signals_install has them. */
static const int STOP_SIGS[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSTOP_SIGS (int)(sizeof STOP_SIGS / sizeof STOP_SIGS[0])

void workers_signals(bool on)
{
    static struct sigaction old[NSTOP_SIGS];
    if (on) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < NSTOP_SIGS; i++) sigaddset(&sa.sa_mask, STOP_SIGS[i]);
        for (int i = 0; i < NSTOP_SIGS; i++) sigaction(STOP_SIGS[i], &sa, &old[i]);
    } else {
        for (int i = 0; i < NSTOP_SIGS; i++) sigaction(STOP_SIGS[i], &old[i], NULL);
    }
}

bool workers_interrupted(void) { return stop_requested != 0 || fs_stop_signal != 0; }

/* The status of a stop: 130 for SIGINT and SIGTERM, 128 + the signal else. */
static int stop_code(void)
{
    int c = fs_stop_status();
    return c ? c : 130;
}

/* ================================================================ workers */

static void progress_draw(const char *label, int done, int n)
{
    int w = 30, k = n ? (int)((long)done * w / n) : w;
    fprintf(stderr, "\r  %s [", label);
    for (int i = 0; i < w; i++) fputc(i < k ? '#' : '.', stderr);
    fprintf(stderr, "] %d/%d ", done, n);
    fflush(stderr);
}

static void worker_main(rtable *t, int n, int jobs, int w, workers_fn fn, void *ud, int fd, pid_t parent)
{
    /* the parent decides; it ends us with SIGTERM */
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGTERM, SIG_DFL);
    /* workers_run blocked the stop signals across fork: a SIGTERM sent before
    ** now is pending and ends us here, not in the parent's handler */
    sigset_t all;
    sigemptyset(&all);
    for (int i = 0; i < NSTOP_SIGS; i++) sigaddset(&all, STOP_SIGS[i]);
    sigprocmask(SIG_UNBLOCK, &all, NULL);
#ifdef __linux__
    /* die with the parent (prctl(2)); the check after it covers a parent
    ** that died before the call, the loop's check other systems */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if (getppid() != parent) _exit(3);
    FILE *out = fdopen(fd, "w");
    if (!out) _exit(3);
    fs_buf b;
    buf_init(&b);
    for (int i = w; i < n; i += jobs) {
        if (getppid() != parent) _exit(3);
        fs_err err = {0, ""};
        int before = t->nrows;
        bool ok = !fs_budget_spent(&err) && fn(ud, t, i, &err);
        b.len = 0;
        if (b.s) b.s[0] = 0;
        if (!ok) {
            for (char *c = err.msg; *c; c++) if (*c == '\n') *c = '\v';
            fprintf(out, "%d !%d %s\n", i, err.code ? err.code : 2, err.msg);
            fflush(out);
            _exit(0);
        }
        if (t->nrows == before) { fprintf(out, "%d -\n", i); continue; }
        rt_row_json(t, &t->rows[t->nrows - 1], &b);
        fprintf(out, "%d %s\n", i, b.s);
        rtable_drop_last(t);
    }
    if (fflush(out) != 0) _exit(3);
    _exit(0);
}

typedef struct {
    pid_t  pid;
    int    fd;
    fs_buf in;
    bool   open;
} worker;

/* Take the complete lines a worker sent. */
static bool take_lines(rtable *tmp, worker *wk, int *slot, int n, int *done, fs_err *err)
{
    char *s = wk->in.s;
    size_t used = 0;
    for (;;) {
        char *nl = memchr(s + used, '\n', wk->in.len - used);
        if (!nl) break;
        *nl = 0;
        char *line = s + used;
        used = (size_t)(nl - s) + 1;
        char *sp = strchr(line, ' ');
        int item = atoi(line);
        if (!sp || item < 0 || item >= n) { fs_err_set(err, 2, "a worker sent a broken line"); return false; }
        sp++;
        if (*sp == '!') {
            int code = atoi(sp + 1);
            char *m = strchr(sp, ' ');
            fs_err_set(err, code ? code : 2, "%s", m ? m + 1 : "a worker failed");
            for (char *c = err->msg; *c; c++) if (*c == '\v') *c = '\n';
            return false;
        }
        if (*sp != '-') {
            if (!rt_row_read_json(tmp, sp, err)) return false;
            slot[item] = tmp->nrows - 1;
        }
        (*done)++;
    }
    memmove(s, s + used, wk->in.len - used);
    wk->in.len -= used;
    if (wk->in.s) wk->in.s[wk->in.len] = 0;
    return true;
}

bool workers_run(rtable *t, int n, int jobs, workers_fn fn, void *ud, const char *progress, fs_err *err)
{
    bool show = progress && isatty(STDERR_FILENO);
    double last = 0;
    if (jobs > n) jobs = n;
    /* the work up front, on a terminal as the progress bar: a sweep or a
    ** plan's rung says how many runs it has */
    if (show) fprintf(stderr, "fusync: %s: %d run%s with %d job%s\n", progress, n, n == 1 ? "" : "s",
                          jobs > 1 ? jobs : 1, jobs > 1 ? "s" : "");
    if (jobs <= 1) {
        for (int i = 0; i < n; i++) {
            if (workers_interrupted()) { fs_err_set(err, stop_code(), "interrupted; no output written"); return false; }
            if (fs_budget_spent(err)) return false;
            if (!fn(ud, t, i, err)) return false;
            if (show && wall_now() - last > 0.1) { last = wall_now(); progress_draw(progress, i + 1, n); }
        }
        if (show) fprintf(stderr, "\r\033[K");
        return true;
    }
    fflush(stdout);
    fflush(stderr);
    worker *wk = xcalloc((size_t)jobs, sizeof *wk);
    pid_t parent = getpid();
    int started = 0;
    bool ok = true;
    for (int w = 0; w < jobs; w++) {
        int fds[2];
        if (pipe(fds) != 0) { fs_err_set(err, 2, "cannot start workers: %s", strerror(errno)); ok = false; break; }
        sigset_t stops, was;
        sigemptyset(&stops);
        for (int i = 0; i < NSTOP_SIGS; i++) sigaddset(&stops, STOP_SIGS[i]);
        sigprocmask(SIG_BLOCK, &stops, &was);
        pid_t pid = fork();
        if (pid != 0) sigprocmask(SIG_SETMASK, &was, NULL);
        if (pid < 0) {
            close(fds[0]);
            close(fds[1]);
            fs_err_set(err, 2, "cannot start workers: %s", strerror(errno));
            ok = false;
            break;
        }
        if (pid == 0) {
            close(fds[0]);
            for (int k = 0; k < w; k++) close(wk[k].fd);
            worker_main(t, n, jobs, w, fn, ud, fds[1], parent);
        }
        close(fds[1]);
        wk[w].pid = pid;
        wk[w].fd = fds[0];
        wk[w].open = true;
        buf_init(&wk[w].in);
        started++;
    }
    rtable tmp;
    rtable_init(&tmp, t->kind);
    for (int i = 0; i < t->ncols; i++) rtable_add_col(&tmp, t->cols[i]);
    int *slot = xmalloc((size_t)(n ? n : 1) * sizeof *slot);
    for (int i = 0; i < n; i++) slot[i] = -1;
    int done = 0, open = started;
    struct pollfd *pf = xcalloc((size_t)jobs, sizeof *pf);
    while (ok && open > 0) {
        if (workers_interrupted()) { fs_err_set(err, stop_code(), "interrupted; no output written"); ok = false; break; }
        if (fs_budget_spent(err)) { ok = false; break; }
        int np = 0;
        for (int w = 0; w < started; w++) if (wk[w].open) { pf[np].fd = wk[w].fd; pf[np].events = POLLIN; pf[np].revents = 0; np++; }
        int r = poll(pf, (nfds_t)np, 200);
        if (r < 0 && errno != EINTR) { fs_err_set(err, 2, "poll: %s", strerror(errno)); ok = false; break; }
        for (int w = 0, k = 0; ok && w < started; w++) {
            if (!wk[w].open) continue;
            short re = pf[k++].revents;
            if (!re) continue;
            char buf[65536];
            ssize_t got = read(wk[w].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) { close(wk[w].fd); wk[w].open = false; open--; continue; }
            for (ssize_t i = 0; i < got; i++) buf_putc(&wk[w].in, buf[i]);
            if (!take_lines(&tmp, &wk[w], slot, n, &done, err)) ok = false;
        }
        if (show && wall_now() - last > 0.1) { last = wall_now(); progress_draw(progress, done, n); }
    }
    if (show) fprintf(stderr, "\r\033[K");
    for (int w = 0; w < started; w++) {
        if (!ok) kill(wk[w].pid, SIGTERM);
        if (wk[w].open) close(wk[w].fd);
        int st = 0;
        while (waitpid(wk[w].pid, &st, 0) < 0 && errno == EINTR) {}
        if (ok && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            fs_err_set(err, 2, "worker %d of %d failed (%s %d)", w + 1, jobs,
                       WIFSIGNALED(st) ? "signal" : "exit status", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
            ok = false;
        }
        buf_free(&wk[w].in);
    }
    if (ok && done != n) { fs_err_set(err, 2, "the workers returned %d of %d results", done, n); ok = false; }
    if (ok) for (int i = 0; i < n; i++) if (slot[i] >= 0) rtable_move_row(t, &tmp, slot[i]);
    free(pf);
    free(slot);
    free(wk);
    rtable_free(&tmp);
    return ok;
}

