/*
** import_model.c — the model a framework's config names, as a shape
** (import.h, imp_model_find): the config's path or hub id resolved to a
** local config.json (read by hfconfig.c), else a preset of the same name.
** The places looked in are docs/frameworks.md, "The model".
*/
#include "import.h"
#include "hfconfig.h"
#include "presets.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* config.json of a model path or hub id: the file itself, a model folder,
** DIR/ORG/NAME/config.json, DIR/NAME/config.json, or the Hugging Face cache's
** DIR/models--ORG--NAME/snapshots/ * /config.json. */
static bool find_config(const char *id, const char *dir, char *out, size_t n)
{
    char p[4096];
    if (is_file(id)) { snprintf(out, n, "%s", id); return true; }
    snprintf(p, sizeof p, "%s/config.json", id);
    if (is_file(p)) { snprintf(out, n, "%s", p); return true; }
    if (!dir) return false;
    const char *base = strrchr(id, '/');
    /* a hub id ORG/NAME as a folder tree under DIR, the more specific place first */
    if (base && id[0] != '/') {
        snprintf(p, sizeof p, "%s/%s/config.json", dir, id);
        if (is_file(p)) { snprintf(out, n, "%s", p); return true; }
    }
    base = base ? base + 1 : id;
    snprintf(p, sizeof p, "%s/%s/config.json", dir, base);
    if (is_file(p)) { snprintf(out, n, "%s", p); return true; }
    char flat[1024];
    snprintf(flat, sizeof flat, "%s", id);
    for (char *q = flat; *q; q++) if (*q == '/') *q = '-';
    /* models--ORG--NAME: the id's slash becomes "--" */
    const char *slash = strchr(id, '/');
    if (slash) snprintf(p, sizeof p, "%s/models--%.*s--%s/snapshots/*/config.json", dir, (int)(slash - id), id, slash + 1);
    else snprintf(p, sizeof p, "%s/models--%s/snapshots/*/config.json", dir, id);
    glob_t g;
    bool ok = false;
    if (glob(p, 0, NULL, &g) == 0 && g.gl_pathc > 0) {
        snprintf(out, n, "%s", g.gl_pathv[g.gl_pathc - 1]);   /* the last snapshot in name order */
        ok = true;
    }
    globfree(&g);
    return ok;
}

bool imp_model_find(const char *id, const char *model_dir, const char *src, scn_model *mm, char *how, size_t hn,
                    fs_err *err)
{
    char path[4096];
    char idx[1024];
    if (id[0] == '~' && getenv("HOME")) snprintf(idx, sizeof idx, "%s%s", getenv("HOME"), id + 1);
    else snprintf(idx, sizeof idx, "%s", id);
    char hub[4096];
    const char *dir = model_dir;
    if (!dir) {
        if (getenv("HF_HOME")) { snprintf(hub, sizeof hub, "%s/hub", getenv("HF_HOME")); dir = hub; }
        else if (getenv("HOME")) { snprintf(hub, sizeof hub, "%s/.cache/huggingface/hub", getenv("HOME")); dir = hub; }
    }
    if (find_config(idx, dir, path, sizeof path)) {
        hf_info info;
        fs_err e = {0, ""};
        if (!hf_load(path, mm, &info, &e)) {
            fs_err_set(err, 2, "%s: %s", src, e.msg);
            return false;
        }
        /* the shape is written; where it was read is a comment, not a path the scenario depends on */
        snprintf(how, hn, "shape from its config.json");
        return true;
    }
    const char *base = strrchr(idx, '/');
    base = base && base[1] ? base + 1 : idx;
    for (int i = 0; i < presets_model_count(); i++) {
        if (strcasecmp(presets_model(i)->name, base) && strcasecmp(presets_model_key(i), base)) continue;
        snprintf(how, hn, "the shape of fusync's preset f.models.%s", presets_model_key(i));
        *mm = *presets_model(i);
        return true;
    }
    fs_err_set(err, 2, "%s = %s: no config.json found (looked for it as a file, a model folder and in the Hugging "
               "Face cache under %s) and no preset of that name (fusync presets); fetch "
               "https://huggingface.co/%s/resolve/main/config.json and pass the file with --model-dir DIR "
               "(DIR/NAME/config.json or DIR/ORG/NAME/config.json) or put it in the cache", src, id, dir ? dir : "$HF_HOME/hub", id);
    return false;
}
