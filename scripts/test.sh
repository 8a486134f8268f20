#!/usr/bin/env bash
# Install what is missing, build, and run the test suite (what CI runs: under 30 minutes on
# two cores).
#
#   scripts/test.sh          the whole suite once, every feature on every backend, but for the
#                            tests labelled "long" (sim's teams and split-phase collectives at P = 1024, the windowed
#                            OSU bandwidth programs on cmaml)
#   scripts/test.sh --full   the long matrix (scripts/build.sh --full: DOLIB and splitcc's programs
#                            on every seed-machine port, the ports on MPICH too), the long tests,
#                            the whole suite up to 3 times per test (until it
#                            fails), then the sanitizers: scripts/sanitize.sh (ASan+UBSan and
#                            TSan on a chosen subset, ~6 min) and scripts/sanitize.sh --full
#                            (every test under each sanitizer): hours
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
full=0
case ${1:-} in
  --full) full=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--full]" >&2; exit 2 ;;
esac
# The suite's environment (malloc in huge pages, hwloc without its PCI reads; a user's own
# settings win): scripts/suite_env.sh.
source scripts/suite_env.sh
if [[ $full -eq 1 ]]; then scripts/build.sh --full; else scripts/build.sh; fi
status=0
# ctest, then each failed test's output again right after it (in the default run, the log's
# very end): ctest printed it among thousands of other lines, and a CI log is often read from
# its last lines only. (ctest leaves the list of an earlier run's failures in place when none
# fails: it is removed first.)
run_ctest() {
  rm -f build/Testing/Temporary/LastTestsFailed.log
  ctest --test-dir build --output-on-failure "$@" && return 0
  status=1
  show_failures
}
show_failures() {
  local failed=build/Testing/Temporary/LastTestsFailed.log
  [[ -s $failed ]] || return 0
  echo "=== the end of each failed test's output (build/Testing/Temporary/LastTest.log) ==="
  cut -d: -f2- "$failed" | while read -r name; do
    echo "--- $name"
    awk -v name="$name" '
      $0 ~ /^[0-9]+\/[0-9]+ Test: / && $3 == name { mine = 1; next }
      mine && /^Output:$/ { getline; out = 1; next }
      mine && out && /^<end of output>$/ { exit }
      mine && out { print }' build/Testing/Temporary/LastTest.log | tail -n 12 || true
  done
}
# Four tests at a time on two cores: most of a test's time is a job starting, waiting or
# sleeping, so two at a time left a quarter of the cores idle (docs/running.md: 808 s at -j2,
# 652-730 s at -j3, 562-586 s at -j4, every test passing; the tests are written to pass
# oversubscribed).
jobs=4
if [[ $full -eq 1 ]]; then
  run_ctest -j2 -L long
  run_ctest -j$jobs --timeout 300 --repeat until-fail:3 -LE long
  scripts/sanitize.sh || status=1
  scripts/sanitize.sh --full || status=1
else
  run_ctest -j$jobs --timeout 300 -LE long
fi
exit $status
