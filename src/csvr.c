/*
** csvr.c — the CSV reader (csvr.h) over libcsv.  libcsv reports cells and
** row ends but no positions, so the text is fed one physical line at a
** time: the line a row starts on is the line its first cell ends on, less
** the line breaks inside that cell.
*/
#include "csvr.h"

#include <csv.h>
#include <string.h>

typedef struct {
    csvr_cell_fn cell;
    csvr_row_fn row;
    void *ud;
    fs_err *err;
    bool stop;
    bool between;       /* no cell of a row seen since the last row end */
    bool row_ended;     /* a row ended in the line being fed */
    int line;           /* the physical line being fed */
    int row_line;       /* the line the current row starts on */
    int ncells;
} csvr_ctx;

static void on_cell(void *field, size_t len, void *ud)
{
    csvr_ctx *x = ud;
    if (x->stop) return;
    const char *s = field ? field : "";
    if (x->between) {
        int breaks = 0;
        for (size_t i = 0; i < len; i++) breaks += s[i] == '\n';
        x->row_line = x->line - breaks;
        x->between = false;
        x->ncells = 0;
    }
    if (!x->cell(s, len, x->ncells++, x->row_line, x->ud, x->err)) x->stop = true;
}

static void on_row(int term, void *ud)
{
    (void)term;
    csvr_ctx *x = ud;
    if (x->stop) return;
    if (x->between) { x->row_line = x->line; x->ncells = 0; }   /* a row of no cells */
    if (!x->row(x->ncells, x->row_line, x->ud, x->err)) x->stop = true;
    x->between = true;
    x->row_ended = true;
    x->ncells = 0;
}

bool csvr_parse(const char *text, size_t len, const char *name, int flags, csvr_cell_fn cell, csvr_row_fn row,
                void *ud, fs_err *err)
{
    struct csv_parser p;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) {
        fs_err_set(err, 2, "%s: the CSV reader cannot start", name);
        return false;
    }
    csvr_ctx x = {cell, row, ud, err, false, true, false, 0, 1, 0};
    bool ok = true;
    /* at_start: the parser is between rows, not inside a quoted cell that
    ** spans lines (a line of it may start with '#' and is the cell's) */
    bool at_start = true;
    for (size_t pos = 0; ok && !x.stop && pos < len;) {
        const char *l = text + pos;
        const char *nl = memchr(l, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - l) + 1 : len - pos;
        pos += ll;
        x.line++;
        if ((flags & CSVR_COMMENTS) && at_start && l[0] == '#') continue;
        x.row_ended = false;
        ok = csv_parse(&p, l, ll, on_cell, on_row, &x) == ll;
        bool blank = true;
        for (size_t i = 0; i < ll && blank; i++) blank = l[i] == ' ' || l[i] == '\t' || l[i] == '\r' || l[i] == '\n';
        if (x.row_ended) at_start = true;
        else if (!blank) at_start = false;
    }
    if (ok && !x.stop) ok = csv_fini(&p, on_cell, on_row, &x) == 0;
    if (!ok && !x.stop) fs_err_set(err, 2, "%s: line %d: %s", name, x.line, csv_strerror(csv_error(&p)));
    csv_free(&p);
    return ok && !x.stop;
}
