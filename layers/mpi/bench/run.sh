#!/usr/bin/env bash
# splitc's MPI against Open MPI and MPICH, in one run: the same unchanged programs from
# ../shared/external/ (OSU 5.3 osu_latency and osu_bw; mpptest at the seed's Figures 6-8
# sizes) built against the layer (the build's ext_* executables, splitc-run -n 2 on BACKEND),
# against Open MPI (mpicc.openmpi; mpirun with vader, bound to cores) and against MPICH
# (mpicc.mpich; its mpirun), run alternately, ROUNDS times each. mpptest runs as the seed ran
# it: its defaults, only -size. Prints medians and ranges per
# size side by side with the ratios to Open MPI, per cross-core regime (bench/regime.sh) and
# over all rounds, then the ratios within each round (median and range over the rounds);
# writes raw.csv, rounds.csv, summary.csv, table.txt and plots into OUT.
#
# Buffers are the programs' own: OSU's posix_memalign'd pages, mpptest's malloc. (Neither
# program uses MPI_Alloc_mem; on the layer it is malloc too, so the two cases are one.)
#
# Rows: splitc with its default settings, splitc with the seed's (K = 1 message in flight per
# pair, 256-byte short messages), Open MPI, MPICH.
#
#   run.sh [--build DIR] [--out DIR] [--backend NAME] [--rounds R] [--no-probe] [--smoke]
#          [--parts "osu_latency osu_bw fig6 fig7 fig8"]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$here/../../..
build=$root/build
external=$root/../shared/external
out=smpi-bench-results
backend=smp rounds=5 probe=1 smoke=0
parts="osu_latency osu_bw fig6 fig7 fig8"
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --external) external=$2; shift 2 ;;
    --no-probe) probe=0; shift ;;
    --smoke) smoke=1 rounds=1 probe=0; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
source "$root/bench/regime.sh"
osu=$external/osu-micro-benchmarks-5.3/mpi/pt2pt
perftest=$external/mpptest-1.0.13/examples/perftest
[[ -f $osu/osu_latency.c && -f $perftest/mpptest.c ]] ||
  { echo "run.sh: no OSU or mpptest sources in $external" >&2; exit 2; }
launcher=$build/tools/splitc-run
[[ -x $build/tools/splitc-run-$backend ]] && launcher=$build/tools/splitc-run-$backend
layer_bin=$build/layers/mpi/tests/external
for p in osu_latency osu_bw mpptest; do
  [[ -x $layer_bin/ext_${p}_$backend ]] ||
    { echo "run.sh: no $layer_bin/ext_${p}_$backend: build the tree first" >&2; exit 2; }
done
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)

# splitc (the default settings) and splitc_k1 (the seed's one message in flight per pair,
# SPLITC_SMPI_SLOTS=1, and its 256-byte short protocol), then the references: the same
# sources built with each MPI's own wrapper. Open MPI 4 dropped the MPI-1 names mpptest uses
# from its header (libmpi still has them): a forced include declares them again.
impls=(splitc splitc_k1)
mpptest_sources=()
for f in mpptest gopf grph ovlap pair pattern util getopts tstauto rate mpe_seq copy; do
  mpptest_sources+=("$perftest/$f.c")
done
build_reference() {  # build_reference NAME MPICC [EXTRA FLAGS...]
  local name=$1 mpicc=$2
  shift 2
  command -v "$mpicc" > /dev/null || { echo "run.sh: no $mpicc: $name left out" >&2; return 1; }
  mkdir -p "$out/bin/$name"
  for p in osu_latency osu_bw; do
    "$mpicc" -O2 -w -DFIELD_WIDTH=18 -DFLOAT_PRECISION=2 -I"$osu" -o "$out/bin/$name/$p" \
      "$osu/$p.c" "$osu/osu_pt2pt.c"
  done
  "$mpicc" -O2 -w -std=gnu89 "$@" -o "$out/bin/$name/mpptest" "${mpptest_sources[@]}" -lm
}
cat > "$out/bin/openmpi_mpi1.h" <<'EOF'
/* MPI-1 names Open MPI 4 no longer declares (its libmpi still defines them), for mpptest. */
#include <mpi.h>
OMPI_DECLSPEC extern struct ompi_predefined_datatype_t ompi_mpi_ub;
#define MPI_UB OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_ub)
EOF
build_reference openmpi mpicc.openmpi -DOMPI_OMIT_MPI1_COMPAT_DECLS=0 \
  -include "$out/bin/openmpi_mpi1.h" && impls+=(openmpi)
