#!/usr/bin/env bash
# ACLMPL against Open MPI and splitc's MPI, in one run: the seed's six cases (acl_bench.c;
# the patterns are defined in layers/acl/README.md, "Benchmarks") with every column the seed
# had -- ACL synchronous, ACL asynchronous, one-sided puts with a flag ("SHMEM") -- and the MPI
# ones: the same driver built with mpicc.openmpi (run under mpirun with vader, bound to cores)
# and against splitc's MPI layer, each with blocking (Send/Recv) and non-blocking
# (Isend/Irecv/Waitall) calls; on the CM-5 ports also ACLMPL as #defines over CMMD's
# point-to-point (cmmd_sync, cmmd_async). The implementations run alternately, ROUNDS times; prints the
# medians and ranges per cross-core regime (bench/regime.sh) and over all rounds, each with its
# ratio to Open MPI's blocking row of the same round (median and range over the rounds); writes
# raw.csv, rounds.csv, summary.csv, ratios.csv, table.txt and a plot per case (gnuplot) into OUT.
#
#   run.sh [--build DIR] [--out DIR] [--backend NAME] [--procs P] [--rounds R] [--no-probe]
#          [--cases "latency one_to_all all_to_one all_to_all broadcast reduce"]
#          [--sizes 8,1024,65536] [--smoke]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/../../..
build=$root/build
out=acl-bench-results
backend=smp procs=2 rounds=5 probe=1 smoke=0
cases="latency one_to_all all_to_one all_to_all broadcast reduce"
sizes=8,64,1024,8192,65536,1048576
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --no-probe) probe=0; shift ;;
    --smoke) smoke=1 rounds=1 probe=0; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
source "$root/bench/regime.sh"
launcher=$build/tools/splitc-run
[[ -x $build/tools/splitc-run-$backend ]] && launcher=$build/tools/splitc-run-$backend
acl=$build/layers/acl/bench/acl-bench-$backend
smpi=$build/layers/acl/bench/acl-bench-smpi-$backend
cmmd=$build/layers/acl/bench/acl-bench-cmmd-$backend
[[ -x $acl ]] || { echo "run.sh: no $acl: build the tree first" >&2; exit 2; }
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
impls=(acl_sync acl_async acl_put)
[[ -x $smpi ]] && impls+=(smpi_sync smpi_async)
# On the CM-5 ports: ACLMPL as #defines over CMMD's point-to-point (the seed's CM-5 build).
[[ -x $cmmd ]] && impls+=(cmmd_sync cmmd_async)
if command -v mpicc.openmpi > /dev/null; then
  mpicc.openmpi -O2 -DACL_BENCH_MPI -o "$out/bin/acl-bench-openmpi" "$here/acl_bench.c"
  impls+=(openmpi_sync openmpi_async)
else
  echo "run.sh: no mpicc.openmpi: Open MPI left out" >&2
fi
reps=()
((smoke)) && reps=(-reps 2)

run_one() {  # run_one IMPL CASE: rows "case,size,value"
  local impl=$1 kase=$2 method=${1##*_} args
  [[ $kase == reduce && $impl == acl_async ]] && return 0   # the seed's global operations are synchronous
  [[ ($kase == broadcast || $kase == reduce) && $impl == cmmd_* ]] && return 0  # ACLMPL's own there
  [[ $kase == reduce && $impl == acl_put ]] && method=swap  # binary swap in this column
  [[ ($kase == broadcast || $kase == reduce) && $impl == *_async && $impl != acl_async ]] && return 0
  [[ $kase == broadcast && $impl == acl_put ]] && return 0
  args=(-case "$kase" -method "$method" -sizes "$sizes" "${reps[@]}")
  case $impl in
    acl_*) "$launcher" -n "$procs" "$acl" "${args[@]}" ;;
    smpi_*) "$launcher" -n "$procs" "$smpi" "${args[@]}" ;;
    cmmd_*) "$launcher" -n "$procs" "$cmmd" "${args[@]}" ;;
    openmpi_*) mpirun.openmpi --allow-run-as-root -np "$procs" --bind-to core --mca pml ob1 \
                 --mca btl self,vader "$out/bin/acl-bench-openmpi" "${args[@]}" ;;
  esac | awk '{ print $2 "," $5 "," $6 }'
}

