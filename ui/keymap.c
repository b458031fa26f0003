/*
** keymap.c — the one table from keys to requests.  The help screen is
** generated from it, so it cannot drift from what the keys do.
*/
#include "app.h"

#include <stdio.h>
#include <string.h>

const tui_binding keymap[] = {
    {' ', REQ_PLAY, SEC_RUN, "play / pause the simulation"},
    {'.', REQ_STEP_EVENT, SEC_RUN, "step one engine event"},
    {'n', REQ_STEP_ITER, SEC_RUN, "run to the end of the step under way, then pause"},
    {'G', REQ_END, SEC_RUN, "jump to the end of the run"},
    {'0', REQ_RESTART, SEC_RUN, "restart the run from t = 0"},
    {'+', REQ_FASTER, SEC_RUN, "play faster (x2)"},
    {'=', REQ_FASTER, SEC_RUN, NULL},
    {'-', REQ_SLOWER, SEC_RUN, "play slower (/2)"},

    {TK_TAB, REQ_FOCUS_NEXT, SEC_VIEW, "focus the next pane"},
    {TK_BTAB, REQ_FOCUS_PREV, SEC_VIEW, "focus the previous pane"},
    {'z', REQ_ZOOM_PANE, SEC_VIEW, "show the focused pane alone / all panes"},
    {TK_UP, REQ_UP, SEC_VIEW, "select the row above (scroll up)"},
    {'k', REQ_UP, SEC_VIEW, NULL},
    {TK_DOWN, REQ_DOWN, SEC_VIEW, "select the row below (scroll down)"},
    {'j', REQ_DOWN, SEC_VIEW, NULL},
    {TK_PGUP, REQ_PGUP, SEC_VIEW, "page up"},
    {TK_PGDN, REQ_PGDN, SEC_VIEW, "page down"},
    {TK_LEFT, REQ_LEFT, SEC_VIEW, "move the time cursor left one column"},
    {'h', REQ_LEFT, SEC_VIEW, NULL},
    {TK_RIGHT, REQ_RIGHT, SEC_VIEW, "move the time cursor right one column"},
    {'l', REQ_RIGHT, SEC_VIEW, NULL},
    {TK_SLEFT, REQ_LEFT_FAST, SEC_VIEW, "move the cursor left 10 columns"},
    {'H', REQ_LEFT_FAST, SEC_VIEW, NULL},
    {TK_SRIGHT, REQ_RIGHT_FAST, SEC_VIEW, "move the cursor right 10 columns"},
    {'L', REQ_RIGHT_FAST, SEC_VIEW, NULL},
    {TK_HOME, REQ_HOME, SEC_VIEW, "cursor to t = 0"},
    {'f', REQ_FOLLOW, SEC_VIEW, "cursor follows the live clock"},
    {TK_END, REQ_FOLLOW, SEC_VIEW, NULL},
    {'>', REQ_ZOOM_IN, SEC_VIEW, "zoom the time axis in around the cursor"},
    {'<', REQ_ZOOM_OUT, SEC_VIEW, "zoom the time axis out"},
    {'w', REQ_FIT, SEC_VIEW, "fit the whole run so far"},
    {TK_ENTER, REQ_EXPAND, SEC_VIEW, "expand / collapse the selected row"},

    {'m', REQ_MODE, SEC_WHATIF, "mode: separate -> colocate -> full"},
    {'s', REQ_STALE_UP, SEC_WHATIF, "staleness bound +1"},
    {'S', REQ_STALE_DOWN, SEC_WHATIF, "staleness bound -1"},
    {'p', REQ_PARTIAL_UP, SEC_WHATIF, "partial-rollout threshold +0.05"},
    {'P', REQ_PARTIAL_DOWN, SEC_WHATIF, "partial-rollout threshold -0.05"},
    {'d', REQ_SPLIT_UP, SEC_WHATIF, "pool split: rollout pool + whole instances (separate mode)"},
    {'D', REQ_SPLIT_DOWN, SEC_WHATIF, "pool split: rollout pool - whole instances"},
    {'t', REQ_RTP_UP, SEC_WHATIF, "rollout TP x2"},
    {'T', REQ_RTP_DOWN, SEC_WHATIF, "rollout TP /2"},
    {'u', REQ_SN_UP, SEC_WHATIF, "supernodes +1"},
    {'U', REQ_SN_DOWN, SEC_WHATIF, "supernodes -1"},
    {'i', REQ_ITER_UP, SEC_WHATIF, "training steps in the run +1 (workload.iterations)"},
    {'I', REQ_ITER_DOWN, SEC_WHATIF, "training steps in the run -1"},
    {'x', REQ_RESET_EDITS, SEC_WHATIF, "drop every edit: back to the scenario file"},
    {':', REQ_COMMAND, SEC_WHATIF, "command line: set PATH=VALUE, unset, reset, ... (Tab completes, Up recalls)"},

    {'a', REQ_SNAP_A, SEC_COMPARE, "snapshot this plan as A"},
    {'b', REQ_SNAP_B, SEC_COMPARE, "snapshot this plan as B"},
    {'c', REQ_COMPARE, SEC_COMPARE, "show / hide the A-B comparison"},
    {'e', REQ_EXPORT, SEC_COMPARE, "export the trace and the JSON report"},
    {'E', REQ_EXPORT_SVG, SEC_COMPARE, "export the view (or the A/B pair) as an SVG picture"},

    {'o', REQ_LESSONS, SEC_GENERAL, "open a guided lesson (lessons/*.lua)"},
    {'?', REQ_HELP, SEC_GENERAL, "this help"},
    {TK_F1, REQ_HELP, SEC_GENERAL, NULL},
    {TK_CTRL('l'), REQ_REDRAW, SEC_GENERAL, "redraw the screen"},
    {'q', REQ_QUIT, SEC_GENERAL, "quit (also Ctrl-C)"},
};
const int keymap_len = (int)(sizeof keymap / sizeof keymap[0]);

