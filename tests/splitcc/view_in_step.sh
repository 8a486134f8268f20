#!/usr/bin/env bash
# splitcc's parse reads split-c/splitcc-view.h in place of the C interface's
# headers (docs/splitcc.md, "Interface view"), so the view must say what
# splitc.h and split-c/splitcc-runtime.h say. This checks both directions:
#   1. every declaration of the view, its `T *global` and `T *spread` read as
#      __globPtrType (what they are in C), compiles after the real headers: C
#      refuses a function declared again with other types;
#   2. every function the real headers declare is in the view, but for those
#      only the translation's output calls (listed below, with the reason).
#   view_in_step.sh CC INCLUDE_DIR
set -euo pipefail
cc=$1 inc=$2
view=$inc/split-c/splitcc-view.h
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{
  echo '#include <split-c/split-c.h>'
  echo '#line 1 "split-c/splitcc-view.h (global and spread pointers as __globPtrType)"'
  # (the view's types are the headers' own: blanked, so that lines keep their numbers)
  sed -E -e '/^(typedef|struct|extern struct)/s/.*//' \
      -e 's/[A-Za-z_][A-Za-z0-9_ ]*\*[[:space:]]*(global|spread)\b/__globPtrType/g' "$view"
} > "$work/view.c"
if ! "$cc" -std=gnu11 -fsyntax-only -Werror -I"$inc" "$work/view.c"; then
  echo "view_in_step: split-c/splitcc-view.h disagrees with splitc.h (above)" >&2
  exit 1
fi

# Called by the generated C, never by a Split-C program: not in the view.
only_generated='splitc_main splitc_get_seconds splitc_per_processor_first splitc_spread_add
  splitc_spread_diff splitc_read_bytes splitc_write_bytes splitc_get_bytes splitc_put_bytes
  splitc_store_bytes splitcc_add_initializer splitcc_run_initializers'
missing=()
for header in "$inc/splitc.h" "$inc/split-c/splitcc-runtime.h"; do
  # Declarations at the start of a line (the function families are macros:
  # step 1 checks the view's copies of them).
  while read -r name; do
    [[ " $(echo $only_generated) " == *" $name "* ]] && continue
    grep -qE "\\b$name\\(" "$view" || missing+=("$name")
  done < <(grep -E '^[A-Za-z_][A-Za-z0-9_ *]*\b[A-Za-z_][A-Za-z0-9_]*\(' "$header" |
           grep -vE '^(static|typedef|#)' |
           sed -E 's/^[^(]*\b([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u)
done
if ((${#missing[@]})); then
  echo "view_in_step: declared by the C interface but not in split-c/splitcc-view.h: ${missing[*]}" >&2
  echo "  (add each to the view, or, if only generated code calls it, to only_generated here)" >&2
  exit 1
fi
echo "view_in_step: split-c/splitcc-view.h agrees with splitc.h and split-c/splitcc-runtime.h"
