#!/bin/sh
# scripts/layers.sh — hold every module group's #includes against the groups
# it may include (docs/architecture.md, "Modules": one-way flow, the engine
# below Lua and curses).  Exit status 1 names each offending FILE:LINE.
#
#   sh scripts/layers.sh                  # check src/ and ui/
#   sh scripts/layers.sh --engine-sources # the .c files that must link alone
#                                         # (no Lua, no curses: make layer-check)
#
# Every .c and .h under src/ and ui/ belongs to exactly one group; a file in
# none fails the check, so a new file is placed on purpose.  A quoted include
# names a header of src/ or ui/; it must belong to a group the including
# group may include (its own among them).  <lua.h>, <lauxlib.h>, <lualib.h>,
# <luaconf.h> need `lua yes`; <curses.h>, <ncurses.h>, <term.h> and the
# ncursesw/ ones need `curses yes`.  `alone yes`: the group's .c files are
# linked without Lua and curses by `make layer-check`.
set -u
cd "$(dirname "$0")/.." || exit 2

# group     | lua | curses | alone | files | groups whose headers it may include
GROUPS='
base      | no  | no  | yes | src/util.* src/jsonr.* | base
scenario  | no  | no  | yes | src/scenario.* | base scenario
format    | no  | no  | yes | src/fields.c src/fields.h src/dist.* src/model.* src/model_coll.* src/model_mem.* src/model_fp8.* src/model_act.* src/model_sync.* src/presets.* src/hfconfig.* src/trace.* src/plan.c src/plan_cost.c src/plan_describe.c src/plan_vllm.c src/plan.h src/plan_axes.h src/estimate.* | base scenario format
engine    | no  | no  | yes | src/eng_*.c src/eng_prefix.h src/engine.h src/engine_int.h | base scenario format engine
output    | no  | no  | no  | src/report.* src/fwnames.* src/report_fields.* src/rtable.* src/chrome.* src/chrome_fmt.h src/svg.* src/shard.* src/workers.* | base scenario format engine output
csv       | no  | no  | no  | src/csvr.* src/lengths.* | base scenario format csv
lua       | yes | no  | no  | src/lua_sandbox.* src/lua_scenario.* src/lua_helpers.* src/fields_lua.h src/fields_lua.c src/fields_lua_push.c | base scenario format csv lua
plugin    | yes | no  | no  | src/plugin.c src/plugin.h src/plugin_lua.h src/plugin_api.h src/plugin_api.c src/plugin_lesson.c src/lesson.h src/policy.h src/policy_*.c | base scenario format engine output lua plugin
runner    | no  | no  | no  | src/runner.* src/uncert.* src/uncert_table.h | base scenario format engine output lua plugin runner
planner   | no  | no  | no  | src/planner.c src/planner.h src/planner_int.h src/planner_cmd.c src/planner_limits.c src/planner_mem.c src/planner_select.c src/planner_table.c | base scenario format engine output plugin runner planner
calibrate | no  | no  | no  | src/calibrate.c src/calibrate.h src/calibrate_read.c | base scenario format engine output csv runner calibrate
import    | no  | no  | no  | src/import.h src/import_*.c src/import_fw.h src/import_map.h | base scenario format lua import
cli       | no  | no  | no  | src/cli.h src/cli.c src/cli_*.c src/cli_*.h src/main.c | base scenario format engine output lua plugin runner planner calibrate import cli
ui        | no  | yes | no  | ui/*.c ui/*.h | base scenario format engine output plugin runner cli ui
'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fusync-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# FILE GROUP, one a line, and GROUP LUA CURSES ALONE ALLOWED...
: >"$tmp/member"; : >"$tmp/rules"
echo "$GROUPS" | while IFS='|' read -r g lua curses alone files allowed; do
    g=$(echo $g)
    [ -n "$g" ] || continue
    for f in $files; do [ -f "$f" ] && echo "$f $g" >>"$tmp/member"; done
    echo "$g $(echo $lua) $(echo $curses) $(echo $alone) $(echo $allowed)" >>"$tmp/rules"
done

if [ "${1:-}" = --engine-sources ]; then
    awk 'NR == FNR { if ($4 == "yes") alone[$1] = 1; next }
         alone[$2] && $1 ~ /\.c$/ { print $1 }' "$tmp/rules" "$tmp/member" | sort | tr '\n' ' '
    echo
    exit 0
fi

# every include of every file: FILE LINE KIND NAME (KIND q: "quoted", a: <angled>)
for f in src/*.c src/*.h ui/*.c ui/*.h; do
    grep -n '^[[:space:]]*#[[:space:]]*include' "$f" /dev/null |
        sed -E 's/^([^:]*):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1 \2 q \3/;
                s/^([^:]*):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]*)>.*/\1 \2 a \3/'
done >"$tmp/includes"
ls src/*.c src/*.h ui/*.c ui/*.h >"$tmp/files"

awk -v rules="$tmp/rules" -v member="$tmp/member" -v files="$tmp/files" '
BEGIN {
    while ((getline l < rules) > 0) {
        n = split(l, w, " ")
        lua[w[1]] = w[2]; curses[w[1]] = w[3]
        for (i = 5; i <= n; i++) may[w[1], w[i]] = 1
        allowed[w[1]] = ""
        for (i = 5; i <= n; i++) allowed[w[1]] = allowed[w[1]] (i > 5 ? " " : "") w[i]
    }
    while ((getline l < member) > 0) {
        split(l, w, " ")
        if (w[1] in group) { printf "%s: in two groups of scripts/layers.sh (%s, %s)\n", w[1], group[w[1]], w[2]; bad++ }
        group[w[1]] = w[2]
    }
    while ((getline l < files) > 0)
        if (!(l in group)) { printf "%s: in no group of scripts/layers.sh; add it to the group it belongs to\n", l; bad++ }
}
{
    f = $1; line = $2; kind = $3; name = $4; g = group[f]
    if (g == "") next
    if (kind == "a") {
        if (name ~ /^(lua|lauxlib|lualib|luaconf)\.h$/ && lua[g] != "yes") {
            printf "%s:%s: includes <%s>; the %s group knows no Lua\n", f, line, name, g; bad++
        }
        if (name ~ /^(n?curses|term)\.h$|^ncursesw\// && curses[g] != "yes") {
            printf "%s:%s: includes <%s>; the %s group knows no curses\n", f, line, name, g; bad++
        }
        next
    }
    # a quoted include: the header beside the file, else in src/, else in ui/
    dir = f; sub(/\/[^\/]*$/, "", dir)
    h = ""
    if ((dir "/" name) in group) h = dir "/" name
    else if (("src/" name) in group) h = "src/" name
    else if (("ui/" name) in group) h = "ui/" name
    if (h == "") next              # a header outside src/ and ui/ (none today)
    if (!((g, group[h]) in may)) {
        printf "%s:%s: includes \"%s\" of the %s group; the %s group may include only: %s\n",
               f, line, name, group[h], g, allowed[g]
        bad++
    }
}
END { exit bad > 0 }
' "$tmp/includes"
st=$?
if [ $st -eq 0 ]; then
    echo "layers: $(wc -l <"$tmp/files" | tr -d ' ') files in $(wc -l <"$tmp/rules" | tr -d ' ') groups, $(wc -l <"$tmp/includes" | tr -d ' ') includes, every one allowed"
else
    echo "layers: FAIL (the groups and what each may include: scripts/layers.sh)" >&2
fi
exit $st
