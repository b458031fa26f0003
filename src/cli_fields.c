/*
** cli_fields.c — `fusync fields [RECORD] [--markdown]`: every field of the
** scenario format with its type, unit, range, default and meaning, printed
** from the one description in src/fields.c (docs/scenarios.md's tables are
** this command's --markdown output, kept current by `make docs`).
*/
#include "cli.h"
#include "fields.h"
#include "report_fields.h"

#include <stdio.h>
#include <string.h>

int cmd_fields(cli_opts *o)
{
    const char *prefix = o->scenario ? o->scenario : "";
    fs_buf b;
    buf_init(&b);
    if (!strcmp(prefix, "report")) {
        report_fields_describe(&b);     /* markdown either way: it is a reference table */
    } else if (prefix[0]) {
        const fdesc *f = fields_lookup(prefix);
        if (!f || !f->sub) {
            fprintf(stderr, "fusync: fields: '%s' is not a table of the scenario format "
                            "(try 'fusync fields' for the whole list)\n", prefix);
            buf_free(&b);
            return 2;
        }
    }
    if (strcmp(prefix, "report") != 0) fields_describe_under(&b, o->markdown, prefix);
    fwrite(b.s, 1, b.len, stdout);     /* main() checks that stdout took it */
    buf_free(&b);
    return 0;
}