raw=$out/raw.csv
echo "case,size,impl,regime,value" > "$raw"
by_round=$out/rounds.csv
echo "round,case,size,impl,value" > "$by_round"
for ((round = 0; round < rounds; ++round)); do
  before=?
  ((probe)) && before=$(regime_now "$build/tools/splitc-run" "$build/bench/splitc-bench")
  rows=$out/round.csv
  : > "$rows"
  for kase in $cases; do
    for impl in "${impls[@]}"; do
      run_one "$impl" "$kase" | sed "s/^\([^,]*,[^,]*\),/\1,$impl,/" >> "$rows"
    done
  done
  after=?
  ((probe)) && after=$(regime_now "$build/tools/splitc-run" "$build/bench/splitc-bench")
  regime=$(regime_of "$before" "$after")
  echo "run.sh: round $((round + 1)) of $rounds: cross-core regime $before before, $after after" >&2
  awk -F, -v r="$regime" '{ print $1 "," $2 "," $3 "," r "," $4; if (r != "all") print $1 "," $2 "," $3 ",all," $4 }' "$rows" >> "$raw"
  sed "s/^/$round,/" "$rows" >> "$by_round"
done
rm -f "$out/round.csv"

summary=$out/summary.csv
{ echo "case,size,impl,regime,median,min,max,samples"
  tail -n +2 "$raw" | median_rows | sort -t, -k1,1 -k2,2n -k4,4; } > "$summary"
# Ratios within each round: each row over Open MPI's blocking row of the same case and size
# (latency and seconds: lower is better; MB/s: higher is better).
ratios=$out/ratios.csv
awk -F, 'NR > 1 { v[$1 "," $2 "," $3 "," $4] = $5; if ($4 == "openmpi_sync") ref[$1 "," $2 "," $3] = $5; key[$2 "," $3 "," $4] = 1; r[$1] = 1 }
  END { for (k in v) { split(k, f, ","); rk = f[1] "," f[2] "," f[3]; if (rk in ref && ref[rk] > 0) print f[2] "," f[3] "," f[4] "," v[k] / ref[rk] } }' \
  "$by_round" | median_rows > "$ratios"
{
  echo "ACLMPL on $backend, P = $procs, against Open MPI (vader) and splitc's MPI; $rounds rounds."
  echo "Values: one-way us (latency), MB/s (patterns), s per operation (broadcast, reduce)."
  echo "ratio: to Open MPI's blocking row within each round (median [min-max])."
  printf '%-11s %8s %-14s %-6s %12s %24s %22s\n' case bytes impl regime median "range" ratio
  tail -n +2 "$summary" | while IFS=, read -r kase size impl regime med lo hi n; do
    ratio=$(awk -F, -v k="$kase" -v s="$size" -v i="$impl" '$1 == k && $2 == s && $3 == i { printf "%.3g [%.3g-%.3g]", $4, $5, $6 }' "$ratios")
    [[ $regime == all ]] || continue
    printf '%-11s %8s %-14s %-6s %12.4g %24s %22s\n' "$kase" "$size" "$impl" "$regime" "$med" "[$lo-$hi] n=$n" "$ratio"
  done
  echo
  echo "Per regime:"
  tail -n +2 "$summary" | awk -F, '$4 != "all" { printf "%-11s %8s %-14s %-6s %12.4g [%g-%g] n=%d\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
} | tee "$out/table.txt"

# Plots like the seed's Figures 3-9: one per case, every column against the message size (all
# rounds: medians with their ranges).
if command -v gnuplot > /dev/null; then
  for kase in $(tail -n +2 "$summary" | cut -d, -f1 | sort -u); do
    plot=""
    for impl in "${impls[@]}"; do
      awk -F, -v k="$kase" -v i="$impl" '$1 == k && $3 == i && $4 == "all" { print $2, $5, $6, $7 }' \
        "$summary" | sort -n > "$out/$kase-$impl.dat"
      [[ -s $out/$kase-$impl.dat ]] &&
        plot+="${plot:+, }'$out/$kase-$impl.dat' using 1:2:3:4 with yerrorlines title '$impl'"
    done
    [[ -z $plot ]] && continue
    case $kase in
      latency) unit="one-way microseconds" ;;
      broadcast|reduce) unit="seconds per operation" ;;
      *) unit="MB/s (10^6 bytes)" ;;
    esac
    gnuplot <<GP
set terminal pngcairo size 800,500 noenhanced
set output '$out/$kase.png'
set title '$kase: ACLMPL on $backend against Open MPI, P = $procs'
set logscale x
set xlabel 'message size (bytes)'
set ylabel '$unit'
set key left top
plot $plot
GP
  done
fi
echo "run.sh: raw.csv, rounds.csv, summary.csv, ratios.csv, table.txt and plots in $out"
