#!/usr/bin/env bash
# Issue 41's bar, measured as it is stated: splitc-bench's "teams" part (each collective on the
# world and on a half team, alternated in every run with Open MPI's equivalent on the same
# processes; the split-phase overlap beside MPI_Iallreduce's) at each processor count, ROUNDS
# times, every round placed in its cross-core regime (bench/regime.sh). Prints, per processor
# count, row, size and regime, the median and range over the rounds of splitc's time and of its
# ratio to Open MPI's in the same run; writes rounds.csv and summary.csv into OUT.
#
#   bench/teams.sh [--build DIR] [--out DIR] [--procs "2 4"] [--rounds 5] [--backend smp]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../build out=teams-bench-results procs="2 4" rounds=5 backend=smp
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "teams.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done
source "$here/regime.sh"
launcher=$build/tools/splitc-run
[[ -x $build/tools/splitc-run-$backend ]] && launcher=$build/tools/splitc-run-$backend
bench=$build/bench/splitc-bench
[[ $backend == smp ]] || bench=$build/bench/splitc-bench-$backend
[[ -x $bench ]] || { echo "teams.sh: no $bench: build the tree first" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

rows=$out/rounds.csv  # procs,name,size,regime,value,ratio
echo "procs,name,size,regime,value,ratio" > "$rows"
for ((round = 1; round <= rounds; ++round)); do
  for p in $procs; do
    before=$(regime_now "$build/tools/splitc-run" "$build/bench/splitc-bench")
    dir=$out/p$p-round$round
    "$launcher" -n "$p" "$bench" --quick --only teams --rounds 1 --no-plots --no-progress \
      --out "$dir" > "$dir.log" 2>&1 || { echo "teams.sh: P = $p round $round failed (see $dir.log)" >&2; continue; }
    after=$(regime_now "$build/tools/splitc-run" "$build/bench/splitc-bench")
    regime=$(regime_of "$before" "$after")
    echo "teams.sh: P = $p, round $round of $rounds: regime $before before, $after after" >&2
    # splitc's rows (ratio to Open MPI's in the same run), and the overlaps: splitc's and Open
    # MPI's, each both ÷ computation alone.
    awk -F, -v p="$p" -v r="$regime" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["part"] != "teams" { next }
      { name = $col["name"]; size = $col["size"]; v[name, size] = $col["value"] }
      $col["impl"] == "splitc" && $col["ratio"] != "" && name !~ /^overlap/ {
        print p "," name "," size "," r "," $col["value"] "," $col["ratio"] }
      END {
        s = 1048576
        if (v["overlap_compute_alone", s] > 0)
          print p ",overlap_splitc," s "," r "," v["overlap_allreduce_with_compute", s] "," v["overlap_allreduce_with_compute", s] / v["overlap_compute_alone", s]
        if (v["mpi_iallreduce_compute", s] > 0)
          print p ",overlap_open_mpi," s "," r "," v["mpi_iallreduce_overlap", s] "," v["mpi_iallreduce_overlap", s] / v["mpi_iallreduce_compute", s]
      }' "$dir/results.csv" >> "$rows"
  done
done

summary=$out/summary.csv  # procs,name,size,regime: ratio median,min,max,n
{
  echo "procs,name,size,regime,ratio_median,ratio_min,ratio_max,rounds"
  tail -n +2 "$rows" | awk -F, '{ print $1 "," $2 "," $3 "," $4 "," $6; print $1 "," $2 "," $3 ",all," $6 }' |
    median_rows | sort -t, -k1,1n -k3,3n -k2,2 -k4,4
} > "$summary"
{
  echo "splitc's collectives against Open MPI's, $backend, $rounds rounds; ratio = splitc / Open MPI in"
  echo "the same run (overlap rows: both ÷ computation alone); median [min-max] over the rounds"
  awk -F, 'NR > 1 { printf "P=%-2s %-22s %8s %-6s %6.3f [%.3f-%.3f] n=%s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$summary"
} | tee "$out/table.txt"
