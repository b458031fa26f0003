/*
** import_fw.h — each framework's keys: its default and what fusync does with
** the key (import_fw.c has the sources).
*/
#ifndef FUSYNC_IMPORT_FW_H
#define FUSYNC_IMPORT_FW_H

#include "import.h"

typedef enum {
    IMP_K_MAP,      /* mapped onto a scenario field */
    IMP_K_PERF,     /* affects performance, not modelled: a warning with its note */
    IMP_K_NOPERF    /* does not affect performance */
} imp_kclass;

typedef struct {
    const char *key;    /* an exact key, or an fnmatch pattern with '*' */
    const char *dflt;   /* the framework's default as text; NULL: none recorded */
    imp_kclass  cls;
    const char *note;   /* IMP_K_PERF: what it does and how fusync approximates it */
} imp_keydef;

/* The entry for key (exact first, then the patterns in order); NULL: unknown. */
const imp_keydef *imp_fw_key(imp_framework fw, const char *key);
/* The framework's default of an exact key; NULL when none is recorded. */
const char *imp_fw_default(imp_framework fw, const char *key);
/* The version and files the defaults come from. */
const char *imp_fw_source(imp_framework fw);

#endif
