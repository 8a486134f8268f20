#!/usr/bin/env bash
# A compiler and linker launcher that times each call (scripts/build_cost.sh): appends
# "<seconds> <compile|link> <directory> <output>" to $SPLITC_BUILD_TIMES, then exits as the
# tool did. <directory> is the build directory of the target the output belongs to (Ninja runs
# every tool from the top of the build, make from the target's own directory). Compiles go
# through ccache when CCACHE_DISABLE is not set.
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
full=$out
[[ $full == /* ]] || full=$PWD/$out
case $full in
  */CMakeFiles/*) dir=${full%%/CMakeFiles/*} ;;  # an object: the target's directory
  *) dir=${full%/*} ;;                           # an executable or a library
esac
printf '%d.%03d %s %s %s\n' $(((end - start) / 1000000000)) $((((end - start) / 1000000) % 1000)) \
  "$kind" "$dir" "$out" >> "${SPLITC_BUILD_TIMES:?}"
exit $status
