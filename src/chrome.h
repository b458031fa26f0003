/*
** chrome.h — stream a run's trace as a Chrome trace-event JSON file that
** Perfetto and chrome://tracing open.  Written to FILE.tmp as the run
** produces it and renamed into place only when complete, so a failed or
** interrupted run never leaves a file that looks finished.
*/
#ifndef FUSYNC_CHROME_H
#define FUSYNC_CHROME_H

#include "engine.h"

typedef struct chrome_writer chrome_writer;

/* Open PATH.tmp and write the track metadata; attaches itself to the
** simulation's trace as its sink.  NULL with err on failure. */
chrome_writer *chrome_open(sim *s, const char *path, fs_err *err);
/* The sink it attached (to chain another watcher in front of it). */
const trace_sink *chrome_sink(const chrome_writer *w);
/* Finish: write the tail, flush, fsync, rename.  Frees the writer. */
bool chrome_close(chrome_writer *w, fs_err *err);
/* Give up: remove the partial file.  Frees the writer. */
void chrome_abort(chrome_writer *w);

/* How a writer opened from now on writes the spans: formatted by hand on a
** second thread (the default), by hand on the caller's thread, or through
** the printf formats of the other events, on the caller's thread.  The same
** bytes each way; the tests compare them. */
typedef enum { CHROME_SPANS_THREAD, CHROME_SPANS_INLINE, CHROME_SPANS_PRINTF } chrome_span_path;
extern chrome_span_path chrome_spans;

/* Write a whole finished trace at once (the terminal front end's export). */
bool chrome_write_trace(const sim *s, const char *path, fs_err *err);

#endif
