/*
** fuzz_measured.c — libFuzzer target of the two readers of untrusted files
** this program's calibration path has: a Hugging Face config.json
** (hf_parse, src/hfconfig.c) and a measured-run file with its mapping file
** (cal_parse, src/calibrate.c: CSV, JSON lines, verl's console log).  The
** first input byte picks the reader; for cal_parse a NUL byte in the rest
** splits it into the measured file and the mapping file.  An accepted
** config.json must give a model whose derived figures are finite and
** positive; an accepted measured file must have at least 3 rows and only
** finite, non-negative times.
**
**   make fuzz    # builds build-fuzz/fuzz_* and runs each FUZZ_SECONDS; then, longer:
**   ./build-fuzz/fuzz_measured -max_total_time=60 tests/fuzz/corpus/measured tests/fuzz/corpus/hfconfig
** Seeds: tests/fuzz/corpus/hfconfig/ (byte 'h', then a config.json of
** tests/data/hf/), tests/fuzz/corpus/measured/ (byte 'm', then measured files
** as tests/model_calibrate.sh writes them).
*/
#include "calibrate.h"
#include "hfconfig.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    char kind = (char)data[0];
    data++;
    size--;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    fs_err err = {0, ""};
    if (kind == 'h') {
        if (memchr(data, 0, size)) { free(text); return 0; }   /* the file reader refuses NUL bytes */
        scn_model m;
        hf_info in;
        if (hf_parse(text, size, "fuzz.json", &m, &in, &err)) {
            if (!(m.params_total > 0 && isfinite(m.params_total) && m.params_active > 0 &&
                  m.params_active <= m.params_total && m.kv_bytes_per_token > 0 && isfinite(in.params_mtp)))
                abort();
        } else if (err.code != 2 || !err.msg[0]) abort();
    } else {
        size_t n = strlen(text);
        const char *map = n < size ? text + n + 1 : NULL;
        cal_data d;
        if (cal_parse(text, n, "fuzz.csv", map, "fuzz.map", &d, &err)) {
            if (d.nrows < CAL_ROWS_MIN) abort();
            for (int i = 0; i < d.nrows * CP__COUNT; i++)
                if (!isnan(d.t[i]) && !(d.t[i] >= 0 && isfinite(d.t[i]))) abort();
            cal_data_free(&d);
        } else if (err.code != 2 || !err.msg[0]) abort();
    }
    free(text);
    return 0;
}
