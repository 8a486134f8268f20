#!/usr/bin/env bash
# splitc's MPI as an installed package is used (run by ctest from tests/packaging, after
# packaging.install has filled PREFIX):
#
#   check_installed.sh PREFIX LIBDIR WORK BACKEND [EXTERNAL]
#
# checks that the header is installed where it cannot be taken for a real MPI's
# (PREFIX/include/smpi/mpi.h; no PREFIX/include/mpi.h, none in a backend's include
# directory), then builds, as an MPI user would, with PREFIX/bin/splitc-mpicc --backend
# BACKEND: the layer's test program (tests/mpi_p2p.c) in one step; the era's two-file
# program (tests/era) compiled with -c and linked apart, and again by its own Makefile; and
# the same test program with `cc $(pkg-config --cflags --libs smpi-BACKEND)`. Each runs
# under PREFIX/bin/splitc-run --backend BACKEND -n 3 and must exit 0
# printing its PASS line. With EXTERNAL (the folder of programs written elsewhere), the OSU
# osu_latency and osu_bw programs are built unchanged from there with splitc-mpicc and run
# at P = 2. Last, splitc-mpicc must refuse an unknown backend, naming the known ones.
set -euo pipefail
[[ $# -ge 4 ]] || { echo "usage: check_installed.sh PREFIX LIBDIR WORK BACKEND [EXTERNAL]" >&2; exit 2; }
prefix=$1 libdir=$2 work=$3 backend=$4 external=${5:-}
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "check_installed: $*" >&2; exit 1; }
run() { echo "+ $*" >&2; "$@"; }

[[ -f $prefix/include/smpi/mpi.h ]] || die "no $prefix/include/smpi/mpi.h"
[[ ! -e $prefix/include/mpi.h ]] || die "$prefix/include/mpi.h exists: it could be taken for a real MPI's"
# Nor in a backend's own include directory (the mpi backend's is include/splitc-mpi), which
# programs of that backend have on their path next to a real MPI.
for d in "$prefix"/include/splitc-*/; do
  [[ ! -e $d/mpi.h ]] || die "${d}mpi.h exists: programs of that backend would find it"
done
[[ -x $prefix/bin/splitc-mpicc ]] || die "no $prefix/bin/splitc-mpicc"
[[ -f $prefix/$libdir/pkgconfig/smpi-$backend.pc ]] || die "no smpi-$backend.pc in $prefix/$libdir/pkgconfig"

rm -rf -- "$work"
mkdir -p "$work"
mpicc=("$prefix/bin/splitc-mpicc" --backend "$backend")

expect_pass() {  # expect_pass NAME P PROGRAM [ARGS...]
  local name=$1 p=$2 log=$work/$1-$2.log rc=0
  shift 2
  run timeout 200 "$prefix/bin/splitc-run" --backend "$backend" -n "$p" "$@" >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc -eq 0 ]] || die "$* on $backend at P = $p exited with status $rc"
  grep -qx "PASS $name" "$log" || die "$* on $backend printed no 'PASS $name'"
}

run "${mpicc[@]}" -O2 -o "$work/p2p" "$tests/mpi_p2p.c"
expect_pass mpi_p2p 3 "$work/p2p"

run "${mpicc[@]}" -std=gnu89 -w -c -o "$work/main.o" "$tests/era/main.c"
run "${mpicc[@]}" -std=gnu89 -w -c -o "$work/exchange.o" "$tests/era/exchange.c"
run "${mpicc[@]}" -o "$work/era" "$work/main.o" "$work/exchange.o"
expect_pass mpi_era 3 "$work/era"

# The era's way: its Makefile (suffix rules, MPICC), run from another directory.
mkdir -p "$work/make"
run make -C "$work/make" -f "$tests/era/Makefile" VPATH="$tests/era" \
  MPICC="$prefix/bin/splitc-mpicc --backend $backend"
expect_pass mpi_era 3 "$work/make/exchange"

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046 # pkg-config's flags are word lists
run "${CC:-cc}" -O2 -o "$work/p2p-pc" "$tests/mpi_p2p.c" \
  $("${PKG_CONFIG:-pkg-config}" --cflags --libs "smpi-$backend")
expect_pass mpi_p2p 3 "$work/p2p-pc"

if [[ -n $external ]]; then
  osu=$external/osu-micro-benchmarks-5.3/mpi/pt2pt
  [[ -f $osu/osu_latency.c ]] || die "no OSU programs in $external"
  for program in osu_latency osu_bw; do
    run "${mpicc[@]}" -O2 -w -DFIELD_WIDTH=18 -DFLOAT_PRECISION=2 -I"$osu" \
      -o "$work/$program" "$osu/$program.c" "$osu/osu_pt2pt.c"
    log=$work/$program.log
    rc=0
    run timeout 200 "$prefix/bin/splitc-run" --backend "$backend" -n 2 "$work/$program" \
      -i 5 -x 1 >"$log" 2>&1 || rc=$?
    cat "$log"
    [[ $rc -eq 0 ]] || die "$program on $backend exited with status $rc"
    grep -Eq '^4194304[ ]+[0-9.]+$' "$log" || die "$program on $backend printed no 4 MiB row"
  done
fi

rc=0
out=$("$prefix/bin/splitc-mpicc" --backend no_such_backend -c -o "$work/x.o" "$tests/mpi_p2p.c" 2>&1) || rc=$?
echo "$out"
[[ $rc -eq 2 ]] || die "splitc-mpicc --backend no_such_backend exited with $rc (2 expected)"
grep -q "no splitc MPI for the backend 'no_such_backend'.*known backends: .*$backend" <<<"$out" \
  || die "splitc-mpicc's refusal does not name the known backends"
echo "PASS installed smpi $backend"
