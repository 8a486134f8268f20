#!/usr/bin/env bash
# Install the Debian packages splitc needs (only those missing), then
# configure and build it in build/. Used by scripts/test.sh and scripts/bench.sh;
# run as root on Debian 12 (or with sudo available).
#
#   scripts/build.sh           the default build (SPLITC_FULL_MATRIX off; the libraries and
#                              tools with line tables only, SPLITC_DEBUG_INFO=lines)
#   scripts/build.sh --full    the long matrix: the layers on every port, the ports' second
#                              MPI, full debug information everywhere
# Every backend compiles the core and the whole test suite against its own class, so a build
# from nothing takes long on two cores; ccache keeps the objects between builds (also between
# checkouts in different directories: CCACHE_BASEDIR makes the paths relative), in
# $CCACHE_DIR or ~/.ccache-splitc, so that CI's fresh checkout rebuilds in minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(cmake g++ make pkg-config libgtest-dev libgmock-dev libbenchmark-dev
          libfmt-dev libcli11-dev libboost-context-dev nlohmann-json3-dev
          libsodium-dev                                      # SipHash tags: the watchdog, udp
          openmpi-bin libopenmpi-dev mpich libmpich-dev      # mpi backends and MPI comparisons
          clang libclang-rt-14-dev                           # libFuzzer target of the udp parser
          libclang-14-dev libclang-cpp14-dev llvm-14-dev     # splitcc, the Split-C front end (Clang 14 libraries)
          iproute2 nftables                                  # udp tests across network namespaces
          gnuplot-nox procps                                 # plots of the benchmark suite; pgrep
          gfortran                                           # DOLIB's Fortran interface and test
          libglobalarrays-dev libarmci-mpi-dev               # DOLIB's Global Arrays comparison
          libscalapack-openmpi-dev liblapack-dev libblas-dev   # (what ga-config --libs names)
          ninja-build                                        # the generator (sanitize.sh's too)
          ccache)                                            # objects kept between builds

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "need root to install: ${missing[*]}" >&2; exit 1; }
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update
  "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

matrix=OFF debug_info=lines
case ${1:-} in
  --full) matrix=ON debug_info=full ;;
  "") ;;
  *) echo "usage: scripts/build.sh [--full]" >&2; exit 2 ;;
esac
# A build from nothing fills about 8 GB (build/, debug sections compressed) and ccache up to
# CCACHE_MAXSIZE: say so at the start rather than fail in a link half an hour later.
if [[ ! -f build/CMakeCache.txt ]]; then
  free_gb=$(df -Pk . | awk 'NR == 2 { print int($4 / 1048576) }')
  if ((free_gb < 10)); then
    echo "scripts/build.sh: ${free_gb} GB free on $(df -P . | awk 'NR == 2 { print $6 }');" \
         "a build from nothing needs about 10 GB" >&2
    exit 1
  fi
fi

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache-splitc} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
# No part uses a precompiled header today (the libraries' was tried twice and taken back:
# docs/running.md); with one, ccache caches only with this sloppiness (it then hashes the header).
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A new build directory uses Ninja: with about 1,100 targets, make's recursion cost 25 s of a
# build that had nothing to do and a minute of a clean clone's build from a warm ccache
# (docs/running.md). A directory configured before keeps its generator (remove it to switch).
generator=()
[[ -f build/CMakeCache.txt ]] || generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DSPLITC_FULL_MATRIX=$matrix -DSPLITC_DEBUG_INFO=$debug_info "${launcher[@]}"
cmake --build build -j2
