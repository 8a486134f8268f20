#!/usr/bin/env bash
# A compiler and linker launcher that times each call (scripts/build_cost.sh): appends
# "<seconds> <compile|link> <directory> <output>" to $SPLITC_BUILD_TIMES, then exits as the
# tool did. Compiles go through ccache when CCACHE_DISABLE is not set.
#   timed_tool.sh compile|link TOOL ARGS...
kind=$1
shift
start=$(date +%s%N)
out="" prev=""
for a in "$@"; do
  [[ $prev == -o ]] && out=$a
  prev=$a
done
if [[ $kind == compile ]] && command -v ccache >/dev/null; then
  ccache "$@"
else
  "$@"
fi
status=$?
end=$(date +%s%N)
printf '%d.%03d %s %s %s\n' $(((end - start) / 1000000000)) $((((end - start) / 1000000) % 1000)) \
  "$kind" "$PWD" "$out" >> "${SPLITC_BUILD_TIMES:?}"
exit $status
