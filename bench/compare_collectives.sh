#!/usr/bin/env bash
# Tables 8–11 side by side with Open MPI, in one run: splitc-collectives-bench
# (under splitc-run) and mpi-collectives-bench (under Open MPI's mpirun with
# its best shared-memory transport) alternate ROUNDS times, so both see the
# same mixture of this machine's two cross-core speed regimes; the medians
# and the ratio splitc / Open MPI are printed.
#   bench/compare_collectives.sh [BUILD_DIR] [ROUNDS]
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((r = 0; r < rounds; ++r)); do
  "$build/tools/splitc-run" -n 2 "$build/bench/splitc-collectives-bench" --quick --raw >>"$out/splitc"
  mpirun --allow-run-as-root -np 2 --bind-to core --mca pml ob1 --mca btl self,vader \
    --mca osc sm "$build/bench/mpi-collectives-bench" --quick --raw >>"$out/mpi"
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-32s %12s %12s %8s\n' operation "splitc (ns)" "Open MPI" ratio
for op in barrier broadcast_int reduce_to_one_int_add reduce_to_all_int_add scan_int_add; do
  s=$(awk -v k="$op" '$1 == k {print $2}' "$out/splitc" | median)
  m=$(awk -v k="$op" '$1 == k {print $2}' "$out/mpi" | median)
  printf '%-32s %12.1f %12.1f %8.2f\n' "$op" "$s" "$m" "$(awk -v a="$s" -v b="$m" 'BEGIN {print a / b}')"
done
for op in fetch_and_add_peer_spread_heap am_round_trip atomic_procedure_round_trip \
          table7_sptr_index table7_sptr_increment table7_for_my_1d_iteration table7_for_my_2d_iteration; do
  printf '%-32s %12.1f\n' "$op" "$(awk -v k="$op" '$1 == k {print $2}' "$out/splitc" | median)"
done
printf '%-32s %12s %12.1f\n' "MPI ping-pong round trip" "" \
  "$(awk '$1 == "pingpong_round_trip" {print $2}' "$out/mpi" | median)"
