#!/bin/sh
# scripts/gen-docs.sh — regenerate the field tables of docs/scenarios.md and
# docs/cli.md from the one description of each format (src/fields.c,
# src/report_fields.c), through `fusync fields
# TABLE --markdown`.  Each table sits between `<!-- fields TABLE -->` and
# `<!-- /fields -->`; everything else in the file is left as it is.
# `make docs` runs this; `make test` fails when the tables are stale.
set -eu
F=${FUSYNC:?set FUSYNC to the fusync binary}
cd "$(dirname "$0")/.."
for doc in docs/scenarios.md docs/cli.md; do
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
    "<!-- /fields -->")
        printf '%s\n' "$line"
        inblock=0 ;;
    *)
        [ $inblock -eq 1 ] || printf '%s\n' "$line" ;;
    esac
done <"$doc" >"$tmp"
mv "$tmp" "$doc"
trap - EXIT INT TERM
echo "gen-docs: $doc tables regenerated"
done