build_reference mpich mpicc.mpich && impls+=(mpich)

launch() {  # launch IMPL PROGRAM ARGS...: the program of IMPL on 2 processes
  local impl=$1 program=$2
  shift 2
  case $impl in
    splitc) "$launcher" -n 2 "$layer_bin/ext_${program}_$backend" "$@" ;;
    splitc_k1) SPLITC_SMPI_SLOTS=1 SPLITC_SMPI_SHORT_MAX=256 \
                 "$launcher" -n 2 "$layer_bin/ext_${program}_$backend" "$@" ;;
    openmpi) mpirun.openmpi --allow-run-as-root -np 2 --bind-to core --mca pml ob1 \
               --mca btl self,vader "$out/bin/openmpi/$program" "$@" ;;
    mpich) mpirun.mpich -np 2 -bind-to core "$out/bin/mpich/$program" "$@" ;;
  esac
}

# One measurement: PART's program, printed as "part,size,value" rows (OSU: microseconds or
# MB/s; mpptest: microseconds per message and MB/s).
measure() {  # measure IMPL PART
  local impl=$1 part=$2 iters=() sizes
  case $part in
    osu_latency|osu_bw)
      ((smoke)) && iters=(-i 2 -x 1)
      launch "$impl" "$part" "${iters[@]}" | awk -v part="$part" '/^[0-9]+[ \t]+[0-9.]+$/ { print part "," $1 "," $2 }' ;;
    fig6|fig7|fig8)
      # As the seed ran it: mpptest's defaults, only -size (-reps in a smoke run).
      case $part in
        fig6) sizes=(-size 0 1024 32) ;;
        fig7) sizes=(-size 10000 200000 10000) ;;
        fig8) sizes=(-size 1000000 5000000 1000000) ;;
      esac
      ((smoke)) && sizes+=(-reps 2)
      launch "$impl" mpptest -sync -roundtrip "${sizes[@]}" -noinfo |
        awk -v part="$part" 'NF == 6 && $1 == 0 && $2 == 1 { print part "-time," $4 "," $5; print part "-rate," $4 "," $6 / 1e6 }' ;;
  esac
}

raw=$out/raw.csv
echo "part,size,impl,regime,value" > "$raw"
by_round=$out/rounds.csv  # round,part,size,impl,value: for the ratios within each round
echo "round,part,size,impl,value" > "$by_round"
for ((round = 0; round < rounds; ++round)); do
  before=?
  ((probe)) && before=$(regime_now "$launcher" "$build/bench/splitc-bench")
  rows=$out/round.csv
  : > "$rows"
  for part in $parts; do
    for impl in "${impls[@]}"; do
      measure "$impl" "$part" | sed "s/^\([^,]*,[^,]*\),/\1,$impl,/" >> "$rows"
    done
  done
  after=?
  ((probe)) && after=$(regime_now "$launcher" "$build/bench/splitc-bench")
  regime=$(regime_of "$before" "$after")
  echo "run.sh: round $((round + 1)) of $rounds: cross-core regime $before before, $after after" >&2
  # Each sample counts in its round's regime and in "all".
  awk -F, -v r="$regime" '{ print $1 "," $2 "," $3 "," r "," $4; if (r != "all") print $1 "," $2 "," $3 ",all," $4 }' "$rows" >> "$raw"
  sed "s/^/$round,/" "$rows" >> "$by_round"
done
rm -f "$out/round.csv"

summary=$out/summary.csv
{ echo "part,size,impl,regime,median,min,max,samples"
  tail -n +2 "$raw" | median_rows | sort -t, -k1,1 -k2,2n -k4,4; } > "$summary"

