#!/usr/bin/env bash
# How the sim's host time and memory grow with P (docs/sim.md, "Scaling"): for each P, the
# wall time, CPU time and peak resident memory of
#   - the collectives benchmark: splitc-run-sim -n P splitc-bench-sim --quick --only collectives
#     --max-size 4096 (as bench/sim_collectives.sh runs it), and
#   - the collectives test program: splitc-run-sim -n P splitc-tests/tp_collectives_sim 20
#     (ctest's sim.collectives.p1024 at P = 1024),
# then the growth of the wall time per x4 in P and the peak memory per virtual processor.
#
#   bench/sim_scaling.sh BUILD_DIR [OUT_FILE] [P...]      # default P: 64 256 1024 4096
#   SPLITC_SIM_SCALING_ONLY=bench bench/sim_scaling.sh build   # or =test: one of the two
#
# Host time, not virtual: it measures the simulator, and moves with the machine's load (run it
# alone). Exit status 2 when a job fails.
set -euo pipefail

build=${1:?usage: sim_scaling.sh BUILD_DIR [OUT_FILE] [P...]}
out=${2:-sim-scaling.dat}
shift $(( $# >= 2 ? 2 : 1 ))
procs=("$@")
(( ${#procs[@]} > 0 )) || procs=(64 256 1024 4096)
only=${SPLITC_SIM_SCALING_ONLY:-}
run="$build/tools/splitc-run-sim"
bench="$build/bench/splitc-bench-sim"
test_program="$build/splitc-tests/tp_collectives_sim"
for f in "$run" "$bench" "$test_program"; do
  [[ -x $f ]] || { echo "sim_scaling.sh: $f not built" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME P COMMAND...: one line "NAME P wall_s user_s sys_s max_rss_kb".
measure() {
  local name=$1 p=$2
  shift 2
  if ! /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" > "$tmp/out" 2>&1; then
    echo "sim_scaling.sh: $name at P = $p failed:" >&2
    tail -5 "$tmp/out" >&2
    exit 2
  fi
  echo "$name $p $(cat "$tmp/time")"
}

{
  echo "# sim host time and memory against P ($(date -u +%FT%TZ), $(nproc) cores): program P wall_s user_s sys_s max_rss_kb"
  for p in "${procs[@]}"; do
    if [[ $only != test ]]; then
      measure bench "$p" "$run" -n "$p" "$bench" --quick --only collectives --max-size 4096 \
        --no-plots --no-progress --out "$tmp/bench$p"
    fi
    if [[ $only != bench ]]; then
      measure test "$p" "$run" -n "$p" "$test_program" 20
    fi
  done
} | tee "$out"

# Growth per x4 in P and memory per processor, from the lines above.
awk '
  /^#/ { next }
  { wall[$1, $2] = $3; rss[$1, $2] = $6; if (!seen[$1]++) names[++n] = $1; ps[$1] = ps[$1] " " $2 }
  END {
    printf "%-6s %6s %10s %12s %16s\n", "", "P", "wall s", "x per x4 P", "peak KiB per P"
    for (i = 1; i <= n; i++) {
      k = split(ps[names[i]], list, " ")
      for (j = 1; j <= k; j++) {
        p = list[j]; g = "-"
        if ((names[i], p / 4) in wall && wall[names[i], p / 4] > 0)
          g = sprintf("%.1f", wall[names[i], p] / wall[names[i], p / 4])
        printf "%-6s %6d %10.2f %12s %16.1f\n", names[i], p, wall[names[i], p], g, rss[names[i], p] / p
      }
    }
  }' "$out"
