#!/usr/bin/env bash
# Packaging checks, run by ctest (tests/packaging/CMakeLists.txt):
#
#   check_packaging.sh install   BUILD PREFIX LIBDIR BACKENDS [CONFIG]
#       install the build tree BUILD into PREFIX (emptied first) and check
#       that the headers, libraries, launcher, CMake package and .pc files
#       are there and name no build-tree path.
#   check_packaging.sh cmake     PREFIX LIBDIR SRC WORK [CONFIG] [GENERATOR]
#       configure and build the consumer project SRC in WORK against PREFIX
#       with find_package(splitc), then run it.
#   check_packaging.sh pkgconfig PREFIX LIBDIR SRC WORK BACKENDS DEFAULT
#       compile SRC/main.cpp with `c++ -std=c++20 $(pkg-config ...)` for every
#       backend (link only), and run the one built for DEFAULT.
#   check_packaging.sh launcher  PREFIX WORK
#       run WORK/consumer (from `cmake`) under PREFIX/bin/splitc-run -n 2.
#
# BACKENDS is a ';'- or ','-separated list. CXX, CMAKE and PKG_CONFIG name
# the tools (default: c++, cmake, pkg-config).
set -euo pipefail

CMAKE=${CMAKE:-cmake}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

die() { echo "check_packaging: $*" >&2; exit 1; }
run() { echo "+ $*" >&2; "$@"; }
split_list() { tr ';,' '  ' <<<"$1"; }

# The consumer is started plainly: it must run as one process.
unset SPLITC_PROCS

expect_consumer_ok() {  # expect_consumer_ok LOGFILE
  grep -q '^consumer ok' "$1" || die "the consumer did not print 'consumer ok'"
}

cmd_install() {
  [[ $# -ge 4 ]] || die "usage: install BUILD PREFIX LIBDIR BACKENDS [CONFIG]"
  local build=$1 prefix=$2 libdir=$3 backends=$4 config=${5:-}
  [[ -f $build/cmake_install.cmake ]] || die "$build is not a configured build tree"
  [[ $prefix == /* && $prefix != / ]] || die "PREFIX must be an absolute path, not '$prefix'"
  rm -rf -- "$prefix"
  local args=(--install "$build" --prefix "$prefix")
  [[ -n $config ]] && args+=(--config "$config")
  run "$CMAKE" "${args[@]}"

  local must=(
    "include/splitc/splitc.hpp"
    "bin/splitc-run"
    "$libdir/cmake/splitc/splitcConfig.cmake"
    "$libdir/cmake/splitc/splitcConfigVersion.cmake"
    "$libdir/cmake/splitc/splitcTargets.cmake"
  )
  local b
  for b in $(split_list "$backends"); do
    must+=("$libdir/libsplitc-$b.a" "$libdir/pkgconfig/splitc-$b.pc")
  done
  local f
  for f in "${must[@]}"; do
    [[ -e $prefix/$f ]] || die "not installed: $prefix/$f"
  done
  [[ -x $prefix/bin/splitc-run ]] || die "$prefix/bin/splitc-run is not executable"

  # Nothing a consumer reads may point back into the build or source tree
  # (the prefix itself lies in the build tree, so it is masked first).
  local build_abs src_abs prefix_abs text
  build_abs=$(cd "$build" && pwd -P)
  prefix_abs=$(cd "$prefix" && pwd -P)
  src_abs=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
  for f in "$prefix/$libdir"/cmake/splitc/*.cmake "$prefix/$libdir"/pkgconfig/splitc-*.pc; do
    text=$(<"$f")
    text=${text//"$prefix_abs"/@PREFIX@}
    text=${text//"$prefix"/@PREFIX@}
    if [[ $text == *"$build_abs"* || ( -n $src_abs && $text == *"$src_abs"* ) ]]; then
      die "$f names the build or source tree"
    fi
  done
  echo "installed into $prefix"
}

cmd_cmake() {
  [[ $# -ge 4 ]] || die "usage: cmake PREFIX LIBDIR SRC WORK [CONFIG] [GENERATOR]"
  local prefix=$1 libdir=$2 src=$3 work=$4 config=${5:-Release} generator=${6:-}
  rm -rf -- "$work"
  local args=(-S "$src" -B "$work" -DCMAKE_PREFIX_PATH="$prefix"
              -DCMAKE_BUILD_TYPE="$config" -DCMAKE_CXX_COMPILER="${CXX:-c++}")
  [[ -n $generator ]] && args+=(-G "$generator")
  run "$CMAKE" "${args[@]}"
  local found
  found=$(sed -n 's/^splitc_DIR:PATH=//p' "$work/CMakeCache.txt")
  [[ $found -ef $prefix/$libdir/cmake/splitc ]] \
    || die "find_package(splitc) used '$found', not the package in $prefix"
  run "$CMAKE" --build "$work" --config "$config"
  local exe=$work/consumer
  [[ -x $exe ]] || exe=$work/$config/consumer
  run "$exe" | tee "$work/run.log"
  expect_consumer_ok "$work/run.log"
}

cmd_pkgconfig() {
  [[ $# -ge 6 ]] || die "usage: pkgconfig PREFIX LIBDIR SRC WORK BACKENDS DEFAULT"
  local prefix=$1 libdir=$2 src=$3 work=$4 backends=$5 default=$6
  local cxx=${CXX:-c++}
  export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  rm -rf -- "$work"
  mkdir -p "$work"
  local b flags upper
  for b in $(split_list "$backends"); do
    run "$PKG_CONFIG" --exists --print-errors "splitc-$b" || die "pkg-config cannot use splitc-$b"
    flags=$("$PKG_CONFIG" --cflags --libs "splitc-$b")
    echo "pkg-config --cflags --libs splitc-$b: $flags"
    upper=${b^^}
    for want in "-DSPLITC_BACKEND_${upper}=1" "-I$prefix/include" "-lsplitc-$b" "-lfmt" "-pthread"; do
      [[ " $flags " == *" $want "* ]] || die "splitc-$b.pc: '$want' missing from: $flags"
    done
    # shellcheck disable=SC2086  # the flags are meant to be split
    run "$cxx" -std=c++20 "$src/main.cpp" $flags -o "$work/consumer-$b"
  done
  run "$work/consumer-$default" | tee "$work/run.log"
  expect_consumer_ok "$work/run.log"
}

cmd_launcher() {
  [[ $# -ge 2 ]] || die "usage: launcher PREFIX WORK"
  local prefix=$1 work=$2
  [[ -x $work/consumer ]] || die "no consumer built in $work"
  run "$prefix/bin/splitc-run" -n 2 "$work/consumer" | tee "$work/launcher.log"
  expect_consumer_ok "$work/launcher.log"
}

[[ $# -ge 1 ]] || die "usage: $0 install|cmake|pkgconfig|launcher ARGS..."
step=$1
shift
case $step in
  install) cmd_install "$@" ;;
  cmake) cmd_cmake "$@" ;;
  pkgconfig) cmd_pkgconfig "$@" ;;
  launcher) cmd_launcher "$@" ;;
  *) die "unknown step '$step'" ;;
esac
