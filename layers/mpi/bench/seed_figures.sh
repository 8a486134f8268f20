#!/usr/bin/env bash
# The MPICH-on-T3D seed's Figures 6-8 in the virtual time of the T3D model: mpi_pingpong
# (mpptest's round trip, state per processor) on t3d_sim with SPLITC_SIM_MACHINE=t3d, at the
# seed's sizes (Fig. 6: -size 0 1024 32; Fig. 7: -size 10000 200000 10000; Fig. 8: 1-5 MB),
# blocking and -async, against what the seed reports: MPICH levelling near 100 MB/s from
# 100 KB (Fig. 7) and at 107 MB/s, 85 % of the peak, from 1 to 5 MB (Fig. 8); Fig. 6's
# latency "erratic" but comparable to CRI/EPCC MPI, whose one-word latency the ACL paper gives
# as 47 us (blocking) and 40 us (asynchronous). The sim is deterministic: one run is the
# figure. Writes fig6.dat, fig7.dat, fig8.dat (mpptest's rows) and table.txt into OUT.
#
#   seed_figures.sh [--build DIR] [--out DIR] [--reps N]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../../../build
out=smpi-seed-figures
reps=50
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "seed_figures.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
program=$build/layers/mpi/bench/smpi-pingpong-t3d_sim
launcher=$build/tools/splitc-run-t3d_sim
[[ -x $program && -x $launcher ]] ||
  { echo "seed_figures.sh: no $program or $launcher: build the tree first" >&2; exit 2; }
mkdir -p "$out"
export SPLITC_SIM_MACHINE=t3d
for mode in sync async; do
  flag=()
  [[ $mode == async ]] && flag=(-async)
  "$launcher" -n 2 "$program" -size 0 1024 32 -reps "$reps" "${flag[@]}" > "$out/fig6-$mode.dat"
  "$launcher" -n 2 "$program" -size 10000 200000 10000 -reps "$reps" "${flag[@]}" > "$out/fig7-$mode.dat"
  "$launcher" -n 2 "$program" -sizelist 1000000,2000000,3000000,4000000,5000000 -reps "$reps" \
    "${flag[@]}" > "$out/fig8-$mode.dat"
done

{
  echo "The seed's Figures 6-8 on the T3D model (t3d_sim, virtual time), P = 2, mpptest's method"
  echo "(REPS = $reps round trips per sample, the smallest of up to 30 samples, one way)."
  printf "%-34s %14s %14s %18s\n" "measure" "blocking" "async" "seed"
  row() {  # row LABEL FILE-STEM SIZE COLUMN SCALE SEED
    local b a
    b=$(awk -v n="$3" -v c="$4" -v k="$5" '$4 == n { printf "%.2f", $c * k }' "$out/$2-sync.dat")
    a=$(awk -v n="$3" -v c="$4" -v k="$5" '$4 == n { printf "%.2f", $c * k }' "$out/$2-async.dat")
    printf "%-34s %14s %14s %18s\n" "$1" "$b" "$a" "$6"
  }
  row "Fig. 6: 0 bytes, us one way" fig6 0 5 1 "(EPCC 47 / 40)"
  row "Fig. 6: 32 bytes, us" fig6 32 5 1 ""
  row "Fig. 6: 1024 bytes, us" fig6 1024 5 1 ""
  row "Fig. 7: 100 KB, MB/s" fig7 100000 6 1e-6 "~100 (MPICH)"
  row "Fig. 7: 200 KB, MB/s" fig7 200000 6 1e-6 "~100"
  row "Fig. 8: 1 MB, MB/s" fig8 1000000 6 1e-6 "107"
  row "Fig. 8: 5 MB, MB/s" fig8 5000000 6 1e-6 "107"
} | tee "$out/table.txt"
echo "seed_figures.sh: fig6/7/8-{sync,async}.dat and table.txt in $out"
