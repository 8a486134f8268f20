#!/usr/bin/env bash
# The documentation's backend tables, written from the backends' declarations (each port's
# splitc_add_backend calls: name, port, layer, substrate, seed machine, launch, historical
# names), which configuring writes to <build>/splitc-backends.tsv. Each table is the text
# between a line holding "@backend-table:<table>@" and the next line holding
# "@backend-table-end@", in:
#   README.md                             backends  a row per backend
#   PORTING.md, docs/architecture.md      ports     a row per port directory
#   compiler/splitcc/make/Make.split-c    mpl-make  Make.split-c's historical MPL names
#   docs/splitcc.md                       mpl       the same, as markdown
#
#   doc_tables.sh --write DECLARATIONS SOURCE_ROOT   rewrite every table
#   doc_tables.sh --check DECLARATIONS SOURCE_ROOT   fail, showing the difference, when one
#                                                    disagrees (exit 77, skipped, when this
#                                                    build lacks a substrate or a port)
# The test docs.backend_tables runs --check; the target update-doc-tables runs --write.
set -euo pipefail
mode=${1:-} declarations=${2:-} root=${3:-}
[[ ($mode == --write || $mode == --check) && -f $declarations && -d $root ]] ||
  { echo "usage: doc_tables.sh --write|--check DECLARATIONS SOURCE_ROOT" >&2; exit 2; }

# The records: name port role substrate layer seed launch mpl_names (tab-separated, read with
# a separator that is not white space, so that empty fields stay fields); the
# tables show the default build's backends and the template, not the test vehicles nor the
# long matrix's extra variants.
records=$(grep -v '^#' "$declarations" | awk -F'\t' '$3 == "backend" || $3 == "template"')
complete=$(sed -n 's/^# complete: //p' "$declarations")

substrate_text() {
  case $1 in
    processes) echo "processes of this host" ;;
    openmpi) echo "Open MPI" ;;
    mpich) echo "MPICH" ;;
    oshmem) echo "OpenSHMEM (Open MPI's oshmem)" ;;
    sim) echo "the sim engine" ;;
    *) echo "$1" ;;
  esac
}

backends_table() {
  echo "| backend | port | seed machine | layer | runs on | launch |"
  echo "| --- | --- | --- | --- | --- | --- |"
  while IFS=$'\037' read -r name port role substrate layer seed launch _; do
    [[ -n $seed ]] || seed="—"
    echo "| \`splitc::$name\` | [ports/$port](ports/$port/README.md) | $seed | $layer |" \
         "$(substrate_text "$substrate") | \`$launch\` |"
  done < <(tr '\t' '\037' <<<"$records")
}

# ports_table LINK_PREFIX: a row per port directory, in the order the ports are declared.
ports_table() {
  local prefix=${1:-}
  echo "| port | backends | seed machine | layers | runs on |"
  echo "| --- | --- | --- | --- | --- |"
  awk -F'\t' -v prefix="$prefix" '
    function text(s) {
      if (s == "processes") return "processes of this host"
      if (s == "openmpi") return "Open MPI"
      if (s == "mpich") return "MPICH"
      if (s == "oshmem") return "OpenSHMEM"
      if (s == "sim") return "the sim engine"
      return s
    }
    function add(list, item) { return index(", " list ", ", ", " item ", ") ? list : (list == "" ? item : list ", " item) }
    {
      if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
      names[$2] = add(names[$2], "`" $1 "`")
      seeds[$2] = ($6 == "") ? seeds[$2] : add(seeds[$2], $6)
      layers[$2] = add(layers[$2], $5)
      subs[$2] = add(subs[$2], text($4))
    }
    END {
      for (i = 1; i <= n; i++) {
        p = order[i]
        printf "| [%sports/%s](%sports/%s/README.md) | %s | %s | %s | %s |\n", "", p, prefix, p,
               names[p], (seeds[p] == "" ? "—" : seeds[p]), layers[p], subs[p]
      }
    }' <<<"$records"
}

# The historical names: NAME backend what, in the declarations' order.
mpl_rows() {
  while IFS=$'\037' read -r name _ _ _ _ _ _ mpl; do
    [[ -n $mpl ]] || continue
    tr ',' '\n' <<<"${mpl//, /__COMMA__}" | while IFS='=' read -r old what; do
      printf '%s\t%s\t%s\n' "$old" "$name" "${what//__COMMA__/, }"
    done
  done < <(tr '\t' '\037' <<<"$records")
}
mpl_make() {
  echo "# MPL names a splitc backend (smp, udp, mpi, cmaml, ...) or a historical layer:"
  while IFS=$'\t' read -r old backend what; do
    printf '#   %-8s -> %-6s %s\n' "$old" "$backend" "$what"
  done < <(mpl_rows)
  printf 'splitc_mpl_map :='
  while IFS=$'\t' read -r old backend _; do printf ' %s:%s' "$old" "$backend"; done < <(mpl_rows)
  echo
}
mpl_doc() {
  echo "| MPL | backend | the machine and layer of the time |"
  echo "| --- | --- | --- |"
  while IFS=$'\t' read -r old backend what; do
    echo "| \`$old\` | \`$backend\` | $what |"
  done < <(mpl_rows)
}

# replace FILE TABLE BLOCK: FILE with the lines of TABLE's block replaced by BLOCK.
replace() {
  awk -v table="$2" -v block="$3" '
    index($0, "@backend-table:" table "@") { print; print block; skip = 1; found = 1; next }
    skip && index($0, "@backend-table-end@") { skip = 0 }
    !skip { print }
    END { if (!found) exit 3 }' "$1"
}

status=0
for entry in "README.md backends backends_table" \
             "PORTING.md ports ports_table" \
             "docs/architecture.md ports ports_table ../" \
             "compiler/splitcc/make/Make.split-c mpl-make mpl_make" \
             "docs/splitcc.md mpl mpl_doc"; do
  read -r file table generator argument <<<"$entry"
  path=$root/$file
  new=$(replace "$path" "$table" "$($generator ${argument:-})") ||
    { echo "doc_tables: no @backend-table:$table@ in $file" >&2; exit 1; }
  if [[ $mode == --write ]]; then
    printf '%s\n' "$new" >"$path"
  elif ! diff -u "$path" <(printf '%s\n' "$new") >/tmp/doc_tables.$$ 2>&1; then
    if [[ $complete != yes ]]; then
      echo "doc_tables: $file differs, but this build lacks some backends ($complete): skipped"
      rm -f /tmp/doc_tables.$$
      exit 77
    fi
    cat /tmp/doc_tables.$$
    echo "doc_tables: $file disagrees with the backends' declarations" \
         "(run scripts/doc_tables.sh --write $declarations $root, or build update-doc-tables)" >&2
    status=1
  fi
  rm -f /tmp/doc_tables.$$
done
[[ $status -ne 0 ]] || echo "doc_tables: every backend table agrees with the declarations"
exit $status
