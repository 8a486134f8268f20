#!/usr/bin/env bash
# The collectives on the sim at P = 2, 4, 8, ..., 1024 in virtual time: one
# job `splitc-run-sim -n P splitc-bench-sim --only collectives` per P, then a
# table (collectives.dat, also printed) and a plot of time against log2 P
# (collectives.png/.svg with gnuplot), and the check "a barrier at the largest
# P takes at most 1.5 x log2(P) x the barrier at P = 2" (docs/sim.md).
#
#   bench/sim_collectives.sh BUILD_DIR [OUT_DIR] [MAX_P]
#   SPLITC_SIM_MACHINE=cm5 bench/sim_collectives.sh build    # another machine (default host)
#
# Exit status: 0 when the barrier bar holds, 1 when it does not, 2 on a failed job.
set -euo pipefail

build=${1:?usage: sim_collectives.sh BUILD_DIR [OUT_DIR] [MAX_P]}
out=${2:-sim-collectives}
max_p=${3:-1024}
machine=${SPLITC_SIM_MACHINE:-host}
run="$build/tools/splitc-run-sim"
bench="$build/bench/splitc-bench-sim"
for f in "$run" "$bench"; do
  [[ -x $f ]] || { echo "sim_collectives.sh: $f not built (cmake --build $build --target $(basename "$f"))" >&2; exit 2; }
done
mkdir -p "$out"
dat="$out/collectives.dat"
ops=(barrier broadcast_int reduce_to_one_int_add reduce_to_all_int_add scan_int_add)
{
  echo "# splitc collectives on the sim, machine $machine: virtual ns per operation (processor 0)"
  echo "# P log2P ${ops[*]}"
} > "$dat"

p=2
while (( p <= max_p )); do
  dir="$out/p$p"
  start=$SECONDS
  if ! SPLITC_SIM_MACHINE=$machine "$run" -n "$p" "$bench" --quick --only collectives \
       --max-size 4096 --no-plots --no-progress --out "$dir" > "$dir.log" 2>&1; then
    echo "sim_collectives.sh: the job at P = $p failed; see $dir.log" >&2
    exit 2
  fi
  # results.csv: part,name,impl,backend,procs,size,value,...
  log2=0; while (( (1 << log2) < p )); do log2=$((log2 + 1)); done
  line="$p $log2"
  for op in "${ops[@]}"; do
    v=$(awk -F, -v op="$op" '$1 == "collectives" && $2 == op && $3 == "splitc" { print $7 }' "$dir/results.csv")
    line+=" ${v:-nan}"
  done
  echo "$line" >> "$dat"
  echo "P = $p done in $((SECONDS - start)) s" >&2
  p=$((p * 2))
done

column -t "$dat" 2>/dev/null || cat "$dat"

if command -v gnuplot > /dev/null; then
  gp="$out/collectives.gp"
  cat > "$gp" <<GP
set title "splitc collectives on the sim ($machine): virtual time against log2 P"
set xlabel "log2 P (processors)"
set ylabel "virtual microseconds per operation"
set key top left
set grid
set termoption noenhanced
set xtics 1
plot for [c=3:7] "collectives.dat" using 2:(column(c)/1000) with linespoints title columnhead(c)
GP
  # columnhead needs a header line without '#': write a plain copy for gnuplot.
  { echo "P log2P ${ops[*]}"; grep -v '^#' "$dat"; } > "$out/collectives.plot.dat"
  sed -i 's/"collectives.dat"/"collectives.plot.dat"/' "$gp"
  (cd "$out" && gnuplot -e "set terminal pngcairo size 900,600; set output 'collectives.png'" collectives.gp \
             && gnuplot -e "set terminal svg size 900,600; set output 'collectives.svg'" collectives.gp) \
    || echo "sim_collectives.sh: gnuplot failed; data and script are in $out" >&2
fi

# The bar: barrier(P_max) <= 1.5 * log2(P_max) * barrier(2).
awk -v machine="$machine" '
  !/^#/ { p[NR] = $1; l[NR] = $2; b[NR] = $3; n = NR }
  END {
    first = 0; for (i = 1; i <= n; i++) if (p[i] == 2) first = i
    if (!first) { print "no P = 2 row"; exit 2 }
    bound = 1.5 * l[n] * b[first]
    printf "barrier bar (%s): barrier at P = %d is %.0f ns; 1.5 x log2(%d) x barrier at P = 2 (%.0f ns) = %.0f ns: %s (%.2f x log2 P x the P = 2 barrier)\n",
           machine, p[n], b[n], p[n], b[first], bound, (b[n] <= bound ? "holds" : "MISSED"), b[n] / (l[n] * b[first])
    exit (b[n] <= bound ? 0 : 1)
  }' "$dat"
