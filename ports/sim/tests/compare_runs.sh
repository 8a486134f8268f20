#!/usr/bin/env bash
# sim determinism (ctest): run PROGRAM twice with one seed in deterministic
# mode and require identical output and identical delivery traces; then run it
# with SEEDS other seeds and require that they all pass and that more than one
# arrival order appears (the seed does steer the interleaving).
#   compare_runs.sh LAUNCHER PROCS SEEDS PROGRAM [ARGS...]
set -euo pipefail
launcher=$1 procs=$2 seeds=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SPLITC_SIM_SEED=7 SPLITC_SIM_TRACE="$work/a.trace" "$launcher" -n "$procs" "${@}" > "$work/a.out"
SPLITC_SIM_SEED=7 SPLITC_SIM_TRACE="$work/b.trace" "$launcher" -n "$procs" "${@}" > "$work/b.out"
cmp "$work/a.out" "$work/b.out" || { echo "same seed, different output"; diff "$work/a.out" "$work/b.out"; exit 1; }
cmp "$work/a.trace" "$work/b.trace" || { echo "same seed, different message order"; exit 1; }
[[ -s "$work/a.trace" ]] || { echo "empty trace"; exit 1; }
grep -q "^PASS" "$work/a.out" || { echo "no PASS line"; cat "$work/a.out"; exit 1; }
echo "seed 7 twice: identical output and trace ($(wc -l < "$work/a.trace") deliveries)"
for ((s = 1; s <= seeds; ++s)); do
  SPLITC_SIM_SEED=$s "$launcher" -n "$procs" "$@" > "$work/s$s.out" \
    || { echo "seed $s failed"; cat "$work/s$s.out"; exit 1; }
  grep -q "^PASS" "$work/s$s.out" || { echo "seed $s: no PASS line"; exit 1; }
done
orders=$(cat "$work"/s*.out | grep "^order" | sort -u | wc -l)
echo "$seeds seeds: all passed, $orders different arrival orders"
[[ $orders -gt 1 ]] || { echo "every seed gave the same order: the seed does not steer the schedule"; exit 1; }