# The table: the sizes the bars and the seed name, every regime seen.
{
  echo "splitc's MPI on $backend against Open MPI (vader) and MPICH, P = 2, $rounds rounds;"
  echo "median [min..max]; ratio = splitc / Open MPI (time: lower is better; MB/s: higher);"
  echo "regime: the rounds' cross-core regime (near, far, mixed; ?: not probed; all)"
  awk -F, 'NR > 1 {
      k = $1 "," $2 "," $4
      if (!(k in seen)) { seen[k] = 1; order[++n] = k }
      med[k, $3] = $5; cell[k, $3] = sprintf("%.3g [%.3g-%.3g]", $5, $6, $7)
    }
    END {
      show["osu_latency,8"] = show["osu_latency,1024"] = show["osu_latency,65536"] = 1
      show["osu_latency,1048576"] = show["osu_bw,8"] = show["osu_bw,65536"] = 1
      show["osu_bw,1048576"] = show["osu_bw,4194304"] = show["fig6-time,0"] = 1
      show["fig6-time,1024"] = show["fig7-rate,100000"] = show["fig7-rate,200000"] = 1
      show["fig8-rate,1000000"] = show["fig8-rate,5000000"] = 1
      printf "%-12s %8s %-6s  %-22s %-22s %-22s %-22s %7s %7s %7s\n", "part", "size", "regime",
             "splitc", "splitc K=1", "Open MPI", "MPICH", "s/OMPI", "s/MPICH", "K1/OMPI"
      for (i = 1; i <= n; i++) {
        split(order[i], f, ",")
        if (!((f[1] "," f[2]) in show)) continue
        k = order[i]; s = med[k, "splitc"]; o = med[k, "openmpi"]; m = med[k, "mpich"]
        s1 = med[k, "splitc_k1"]
        printf "%-12s %8s %-6s  %-22s %-22s %-22s %-22s %7s %7s %7s\n", f[1], f[2], f[3],
               cell[k, "splitc"], (s1 == "" ? "-" : cell[k, "splitc_k1"]),
               (o == "" ? "-" : cell[k, "openmpi"]), (m == "" ? "-" : cell[k, "mpich"]),
               (o == "" || o == 0 ? "-" : sprintf("%.2f", s / o)),
               (m == "" || m == 0 ? "-" : sprintf("%.2f", s / m)),
               (o == "" || o == 0 || s1 == "" ? "-" : sprintf("%.2f", s1 / o))
      }
    }' "$summary"
} | tee "$out/table.txt"

# The ratios within each round (each implementation against Open MPI measured in the same
# round, seconds apart): median [range] over the rounds. A round whose regime changed between
# two measurements shows as an outlier here rather than shifting a regime's median above.
{
  echo
  echo "ratios to Open MPI within each round, median [min-max] over $rounds rounds:"
  printf "%-12s %8s  %-22s %-22s %-22s\n" "part" "size" "splitc" "splitc K=1" "MPICH"
  awk -F, 'NR > 1 { v[$1 "," $2 "," $3 "," $4] = $5 }
    END {
      for (k in v) {
        split(k, f, ",")
        if (f[4] == "openmpi") continue
        o = v[f[1] "," f[2] "," f[3] ",openmpi"]
        if (o != "" && o > 0) print f[2] "," f[3] "," f[4] "," v[k] / o
      }
    }' "$by_round" | median_rows | sort -t, -k1,1 -k2,2n |
    awk -F, '{ k = $1 "," $2; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
               cell[k, $3] = sprintf("%.2f [%.2f-%.2f]", $4, $5, $6) }
      END {
        for (i = 1; i <= n; i++) {
          split(order[i], f, ",")
          printf "%-12s %8s  %-22s %-22s %-22s\n", f[1], f[2], cell[order[i], "splitc"],
                 cell[order[i], "splitc_k1"], cell[order[i], "mpich"]
        }
      }'
} | tee -a "$out/table.txt"

# Plots: every size, all rounds, one per part.
if command -v gnuplot > /dev/null; then
  for part in $(tail -n +2 "$summary" | cut -d, -f1 | sort -u); do
    plot=""
    for impl in "${impls[@]}"; do
      awk -F, -v p="$part" -v i="$impl" '$1 == p && $3 == i && $4 == "all" { print $2, $5, $6, $7 }' \
        "$summary" | sort -n > "$out/$part-$impl.dat"
      [[ -s $out/$part-$impl.dat ]] &&
        plot+="${plot:+, }'$out/$part-$impl.dat' using (\$1 > 0 ? \$1 : 1):2:3:4 with yerrorlines title '$impl'"
    done
    [[ -z $plot ]] && continue
    unit="microseconds"
    [[ $part == osu_bw || $part == *-rate ]] && unit="MB/s"
    gnuplot <<GP
set terminal pngcairo size 800,500 noenhanced
set output '$out/$part.png'
set title '$part: splitc MPI ($backend) against Open MPI and MPICH, P = 2'
set logscale x
set xlabel 'message size (bytes)'
set ylabel '$unit'
set key left top
plot $plot
GP
  done
fi
echo "run.sh: raw.csv, summary.csv, table.txt and plots in $out"
