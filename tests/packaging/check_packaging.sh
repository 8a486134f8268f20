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
#   check_packaging.sh pkgconfig PREFIX LIBDIR SRC WORK BACKENDS DEFAULT [RUN]
#       compile SRC/main.cpp for every backend: for DEFAULT in one step, `c++ -std=c++20
#       main.cpp $(pkg-config --cflags --libs ...)`, for the others compiled (`-c`, with
#       `pkg-config --cflags`, through SPLITC_PKG_CONFIG_LAUNCHER if set: ccache) and linked
#       (`pkg-config --libs`) apart; run the one built for DEFAULT, and run those built for
#       the backends in RUN with PREFIX/bin/splitc-run --backend NAME -n 2.
#   check_packaging.sh launcher  PREFIX WORK
#       run WORK/consumer (from `cmake`) under PREFIX/bin/splitc-run -n 2.
#   check_packaging.sh cprograms PREFIX LIBDIR SRC WORK BACKEND [link-only]
#       build every SRC/*.c with the C compiler as the linker, as a C user
#       would: `cc -std=c11 -O2 prog.c $(pkg-config --cflags --libs
#       splitc-main splitc-BACKEND)` (the program's splitc_main) and
#       `cc -std=c11 -O2 -DSPLITC_OWN_MAIN prog.c $(pkg-config --cflags
#       --libs splitc-BACKEND)` (its own main); then, unless link-only, run
#       each with PREFIX/bin/splitc-run --backend BACKEND -n 4 and require
#       exit 0 and its "PASS <program>" line.
#   check_packaging.sh outoftree PREFIX LIBDIR BACKEND_SRC C_PROGRAM WORK [CONFIG] [GENERATOR]
#       a backend outside the splitc tree: copy BACKEND_SRC (ports/template)
#       to a fresh temporary directory, configure it with its own
#       CMakeLists.txt (find_package(splitc) and one splitc_add_backend call)
#       against PREFIX, build it (library, launcher, splitc-bench, tests), run
#       its ctest, install it into WORK/prefix, check the installed files,
#       build C_PROGRAM with `cc $(pkg-config --cflags --libs splitc-main
#       splitc-NAME)` from both prefixes, and run it with the installed
#       splitc-run-NAME -n 2: it must fail with "no path to peer". Then
#       PREFIX/bin/splitc-run --backend must find a launcher on PATH, and
#       refuse an unknown name, listing the known backends.
#   check_packaging.sh netns     PREFIX LIBDIR SRC WORK PROGRAM [LOSS%] [BACKEND] [gso]
#       build SRC/PROGRAM.c for BACKEND (udp, or hpam) the same way and run it with 4 processes
#       inside a new network namespace whose loopback drops LOSS % (default
#       5) of incoming UDP datagrams (nftables, every (100 / LOSS)-th:
#       tests/netns/udp_loss.sh): exact results (the PASS
#       line), datagrams dropped and retransmissions seen; with `gso` (udp, run with
#       SPLITC_UDP_DATAGRAM small enough for runs), datagrams sent in GSO runs too. Exits 77
#       (skipped) without root, `ip netns` or nft.
#
# BACKENDS is a ';'- or ','-separated list. CXX, CC, CMAKE, CTEST and
# PKG_CONFIG name the tools (default: c++, cc, cmake, ctest, pkg-config).
set -euo pipefail

CMAKE=${CMAKE:-cmake}
CTEST=${CTEST:-ctest}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

source "$(dirname "${BASH_SOURCE[0]}")/../netns/udp_loss.sh"
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
  must+=("include/splitc.h" "$libdir/libsplitc-main.a" "$libdir/pkgconfig/splitc-main.pc")
  # The sim's example machine model (docs/sim-machines.md, "A machine of your own").
  must+=("share/splitc/machines/openmpi_vader_this_host.json")
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
  # The scratch install's libraries without their debug information: every program the tests
  # build from them is run, never debugged (a tenth of the disk, here and in each program).
  find "$prefix/$libdir" -name '*.a' -exec strip --strip-debug {} +
  echo "installed into $prefix"
}