tui_req keymap_lookup(int key)
{
    for (int i = 0; i < keymap_len; i++)
        if (keymap[i].key == key) return keymap[i].req;
    return REQ_NONE;
}

const char *keymap_key_name(int key, char *buf, size_t n)
{
    switch (key) {
    case ' ': return "space";
    case TK_UP: return "Up";
    case TK_DOWN: return "Down";
    case TK_LEFT: return "Left";
    case TK_RIGHT: return "Right";
    case TK_SLEFT: return "S-Left";
    case TK_SRIGHT: return "S-Right";
    case TK_PGUP: return "PgUp";
    case TK_PGDN: return "PgDn";
    case TK_HOME: return "Home";
    case TK_END: return "End";
    case TK_ENTER: return "Enter";
    case TK_ESC: return "Esc";
    case TK_TAB: return "Tab";
    case TK_BTAB: return "S-Tab";
    case TK_F1: return "F1";
    default: break;
    }
    if (key > 0 && key < 32) snprintf(buf, n, "Ctrl-%c", key + 'A' - 1);
    else if (key >= 32 && key < 127) snprintf(buf, n, "%c", key);
    else snprintf(buf, n, "#%d", key);
    return buf;
}

const char *keymap_section_name(key_section s)
{
    static const char *names[SEC__COUNT] = {
        [SEC_RUN] = "Run", [SEC_WHATIF] = "What-if (the run restarts at once)",
        [SEC_COMPARE] = "Compare and export", [SEC_VIEW] = "View", [SEC_GENERAL] = "General"
    };
    return (unsigned)s < SEC__COUNT ? names[s] : "";
}

int keymap_help_lines(char lines[][96], int max)
{
    int n = 0;
    for (int sec = 0; sec < SEC__COUNT && n < max; sec++) {
        if (sec && n < max) lines[n++][0] = 0;
        if (n < max) snprintf(lines[n++], 96, "%s", keymap_section_name((key_section)sec));
        for (int i = 0; i < keymap_len && n < max; i++) {
            const tui_binding *b = &keymap[i];
            if ((int)b->section != sec || !b->help) continue;
            /* every key bound to the same request goes on one line */
            char keys[48] = "", kb[16];
            for (int j = 0; j < keymap_len; j++) {
                if (keymap[j].req != b->req) continue;
                size_t l = strlen(keys);
                snprintf(keys + l, sizeof keys - l, "%s%s", l ? " " : "", keymap_key_name(keymap[j].key, kb, sizeof kb));
            }
            snprintf(lines[n++], 96, "  %-14s %s", keys, b->help);
        }
    }
    return n;
}
