#!/usr/bin/env bash
# What the build and the suite cost (docs/running.md, "What the build and the suite cost"):
# the default suite's cases (ctest -N -LE long: one test is one feature on one backend at one
# processor count, or one check of the tools), the build directory's bytes by part, the
# executables in it, and the slowest tests of the last ctest run (ctest's cost data: the mean
# time of each test over the runs it has seen).
#   scripts/suite_report.sh [BUILD_DIR] [N]    (default build, 20)
set -euo pipefail
build=${1:-build} n=${2:-20}
[[ -f $build/CMakeCache.txt ]] || { echo "suite_report: no build in $build" >&2; exit 2; }
cases=$(ctest --test-dir "$build" -N -LE long | grep -c ' Test *#' || true)
echo "tests of the default suite (ctest -N -LE long): $cases"
echo "by backend or family (the first part of each name):"
ctest --test-dir "$build" -N -LE long | sed -nE 's/^ *Test *#[0-9]+: ([^. ]+).*/\1/p' | sort | uniq -c |
  sort -rn | awk '{ printf "  %-14s %5d\n", $2, $1 }'
echo
echo "build directory: $(du -sh "$build" | cut -f1) in all; by part:"
du -s --block-size=1M "$build"/*/ | sort -rn | awk '{ printf "  %8d MB  %s\n", $1, $2 }'
echo "executables: $(find "$build" -type f -perm -u+x -name '*' ! -name '*.sh' ! -name '*.a' | wc -l)"
echo
costs=$build/Testing/Temporary/CTestCostData.txt
if [[ -f $costs ]]; then
  echo "the $n slowest tests (mean seconds over the runs ctest has seen):"
  awk 'NF == 3 { printf "%9.2f  %s\n", $3, $1 }' "$costs" | sort -rn | head -n "$n"
  awk 'NF == 3 { s += $3 } END { printf "sum of the tests'"'"' mean times: %.0f s\n", s }' "$costs"
fi
