#!/usr/bin/env bash
# DOLIB against Global Arrays, in one run: dolib-bench-smp (splitc smp, caching off and on)
# and ga-bench (NGA_Gather / NGA_Scatter / NGA_Scatter_acc over Open MPI) run alternately,
# ROUNDS times each, on the same index lists (same seeds), for list lengths M and both
# localities. Prints medians (and ranges) side by side with ratios; writes raw.csv,
# summary.csv and plots (gnuplot) into OUT.
#
# This machine's cross-core speed switches between two regimes ("near", ~140 ns cache-line
# round trip, and "far", ~550 ns). Unless --no-probe, each round is placed by splitc-bench's
# cache-line round trip measured just before and just after it (`--only limits`, about 2 s),
# and the table gives every configuration's medians per regime ("near", "far", "mixed" for a
# round whose probes disagree) as well as over all rounds ("all").
#
#   run.sh [--build DIR] [--out DIR] [--procs P] [--rounds R] [--reps K] [--size N]
#          [--lists "M1 M2 ..."] [--localities "0 1"] [--no-probe] [--smoke]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../../../build
out=dolib-bench-results
procs=2 rounds=5 reps=3 size=10000000 lists="1000 10000 100000" localities="0 1" probe=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --lists) lists=$2; shift 2 ;;
    --localities) localities=$2; shift 2 ;;
    --no-probe) probe=0; shift ;;
    --smoke) rounds=1 reps=1 size=100000 lists="1000" probe=0; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/tools/splitc-run
dolib=$build/layers/dolib/bench/dolib-bench-smp
ga=$build/layers/dolib/bench/ga-bench
bench=$build/bench/splitc-bench
mkdir -p "$out"
raw=$out/raw.csv
echo "impl,op,n,m,locality,cache,rep,seconds,regime" > "$raw"
if ((probe)) && [[ ! -x $bench ]]; then
  echo "run.sh: no $bench to place the rounds by cross-core regime: regime unknown" >&2
  probe=0
fi
# The regime now: "near" or "far" by splitc-bench's raw cache-line round trip, "?" without it.
source "$here/../../../bench/regime.sh"
probe_regime() {
  if ((probe)); then regime_now "$run" "$bench"; else echo "?"; fi
}
mpiflags=(--allow-run-as-root -np "$procs" --bind-to core --mca pml ob1 --mca btl self,vader
          --mca osc sm)
have_ga=0
[[ -x $ga ]] && command -v mpirun.openmpi > /dev/null && have_ga=1
((have_ga)) || echo "run.sh: no ga-bench (libglobalarrays-dev not installed?): splitc only" >&2

# Each round runs every configuration once, the three programs one after the other.
round_rows=$out/round.csv
for ((round = 0; round < rounds; ++round)); do
  before=$(probe_regime)
  : > "$round_rows"
  for m in $lists; do
    for loc in $localities; do
      seed=$((1000 * round + 1))
      "$run" -n "$procs" "$dolib" -n "$size" -m "$m" --locality "$loc" -r "$reps" --seed "$seed" >> "$round_rows"
      "$run" -n "$procs" "$dolib" -n "$size" -m "$m" --locality "$loc" -r "$reps" --seed "$seed" --cache >> "$round_rows"
      if ((have_ga)); then
        mpirun.openmpi "${mpiflags[@]}" "$ga" "$size" "$m" "$loc" "$reps" "$seed" >> "$round_rows"
      fi
    done
  done
  after=$(probe_regime)
  regime=$(regime_of "$before" "$after")
  ((probe)) && echo "run.sh: round $((round + 1)) of $rounds: cross-core regime $before before, $after after" >&2
  sed "s/\$/,$regime/" "$round_rows" >> "$raw"
done
rm -f "$round_rows"

