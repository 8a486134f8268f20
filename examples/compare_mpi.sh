#!/usr/bin/env bash
# The comparison behind the bar of docs/applications.md: the splitc and the MPI
# version of radix sort (2^22 keys per processor, 8- and 16-bit radix) and of
# matrix multiply (256 x 256 per processor), 2 processes each, back to back,
# for several rounds (the order alternates between rounds), then the median
# and the spread of each and the ratio splitc / MPI.
#
#   examples/compare_mpi.sh [BUILD_DIR] [ROUNDS]       (defaults: build, 5)
#
# Environment: PROCS (2), KEYS (2^22), PER_PROC (256), MM_REPS (100),
# RADIX_REPS (3), SPLITC_BIND (--bind: the program pins processor p to CPU p,
# as mpirun --bind-to core does for MPI; set it empty for no binding),
# MPI_BIND (--bind-to core), MPI_ARGS (--mca pml ob1 --mca btl self,vader; add
# e.g. --mca osc sm), MPIRUN (mpirun.openmpi). Every line of every run
# is kept in $OUT (default compare_mpi.log).
set -euo pipefail
build=${1:-build}
rounds=${2:-5}
procs=${PROCS:-2}
keys=${KEYS:-2^22}
per_proc=${PER_PROC:-256}
mm_reps=${MM_REPS:-100}
radix_reps=${RADIX_REPS:-3}
splitc_bind=${SPLITC_BIND---bind}
mpi_bind=${MPI_BIND---bind-to core}
mpi_args=${MPI_ARGS:---mca pml ob1 --mca btl self,vader}
mpirun=${MPIRUN:-mpirun.openmpi}
out=${OUT:-compare_mpi.log}
ex=$build/examples
[[ -d $ex ]] || ex=$build/main/examples   # a wrapper build
[[ -x $ex/radix_sort && -x $ex/radix_sort_mpi && -x $ex/matmul && -x $ex/matmul_mpi ]] || {
  echo "compare_mpi: build the examples first (in $ex)" >&2; exit 2; }
run=$build/tools/splitc-run
[[ -x $run ]] || run=$build/main/tools/splitc-run   # a wrapper build

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck disable=SC2206
mpi=($mpirun -np "$procs" $mpi_bind $mpi_args)
# shellcheck disable=SC2206
sbind=($splitc_bind)

declare -A cmd
cmd[radix8.splitc]="$run -n $procs $ex/radix_sort --keys $keys --radix-bits 8 --reps $radix_reps ${sbind[*]}"
cmd[radix8.mpi]="${mpi[*]} $ex/radix_sort_mpi --keys $keys --radix-bits 8 --reps $radix_reps"
cmd[radix16.splitc]="$run -n $procs $ex/radix_sort --keys $keys --radix-bits 16 --reps $radix_reps ${sbind[*]}"
cmd[radix16.mpi]="${mpi[*]} $ex/radix_sort_mpi --keys $keys --radix-bits 16 --reps $radix_reps"
cmd[matmul.splitc]="$run -n $procs $ex/matmul --per-proc $per_proc --reps $mm_reps ${sbind[*]}"
cmd[matmul.mpi]="${mpi[*]} $ex/matmul_mpi --per-proc $per_proc --reps $mm_reps"

: > "$out"
echo "# $(date -u +%FT%TZ) $(uname -n), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
for k in "${!cmd[@]}"; do echo "# $k: ${cmd[$k]}" >> "$out"; done
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# The time of one run: radix sort's best total (column 5 of the row after the
# header), matrix multiply's best time (column 6); the run must print PASS.
one() {
  local name=$1 app=${1%%.*} text
  text=$(eval "${cmd[$name]}" 2>&1) || { echo "$text" >> "$out"; echo "compare_mpi: $name failed" >&2; exit 1; }
  echo "## $name" >> "$out"; echo "$text" >> "$out"
  grep -q '^PASS ' <<< "$text" || { echo "compare_mpi: $name did not verify" >&2; exit 1; }
  local col=5
  [[ $app == matmul ]] && col=6
  awk -v c=$col -v n="$name" '/^ *[0-9]+ +[0-9.]+/ {print n, $c; exit}' <<< "$text" >> "$results"
}

for ((r = 1; r <= rounds; ++r)); do
  for app in radix8 radix16 matmul; do
    if ((r % 2)); then one $app.splitc; one $app.mpi; else one $app.mpi; one $app.splitc; fi
  done
  echo "round $r done (load $(cut -d' ' -f1 /proc/loadavg))"
done

echo
printf '%-8s %-7s %10s %10s %10s   (seconds over %d rounds)\n' app version median min max "$rounds"
for app in radix8 radix16 matmul; do
  for v in splitc mpi; do
    awk -v n="$app.$v" '$1 == n {print $2}' "$results" | sort -g |
      awk -v a=$app -v v=$v '{x[NR]=$1} END {m = NR % 2 ? x[(NR+1)/2] : (x[NR/2]+x[NR/2+1])/2;
        printf "%-8s %-7s %10.5f %10.5f %10.5f\n", a, v, m, x[1], x[NR]}'
  done
done | tee -a "$out" > "$results.summary"
cat "$results.summary"
echo
echo "ratio splitc / MPI (median; best):" | tee -a "$out"
awk '{t[$1" "$2]=$3; b[$1" "$2]=$4} END {for (a in t) { split(a, p, " "); if (p[2] == "splitc")
  printf "  %-8s %.3f  %.3f\n", p[1], t[a] / t[p[1]" mpi"], b[a] / b[p[1]" mpi"] }}' "$results.summary" | sort |
  tee -a "$out"
rm -f "$results.summary"
