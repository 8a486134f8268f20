#!/usr/bin/env bash
# The functions each object of every backend's library defines and calls, one file per object,
# to tell whether a build change altered what any call binds to: a precompiled header (tried
# for the libraries and taken back, docs/running.md) declares its names in every source, and
# an unqualified call inside namespace splitc may then bind to splitc's function of that name
# instead of the system's or the layer's. Run it before and after the change, then
# `diff -r BEFORE AFTER`: every difference needs a reason.
#   scripts/library_symbols.sh OUT [BUILD_DIR]    (default build)
set -euo pipefail
[[ $# -ge 1 ]] || { echo "usage: scripts/library_symbols.sh OUT [BUILD_DIR]" >&2; exit 2; }
out=$1 build=${2:-build}
[[ -f $build/CMakeCache.txt ]] || { echo "library_symbols: no build in $build" >&2; exit 2; }
rm -rf -- "$out"
mkdir -p -- "$out"
count=0
# A backend's library target is splitc-<name>; its object directory is the one that holds the
# core's runtime.cpp.o (the build lists its backends nowhere this script can read simply).
while IFS= read -r dir; do
  lib=$(basename "$dir" .dir)
  while IFS= read -r object; do
    rel=${object#"$dir"/}
    mkdir -p -- "$out/$lib"
    {
      echo "## calls (undefined)"
      nm -u "$object" | awk '{ print $NF }' | sort -u
      echo "## defines (functions)"
      nm --defined-only "$object" | awk '$2 ~ /^[TtWw]$/ { print $2, $3 }' | sort -u
    } > "$out/$lib/${rel//\//_}.txt"
    count=$((count + 1))
  done < <(find "$dir" -name '*.o' | sort)
done < <(find "$build" -type f -path '*/CMakeFiles/splitc-*.dir/*' -name 'runtime.cpp.o' |
           sed -E 's|(/CMakeFiles/splitc-[^/]*\.dir)/.*|\1|' | sort -u)
echo "library_symbols: $count objects in $out"