# configure_against PREFIX LIBDIR SRC BUILD CONFIG GENERATOR [CMAKE ARGS...]:
# configure the project SRC in BUILD against the splitc installed in PREFIX,
# and check that find_package(splitc) found that one.
configure_against() {
  local prefix=$1 libdir=$2 src=$3 build=$4 config=$5 generator=$6
  shift 6
  local args=(-S "$src" -B "$build" -DCMAKE_PREFIX_PATH="$prefix"
              -DCMAKE_BUILD_TYPE="$config" -DCMAKE_CXX_COMPILER="${CXX:-c++}" "$@")
  [[ -n $generator ]] && args+=(-G "$generator")
  run "$CMAKE" "${args[@]}"
  local found
  found=$(sed -n 's/^splitc_DIR:PATH=//p' "$build/CMakeCache.txt")
  [[ $found -ef $prefix/$libdir/cmake/splitc ]] \
    || die "find_package(splitc) used '$found', not the package in $prefix"
}

cmd_cmake() {
  [[ $# -ge 4 ]] || die "usage: cmake PREFIX LIBDIR SRC WORK [CONFIG] [GENERATOR]"
  local prefix=$1 libdir=$2 src=$3 work=$4 config=${5:-Release} generator=${6:-}
  rm -rf -- "$work"
  configure_against "$prefix" "$libdir" "$src" "$work" "$config" "$generator"
  run "$CMAKE" --build "$work" --config "$config"
  local exe=$work/consumer
  [[ -x $exe ]] || exe=$work/$config/consumer
  run "$exe" | tee "$work/run.log"
  expect_consumer_ok "$work/run.log"
}

cmd_pkgconfig() {
  [[ $# -ge 6 ]] || die "usage: pkgconfig PREFIX LIBDIR SRC WORK BACKENDS DEFAULT [RUN]"
  local prefix=$1 libdir=$2 src=$3 work=$4 backends=$5 default=$6 run_also=${7:-}
  local cxx=${CXX:-c++}
  export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  rm -rf -- "$work"
  mkdir -p "$work"
  local b flags upper
  # ccache with the paths under CCACHE_BASEDIR made relative (the build's: its source tree).
  [[ -n ${SPLITC_PKG_CONFIG_LAUNCHER:-} ]] && export CCACHE_BASEDIR=${CCACHE_BASEDIR:-/} CCACHE_NOHASHDIR=1
  for b in $(split_list "$backends"); do
    run "$PKG_CONFIG" --exists --print-errors "splitc-$b" || die "pkg-config cannot use splitc-$b"
    flags=$("$PKG_CONFIG" --cflags --libs "splitc-$b")
    echo "pkg-config --cflags --libs splitc-$b: $flags"
    upper=${b^^}
    for want in "-DSPLITC_BACKEND_${upper}=1" "-I$prefix/include" "-lsplitc-$b" "-lfmt" "-pthread"; do
      [[ " $flags " == *" $want "* ]] || die "splitc-$b.pc: '$want' missing from: $flags"
    done
    if [[ $b == "$default" ]]; then
      # shellcheck disable=SC2086  # the flags are meant to be split
      run "$cxx" -std=c++20 "$src/main.cpp" $flags -o "$work/consumer-$b"
    else
      # Compiled and linked apart, the compile through the build's compiler launcher if it has
      # one (ccache: the same source and flags give the same object; the link is always done).
      # shellcheck disable=SC2086
      run ${SPLITC_PKG_CONFIG_LAUNCHER:-} "$cxx" -std=c++20 -c "$src/main.cpp" \
        $("$PKG_CONFIG" --cflags "splitc-$b") -o "$work/consumer-$b.o"
      # shellcheck disable=SC2086
      run "$cxx" "$work/consumer-$b.o" $("$PKG_CONFIG" --libs "splitc-$b") -o "$work/consumer-$b"
    fi
  done
  run "$work/consumer-$default" | tee "$work/run.log"
  expect_consumer_ok "$work/run.log"
  for b in $(split_list "$run_also"); do
    [[ -x $work/consumer-$b ]] || die "no consumer was built for $b (not in BACKENDS)"
    run "$prefix/bin/splitc-run" --backend "$b" -n 2 "$work/consumer-$b" | tee "$work/run-$b.log"
    expect_consumer_ok "$work/run-$b.log"
  done
}

cmd_launcher() {
  [[ $# -ge 2 ]] || die "usage: launcher PREFIX WORK"
  local prefix=$1 work=$2
  [[ -x $work/consumer ]] || die "no consumer built in $work"
  run "$prefix/bin/splitc-run" -n 2 "$work/consumer" | tee "$work/launcher.log"
  expect_consumer_ok "$work/launcher.log"
}

# build_c PREFIX LIBDIR SOURCE OUTPUT BACKEND main|own: one C program, the C
# compiler as the linker, flags from the installed .pc files only.
build_c() {
  local prefix=$1 libdir=$2 source=$3 output=$4 backend=$5 form=$6
  local cc=${CC:-cc} flags
  [[ :${PKG_CONFIG_PATH:-}: == *":$prefix/$libdir/pkgconfig:"* ]] ||
    export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  if [[ $form == main ]]; then
    flags=$("$PKG_CONFIG" --cflags --libs splitc-main "splitc-$backend") \
      || die "pkg-config splitc-main splitc-$backend failed"
    [[ " $flags " == *" -lsplitc-main "*"-lsplitc-$backend "* ]] \
      || die "pkg-config does not put -lsplitc-main before -lsplitc-$backend: $flags"
    # shellcheck disable=SC2086  # the flags are meant to be split
    run "$cc" -std=c11 -O2 "$source" $flags -o "$output"
  else
    flags=$("$PKG_CONFIG" --cflags --libs "splitc-$backend") \
      || die "pkg-config splitc-$backend failed"
    # shellcheck disable=SC2086
    run "$cc" -std=c11 -O2 -DSPLITC_OWN_MAIN "$source" $flags -o "$output"
  fi
}

cmd_cprograms() {
  [[ $# -ge 5 ]] || die "usage: cprograms PREFIX LIBDIR SRC WORK BACKEND [link-only]"
  local prefix=$1 libdir=$2 src=$3 work=$4 backend=$5 mode=${6:-run}
  rm -rf -- "$work"
  mkdir -p "$work"
  local source name form exe log ran=0
  for source in "$src"/*.c; do
    name=$(basename "$source" .c)
    for form in main own; do
      exe=$work/$name-$form
      build_c "$prefix" "$libdir" "$source" "$exe" "$backend" "$form" \
        || die "$name ($form) does not build for $backend"
      [[ $mode == link-only ]] && continue
      log=$work/$name-$form.log
      local rc=0
      run "$prefix/bin/splitc-run" --backend "$backend" -n 4 "$exe" >"$log" 2>&1 || rc=$?
      cat "$log"
      [[ $rc -eq 0 ]] || die "$name ($form) on $backend exited with status $rc"
      grep -qx "PASS $name" "$log" || die "$name ($form) on $backend printed no 'PASS $name'"
      ran=$((ran + 1))
    done
  done
  if [[ $mode == link-only ]]; then
    echo "C programs built for $backend (link only)"
  else
    (( ran > 0 )) || die "no C program in $src"
    echo "$ran C program runs passed on $backend"
  fi
}

cmd_netns() {
  [[ $# -ge 5 ]] || die "usage: netns PREFIX LIBDIR SRC WORK PROGRAM [LOSS%] [BACKEND] [gso]"
  local prefix=$1 libdir=$2 src=$3 work=$4 program=$5 loss=${6:-5} backend=${7:-udp} gso=${8:-}
  skip() { echo "check_packaging: netns skipped: $*"; exit 77; }
  [[ $(id -u) -eq 0 ]] || skip "not root"
  command -v ip >/dev/null || skip "no ip command"
  command -v nft >/dev/null || skip "no nft (apt-get install nftables)"
  rm -rf -- "$work"
  mkdir -p "$work"
  build_c "$prefix" "$libdir" "$src/$program.c" "$work/$program" "$backend" main
  local ns=splitc_pkg$$
  ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
  trap 'ip netns del '"$ns"' 2>/dev/null' EXIT
  ip -n "$ns" link set lo up || die "cannot bring up the namespace's loopback"
  add_udp_loss "$ns" "$loss" || die "the nftables rule failed"
  local log=$work/run.log rc=0
  run ip netns exec "$ns" env SPLITC_UDP_STATS=1 HPAM_STATS=1 timeout 250 \
    "$prefix/bin/splitc-run" --backend "$backend" -n 4 "$work/$program" >"$log" 2>&1 || rc=$?
  cat "$log"
  local dropped retx
  dropped=$(udp_loss_dropped "$ns" || true)
  retx=$( (grep -o 'retransmits_\(timeout\|fast\)=[0-9]*' "$log" || true) |
          awk -F= '{ s += $2 } END { print s + 0 }')
  echo "netns: ${loss}% loss on loopback: $dropped datagrams dropped, $retx retransmissions, status $rc"
  [[ $rc -eq 0 ]] || die "$program under ${loss}% loss exited with status $rc"
  grep -qx "PASS $program" "$log" || die "$program under ${loss}% loss printed no 'PASS $program'"
  (( dropped > 0 )) || die "nftables dropped nothing: the loss was not applied"
  (( retx > 0 )) || die "no retransmissions although datagrams were dropped"
  if [[ $gso == gso ]]; then
    local runs
    runs=$( (grep -o 'gso_sends=[0-9]*' "$log" || true) | awk -F= '{ s += $2 } END { print s + 0 }')
    echo "netns: $runs GSO sends"
    (( runs > 0 )) || die "no run of datagrams went as one GSO buffer"
  fi
  echo "PASS netns $program"
}

cmd_outoftree() {
  [[ $# -ge 5 ]] || die "usage: outoftree PREFIX LIBDIR BACKEND_SRC C_PROGRAM WORK [CONFIG] [GENERATOR]"
  local prefix=$1 libdir=$2 backend_src=$3 program=$4 work=$5 config=${6:-Release} generator=${7:-}
  local name calls
  name=$(basename "$backend_src")
  calls=$(grep -c '^ *splitc_add_backend(' "$backend_src/CMakeLists.txt" || true)
  [[ $calls -eq 1 ]] || die "$backend_src/CMakeLists.txt has $calls splitc_add_backend calls, not one"

  # The copy lives outside the splitc tree (and outside its build tree).
  outoftree_tmp=$(mktemp -d "${TMPDIR:-/tmp}/splitc-outoftree.XXXXXX")
  trap 'rm -rf -- "$outoftree_tmp"' EXIT
  local tmp=$outoftree_tmp
  local src=$tmp/$name build=$tmp/build own=$work/prefix
  cp -r -- "$backend_src" "$src"
  rm -rf -- "$work"
  mkdir -p "$work"

  # Through the launcher of splitc's own build, if it has one (ccache). Every path a compile
  # names must then be the same from one run to the next, wherever this tree was cloned: the
  # package is reached through a link in the temporary directory, which is ccache's base
  # directory, so the copy, its build and the package's headers are all named relative to it.
  local launcher=() package=$prefix
  if [[ -n ${SPLITC_OUTOFTREE_LAUNCHER:-} ]]; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$SPLITC_OUTOFTREE_LAUNCHER"
              -DCMAKE_CXX_COMPILER_LAUNCHER="$SPLITC_OUTOFTREE_LAUNCHER")
    package=$tmp/package
    ln -s -- "$prefix" "$package"
    export CCACHE_BASEDIR=$tmp CCACHE_NOHASHDIR=1
  fi
  configure_against "$package" "$libdir" "$src" "$build" "$config" "$generator" \
    -DCMAKE_INSTALL_PREFIX="$own" -DCMAKE_C_COMPILER="${CC:-cc}" "${launcher[@]}"
  run "$CMAKE" --build "$build" --config "$config" -j 2
  local f
  for f in "libsplitc-$name.a" "splitc-run-$name" "splitc-bench-$name"; do
    [[ -n $(find "$build" -name "$f" -print -quit) ]] || die "the out-of-tree build made no $f"
  done
  # Its own tests (a job of one passes, a job of two fails with "no path to peer").
  run "$CTEST" --test-dir "$build" --output-on-failure -C "$config" \
    || die "the out-of-tree backend's own tests failed"
  (( $("$CTEST" --test-dir "$build" -N | grep -c 'Test *#') > 0 )) || die "the out-of-tree build registered no test"

  run "$CMAKE" --install "$build" --config "$config"
  for f in "$libdir/libsplitc-$name.a" "$libdir/pkgconfig/splitc-$name.pc" "bin/splitc-run-$name" \
           "bin/splitc-bench-$name" "include/splitc/backends/$name.hpp" \
           "include/splitc-$name/splitc/backend_selection.hpp"; do
    [[ -e $own/$f ]] || die "not installed: $own/$f"
  done
  if grep -q -- "$tmp" "$own/$libdir/pkgconfig/splitc-$name.pc"; then
    die "splitc-$name.pc names the temporary build directory"
  fi

  # A C program from the installed .pc files of both prefixes (this backend's
  # first), started by its installed launcher at P = 2.
  export PKG_CONFIG_PATH="$own/$libdir/pkgconfig:$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  local exe=$work/$(basename "$program" .c) flags
  flags=$("$PKG_CONFIG" --cflags --libs splitc-main "splitc-$name") \
    || die "pkg-config splitc-main splitc-$name failed"
  [[ " $flags " == *" -L$own/$libdir "* ]] || die "splitc-$name.pc does not name $own/$libdir: $flags"
  # shellcheck disable=SC2086  # the flags are meant to be split
  run "${CC:-cc}" -std=c11 -O2 "$program" $flags -o "$exe"
  local log=$work/run.log rc=0
  run "$own/bin/splitc-run-$name" -n 2 "$exe" >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc -ne 0 ]] || die "a job of 2 on $name exited with status 0"
  grep -q "no path to peer" "$log" || die "a job of 2 on $name did not fail with 'no path to peer'"

  # splitc-run --backend finds a launcher on PATH when none is beside it (a
  # backend installed in another prefix), and lists it among the known ones;
  # an unknown name is refused with that list. (The copy keeps the name
  # "template", whose installed launcher is beside splitc-run: the one on PATH
  # is a link named for a backend this installation lacks.)
  mkdir -p "$work/path"
  ln -sf "$own/bin/splitc-run-$name" "$work/path/splitc-run-elsewhere"
  rc=0
  PATH="$work/path:$PATH" run "$prefix/bin/splitc-run" --backend elsewhere -n 2 "$exe" \
    >"$log" 2>&1 || rc=$?
  cat "$log"
  grep -q "this launcher is for backend '$name', not 'elsewhere'" "$log" \
    || die "splitc-run --backend elsewhere did not start the launcher found on PATH"
  rc=0
  PATH="$work/path:$PATH" run "$prefix/bin/splitc-run" --backend no_such_backend -n 2 "$exe" \
    >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc -eq 2 ]] || die "an unknown backend gave status $rc, not 2"
  grep -q "unknown backend 'no_such_backend'.*known backends: .*elsewhere" "$log" \
    || die "the unknown-backend message does not list the launcher found on PATH"
  echo "PASS out-of-tree $name: built against $prefix, fails with 'no path to peer' at P = 2"
}

[[ $# -ge 1 ]] || die "usage: $0 install|cmake|pkgconfig|launcher|cprograms|outoftree|netns ARGS..."
step=$1
shift
case $step in
  install) cmd_install "$@" ;;
  cmake) cmd_cmake "$@" ;;
  pkgconfig) cmd_pkgconfig "$@" ;;
  launcher) cmd_launcher "$@" ;;
  cprograms) cmd_cprograms "$@" ;;
  outoftree) cmd_outoftree "$@" ;;
  netns) cmd_netns "$@" ;;
  *) die "unknown step '$step'" ;;
esac
