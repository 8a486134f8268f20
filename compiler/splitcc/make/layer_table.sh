#!/usr/bin/env bash
# The MPL table from its one source (message_layers.txt beside this script),
# written into the two places that show it: Make.split-c (the name:backend map
# and the comment table) and docs/splitcc.md (the markdown table). Each is the
# text between the lines "@mpl-table-begin@" and "@mpl-table-end@".
#   layer_table.sh --write ROOT    rewrite both
#   layer_table.sh --check ROOT    fail, showing the difference, if either is stale
set -euo pipefail
mode=${1:-} root=${2:-}
[[ ($mode == --write || $mode == --check) && -d $root ]] ||
  { echo "usage: layer_table.sh --write|--check SOURCE_ROOT" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rows=$(grep -vE '^[[:space:]]*(#|$)' "$here/message_layers.txt")

make_block() {
  echo "# MPL names a splitc backend (smp, udp, mpi, cmaml, ...) or a historical layer:"
  while read -r name backend what; do
    printf '#   %-8s -> %-6s %s\n' "$name" "$backend" "$what"
  done <<<"$rows"
  printf 'splitc_mpl_map :='
  while read -r name backend _; do printf ' %s:%s' "$name" "$backend"; done <<<"$rows"
  echo
}
doc_block() {
  echo "| MPL | backend | the machine and layer of the time |"
  echo "| --- | --- | --- |"
  while read -r name backend what; do
    echo "| \`$name\` | \`$backend\` | $what |"
  done <<<"$rows"
}

# replace FILE BLOCK: FILE with the lines between the markers replaced by BLOCK.
replace() {
  awk -v block="$2" '
    /@mpl-table-begin@/ { print; print block; skip = 1; found = 1; next }
    /@mpl-table-end@/ { skip = 0 }
    !skip { print }
    END { if (!found) exit 3 }' "$1"
}

status=0
for pair in "compiler/splitcc/make/Make.split-c:make_block" "docs/splitcc.md:doc_block"; do
  file=$root/${pair%%:*}
  new=$(replace "$file" "$(${pair##*:})") || { echo "layer_table: no @mpl-table-begin@ in $file" >&2; exit 1; }
  if [[ $mode == --write ]]; then
    printf '%s\n' "$new" >"$file"
  elif ! diff -u "$file" <(printf '%s\n' "$new"); then
    echo "layer_table: $file disagrees with message_layers.txt (run $0 --write $root)" >&2
    status=1
  fi
done
exit $status
