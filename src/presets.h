/*
** presets.h — built-in accelerators and models as constant C tables.
** Figures in SI units (FLOP/s, bytes, B/s); memory capacities are binary
** (GiB = 2^30 bytes), bandwidths decimal (GB/s = 1e9 B/s).  Model presets
** hold the architecture only: derived fields are zero until
** scn_model_derive() fills them.  Keys are Lua identifiers, the names a
** scenario uses as fusync.devices.<key> and fusync.models.<key>.
*/
#ifndef FUSYNC_PRESETS_H
#define FUSYNC_PRESETS_H

#include "scenario.h"

int               presets_device_count(void);
const scn_device *presets_device(int i);          /* NULL when i is out of range */
const char       *presets_device_key(int i);
const char       *presets_device_source(int i);   /* where the figures come from */
const scn_device *presets_device_find(const char *key);   /* a key or an alias; NULL: no such device */
/* The preset key a device name stands for: a key itself, or a name the
** frameworks and logs use ("GB200", "A100-40G", "A100 40GB", "NVIDIA
** A100-SXM4-40GB"), matched with case and punctuation folded; NULL: none. */
const char       *presets_device_key_of(const char *name);

int               presets_model_count(void);
const scn_model  *presets_model(int i);
const char       *presets_model_key(int i);
const char       *presets_model_source(int i);
const scn_model  *presets_model_find(const char *key);

#endif
