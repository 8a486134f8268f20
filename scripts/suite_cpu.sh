#!/usr/bin/env bash
# Where the default suite's CPU goes (docs/running.md, "What the build and the suite cost"): for
# each family of tests (the first part of a test's name: a backend, splitcc, packaging, ...) and,
# with --by-procs, for each processor count (the name's .pN suffix), runs every STRIDE-th test of
# the default suite as scripts/test.sh does (ctest -j4, its environment) and prints the tests run,
# their wall time, the CPU (user + system) of everything they started, CPU per test, and that
# figure times the family's count of tests: an estimate of the family's share of a whole run;
# then the minor page faults per test (thousands) and their estimate for the family: where the
# kernel's work is dear, the faults are much of a run's system time (docs/running.md).
# ctest's own timings (scripts/suite_report.sh) give each test's wall time among three others;
# this gives what the tests cost the machine, which on two cores is what bounds the suite.
# ctest runs a sampled test's fixtures with it (splitcc's and packaging's installs, splitcc's
# builds): they are counted among the tests run and their CPU is scaled with the family's, so
# the estimate of a family with costly fixtures is high.
#   scripts/suite_cpu.sh [--by-procs] [BUILD_DIR] [STRIDE]    (default build, 10)
set -euo pipefail
by_procs=0
if [[ ${1:-} == --by-procs ]]; then by_procs=1; shift; fi
build=${1:-build} stride=${2:-10}
[[ -f $build/CMakeCache.txt ]] || { echo "suite_cpu: no build in $build" >&2; exit 2; }
[[ $stride =~ ^[1-9][0-9]*$ ]] || { echo "suite_cpu: STRIDE must be a positive number" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "suite_cpu: needs GNU time (apt-get install -y time)" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/suite_env.sh"  # the suite's environment, as scripts/test.sh
build=$(cd "$build" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/suite_cpu.XXXXXX")
trap 'rm -rf -- "$scratch"' EXIT

# Regular expressions of the groups, with the count of their tests in the default suite.
names=$scratch/names
ctest --test-dir "$build" -N -LE long | sed -nE 's/^ *Test *#[0-9]+: ([^ ]+).*/\1/p' > "$names"
groups=$scratch/groups
if [[ $by_procs -eq 1 ]]; then
  sed -nE 's/^([^.]+)\..*\.p([0-9]+)$/\1 \2/p' "$names" | sort | uniq -c |
    awk '{ printf "%s.p%s %d ^%s\\..*\\.p%s$\n", $2, $3, $1, $2, $3 }' > "$groups"
else
  sed -E 's/^([^.]+).*/\1/' "$names" | sort | uniq -c |
    awk '{ printf "%s %d ^%s\\.\n", $2, $1, $2 }' > "$groups"
fi

printf "%-16s %6s %6s %8s %8s %9s %10s %9s %10s\n" group tests run "wall s" "CPU s" "CPU/test" \
  "× tests" "kflt/test" "kflt×tests"
while read -r group count regex; do
  times=$scratch/time log=$scratch/log
  /usr/bin/time -o "$times" -f "%e %U %S %R" \
    ctest --test-dir "$build" -j4 -LE long --timeout 300 -R "$regex" -I "1,1000000,$stride" \
    < /dev/null > "$log" 2>&1 ||
    { echo "suite_cpu: failed in $group:" >&2; sed -n '/tests failed out of/,$p' "$log" >&2; }
  ran=$(grep -c ' Test *#' "$log" || true)
  [[ $ran -gt 0 ]] || continue
  read -r wall user sys faults < "$times"
  awk -v g="$group" -v n="$count" -v r="$ran" -v w="$wall" -v u="$user" -v s="$sys" -v f="$faults" \
    'BEGIN { c = u + s; k = f / 1000 / r
             printf "%-16s %6d %6d %8.1f %8.1f %9.2f %10.0f %9.1f %10.0f\n", g, n, r, w, c, c / r,
                    c / r * n, k, k * n }'
done < "$groups" | tee "$scratch/table"
awk '{ s += $7; f += $9 } END { printf "estimated CPU of a whole run: %.0f s, minor faults %.1f M" \
                               " (of the groups above)\n", s, f / 1000 }' \
  "$scratch/table"