# Medians and ranges of the throughput (million items per second over all processors).
summary=$out/summary.csv
# Each sample counts in its round's regime and in "all".
awk -F, -v P="$procs" 'NR > 1 {
    rate = $4 * P / $8 / 1e6
    for (g = 1; g <= 2; g++) {
      key = $2 "," $4 "," $5 "," (g == 1 ? "all" : $9) "," $1 "," $6
      n[key]++; v[key, n[key]] = rate
    }
  }
  END {
    print "op,m,locality,regime,impl,cache,median_mitems_s,min,max,samples"
    for (k in n) {
      c = n[k]
      for (i = 1; i <= c; i++) a[i] = v[k, i]
      for (i = 2; i <= c; i++) { x = a[i]; j = i - 1; while (j > 0 && a[j] > x) { a[j + 1] = a[j]; j-- } a[j + 1] = x }
      med = (c % 2) ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
      printf "%s,%.3f,%.3f,%.3f,%d\n", k, med, a[1], a[c], c
    }
  }' "$raw" | (read -r header; echo "$header"; sort -t, -k1,1 -k3,3n -k2,2n -k4,4 -k5,5 -k6,6) > "$summary"

echo "DOLIB on splitc smp vs Global Arrays (Open MPI), P=$procs, n=$size, $rounds rounds x $reps reps"
echo "throughput in million items/s (median [min..max] samples); ratio = dolib / GA; cache = on / off"
echo "regime: the rounds' cross-core regime (near, far, mixed: it changed during the round; ?: not probed)"
awk -F, 'NR > 1 {
    k = $1 "," $2 "," $3 "," $4
    if (!(k in keys)) { keys[k] = 1; order[++n] = k }
    val[k, $5, $6] = $7; rng[k, $5, $6] = sprintf("%.1f [%.1f..%.1f] %d", $7, $8, $9, $10)
  }
  END {
    printf "%-8s %7s %4s %-6s  %-25s %-25s %-25s %8s %8s\n", "op", "m", "loc", "regime",
           "dolib cache off", "dolib cache on", "GA", "off/GA", "on/off"
    for (i = 1; i <= n; i++) {
      k = order[i]; split(k, f, ",")
      off = val[k, "dolib", "off"]; on = val[k, "dolib", "on"]; g = val[k, "ga", "off"]
      printf "%-8s %7s %4s %-6s  %-25s %-25s %-25s %8s %8s\n", f[1], f[2], f[3], f[4],
             rng[k, "dolib", "off"], (on == "" ? "-" : rng[k, "dolib", "on"]),
             (g == "" ? "-" : rng[k, "ga", "off"]),
             (g == "" || off == "" ? "-" : sprintf("%.2f", off / g)),
             (on == "" || off == "" ? "-" : sprintf("%.2f", on / off))
    }
  }' "$summary" | tee "$out/table.txt"

# Plots: throughput against list length, one per operation and locality.
if command -v gnuplot > /dev/null; then
  for op in gather scatter axpby; do
    for loc in 0 1; do
      for series in "dolib off" "dolib on" "ga off"; do
        set -- $series
        awk -F, -v op="$op" -v loc="$loc" -v impl="$1" -v cache="$2" \
          'NR > 1 && $1 == op && $3 == loc && $4 == "all" && $5 == impl && $6 == cache { print $2, $7, $8, $9 }' \
          "$summary" | sort -n > "$out/$op-$loc-$1-$2.dat"
      done
      plot=""
      for series in "dolib-off:DOLIB on splitc, cache off" "dolib-on:DOLIB on splitc, cache on" \
                    "ga-off:Global Arrays NGA_*"; do
        f=$out/$op-$loc-${series%%:*}.dat
        [[ -s $f ]] && plot+="${plot:+, }'$f' using 1:2:3:4 with yerrorlines title '${series#*:}'"
      done
      [[ -z $plot ]] && continue
      where=$([[ $loc == 0 ]] && echo "uniform random indices" || echo "indices in the caller share")
      gnuplot <<GP
set terminal pngcairo size 800,500 noenhanced
set output '$out/$op-locality$loc.png'
set title '$op: $procs processors, $size doubles, $where'
set logscale xy
set xlabel 'list length per processor'
set ylabel 'million items per second (all processors)'
set key left top
plot $plot
GP
    done
  done
fi
echo "run.sh: raw.csv, summary.csv, table.txt and plots in $out"
