#!/bin/sh
# scripts/gen-docs.sh [--check] — regenerate the tables the docs copy from
# the program's own tables:
#   - docs/scenarios.md and docs/cli.md: the field tables (src/fields.c,
#     src/report_fields.c), between `<!-- fields TABLE -->` and
#     `<!-- /fields -->`, from `fusync fields TABLE --markdown`;
#   - docs/cli.md: the command and option lists (src/cli_table.c), between
#     `<!-- cli PART -->` and `<!-- /cli -->`, from
#     `fusync help --markdown PART` (PART: commands, options);
#   - docs/fusync.1: the synopsis, commands and options, between
#     `.\" cli PART` and `.\" /cli`, from `fusync help --man PART`.
# Everything else in the files is left as it is.  `make docs` runs this;
# with --check nothing is written and the status is 1 when a file is stale
# (tests/help.sh runs that, so `make test` fails on stale docs).
set -eu
F=${FUSYNC:?set FUSYNC to the fusync binary}
check=0
[ "${1:-}" = --check ] && check=1
cd "$(dirname "$0")/.."
stale=0
for doc in docs/scenarios.md docs/cli.md docs/fusync.1; do
tmp=$(mktemp "$doc.XXXXXX")
trap 'rm -f "$tmp"' EXIT INT TERM
inblock=0
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    "<!-- fields "*" -->")
        printf '%s\n' "$line"
        table=${line#"<!-- fields "}
        table=${table%" -->"}
        "$F" fields "$table" --markdown
        inblock=1 ;;
    "<!-- cli "*" -->")
        printf '%s\n' "$line"
        part=${line#"<!-- cli "}
        part=${part%" -->"}
        "$F" help --markdown "$part"
        inblock=1 ;;
    '.\" cli '*)
        printf '%s\n' "$line"
        "$F" help --man "${line#'.\" cli '}"
        inblock=1 ;;
    "<!-- /fields -->"|"<!-- /cli -->"|'.\" /cli')
        printf '%s\n' "$line"
        inblock=0 ;;
    *)
        [ $inblock -eq 1 ] || printf '%s\n' "$line" ;;
    esac
done <"$doc" >"$tmp"
if [ $check -eq 1 ]; then
    if ! cmp -s "$doc" "$tmp"; then
        echo "gen-docs: $doc is not what the program's tables say; run 'make docs':" >&2
        diff "$doc" "$tmp" | head -20 >&2 || true
        stale=1
    fi
    rm -f "$tmp"
else
    mv "$tmp" "$doc"
    echo "gen-docs: $doc tables regenerated"
fi
trap - EXIT INT TERM
done
exit $stale
