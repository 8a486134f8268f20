#!/usr/bin/env bash
# What a build from nothing costs, by part (docs/running.md, "What the build and the suite
# cost"): configures a scratch build directory with every compile and link timed
# (scripts/timed_tool.sh) and ccache off, as scripts/build.sh configures it (Ninja, line
# tables only), builds it with two jobs, and prints the wall time and the seconds of
# compiling and linking spent on each part of the tree. Run it on a quiet machine.
#   scripts/build_cost.sh [BUILD_DIR]       (default build-cost; removed first)
#   scripts/build_cost.sh --report TIMES    only the summary of an earlier run's times file
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

summarise() {  # summarise TIMES_FILE
  awk '
    function part(dir, out) {
      if (out ~ /splitc-tests-/) return "test programs (one driver per backend)"
      if (out ~ /CMakeFiles\/splitc-[a-z0-9_]+\.dir\/__\/__\/(src|splitc-unity)\//) return "core, compiled per backend"
      if (dir ~ /\/bench$/ || out ~ /splitc-bench/) return "benchmarks (splitc-bench, the backends'\'' and DOLIB'\''s)"
      if (dir ~ /\/compiler\//) return "splitcc"
      if (dir ~ /\/emulations\//) return "emulations"
      if (dir ~ /\/layers\//) return "layers (DOLIB, ACL, MPI: per backend)"
      if (dir ~ /\/(backends|ports)\/[a-z0-9_]+$/) return "backends'\'' own sources"
      if (dir ~ /\/tests\/unit$/) return "unit tests"
      if (dir ~ /\/tools$/) return "launchers (tools)"
      if (dir ~ /\/examples$/) return "examples"
      return "other tests (C interface, backends'\'' own, docs)"
    }
    { p = part($3, $4); t[p, $2] += $1; n[p, $2]++; parts[p] = 1; total[$2] += $1 }
    END {
      for (p in parts)
        printf "%.0f\t%-58s %10.0f %6d %10.0f %6d\n", t[p, "compile"] + t[p, "link"], p,
               t[p, "compile"], n[p, "compile"], t[p, "link"], n[p, "link"]
    }' "$1" | sort -rn | cut -f2- | {
    printf "%-58s %10s %6s %10s %6s\n" "part" "compile s" "files" "link s" "links"
    cat
  }
  awk '{ total[$2] += $1 } END { printf "%-58s %10.0f %6s %10.0f\n", "all (seconds of one core)",
        total["compile"], "", total["link"] }' "$1"
}

if [[ ${1:-} == --report ]]; then
  summarise "$2"
  exit 0
fi
dir=${1:-build-cost}
rm -rf -- "$dir"
[[ $dir == /* ]] || dir=$PWD/$dir
times=$dir.times
: > "$times"
export SPLITC_BUILD_TIMES=$times CCACHE_DISABLE=1
tool=$PWD/scripts/timed_tool.sh
start=$(date +%s)
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPLITC_DEBUG_INFO=lines \
      "-DCMAKE_C_COMPILER_LAUNCHER=$tool;compile" "-DCMAKE_CXX_COMPILER_LAUNCHER=$tool;compile" \
      "-DCMAKE_C_LINKER_LAUNCHER=$tool;link" "-DCMAKE_CXX_LINKER_LAUNCHER=$tool;link" >/dev/null
configured=$(date +%s)
cmake --build "$dir" -j2 >/dev/null
end=$(date +%s)
echo "configure $((configured - start)) s, build $((end - configured)) s (two jobs); times in $times"
summarise "$times"
