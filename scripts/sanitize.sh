#!/usr/bin/env bash
# The sanitizer builds and their tests: AddressSanitizer + UndefinedBehaviorSanitizer (with
# LeakSanitizer, on by default with ASan) in build-asan, ThreadSanitizer in build-tsan. Each is
# its own build directory configured with Ninja (which keeps the Ninja generator working).
#
#   scripts/sanitize.sh [--full] [--repeat N] [asan] [tsan]
#
# Without --full (what scripts/test.sh --full runs first): a chosen subset, built and run in
# about a quarter of an hour: the unit tests, udp's engine tests, a few generic programs at
# P = 2 on smp and udp, and at P = 4 on three seed machines' ports over their emulated layers,
# cmaml (the CM-5), hpam and t3d, the teams program among them, and smp's collectives' one copy
# at P = 3, allowed and refused (ASan+UBSan); udp's engine tests
# and two udp jobs (TSan: the udp backend is where a process has more than one thread). With
# --full: every test program of every backend at every process count under each sanitizer (the
# benchmarks and examples too), each test up to N times (--repeat, default 2) until it fails:
# hours on two cores.
# With no sanitizer named: asan and tsan.
#
#   scripts/sanitize.sh --check-targets BUILD
#
# builds nothing: checks that every target the subsets name is a target of the configured
# build BUILD (the ctest docs.sanitize_targets, so that a renamed target is found when it is
# renamed, not at the next sanitizer run).
#
# The spread heap must lie where the sanitizer lets a program map memory (docs/running.md):
# ASan's shadow covers the default SPLITC_SEGMENT_BASE (0x100000000000), TSan maps
# application memory only in a few ranges; each build runs with the base that works for it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

full=0 repeat=2 which=() check_build=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --full) full=1; shift ;;
    --repeat) repeat=$2; shift 2 ;;
    --check-targets) check_build=$2; shift 2 ;;
    asan|tsan) which+=("$1"); shift ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "sanitize.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[[ ${#which[@]} -gt 0 ]] || which=(asan tsan)

# Tests of the default subset (ctest -R) and the targets they need.
asan_tests='^(unit\..*|udp\.unit\..*|udp\.exact\.p2|udp\.impair\.p2|(smp|udp)\.(runtime_basics|global_memory|bulk|active_messages|atomics|collectives|teams)\.p2|smp\.collective_one_copy\.(on|refused)\.p3|(cmaml|hpam|t3d)\.(conformance|random_mix|bulk|global_memory|collectives|teams)\.p4)$'
tsan_tests='^(udp\.unit\..*|udp\.exact\.p2|udp\.atomics\.p2)$'
# The test programs of a backend are one executable, its test driver (cmake/SplitcTests.cmake),
# and each job runs under the suite's runner, splitc-expect; the unit tests' executables (every
# target named unit_*) are added from the configured build.
asan_targets=(splitc-expect splitc-run splitc-run-udp udp_engine_test udp_exact splitc-tests-smp
              splitc-tests-udp splitc-run-smp splitc-run-cmaml splitc-tests-cmaml splitc-run-hpam
              splitc-tests-hpam splitc-run-t3d splitc-tests-t3d)
tsan_targets=(splitc-expect splitc-run-udp udp_engine_test udp_exact splitc-tests-udp)

# The targets of the configured build DIR, one per line (CMake writes one directory per target,
# whichever the generator).
targets_of() {
  sed -n 's|.*/CMakeFiles/\([^/]*\)\.dir$|\1|p' "$1/CMakeFiles/TargetDirectories.txt"
}
# The unit tests' targets of the configured build DIR.
unit_targets_of() {
  targets_of "$1" | grep '^unit_' | sort
}

if [[ -n $check_build ]]; then
  [[ -f $check_build/CMakeFiles/TargetDirectories.txt ]] ||
    { echo "sanitize.sh: $check_build is not a configured build directory" >&2; exit 2; }
  known=$(targets_of "$check_build")
  missing=0
  for t in "${asan_targets[@]}" "${tsan_targets[@]}"; do
    grep -qx -- "$t" <<<"$known" ||
      { echo "sanitize.sh: no target '$t' in $check_build" >&2; missing=1; }
  done
  [[ -n $(unit_targets_of "$check_build") ]] ||
    { echo "sanitize.sh: no unit_* target in $check_build" >&2; missing=1; }
  (( missing == 0 )) && echo "sanitize.sh: every target of the subsets is in $check_build"
  exit $missing
fi

# Objects kept between runs as scripts/build.sh keeps them (the sanitizers' flags make them
# entries of their own), so that a second run after a change rebuilds only what it touched.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache-splitc} CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

status=0
for s in "${which[@]}"; do
  dir=build-$s
  case $s in
    asan)
      flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
      # Above ASan's high shadow, which ends at 0x10007fff8000.
      export SPLITC_SEGMENT_BASE=0x200000000000
      export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=0
      export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
      tests=$asan_tests targets=("${asan_targets[@]}")
      ;;
    tsan)
      flags="-fsanitize=thread -fno-omit-frame-pointer"
      # TSan maps application memory only at 0x1000-0x8000000000, 0x550000000000-
      # 0x568000000000 (PIE binaries) and 0x7e8000000000-0x800000000000 (libraries,
      # stacks; mmap without an address lands near the top, far above this).
      export SPLITC_SEGMENT_BASE=0x7e8000000000
      export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
      unset ASAN_OPTIONS UBSAN_OPTIONS
      tests=$tsan_tests targets=("${tsan_targets[@]}")
      ;;
  esac
  extra=(-DSPLITC_BUILD_BENCH=OFF -DSPLITC_BUILD_EXAMPLES=OFF "${launcher[@]}")
  [[ $full -eq 1 ]] && extra=(-DSPLITC_BUILD_BENCH=ON -DSPLITC_BUILD_EXAMPLES=ON "${launcher[@]}")
  echo "== $s: configuring $dir (Ninja, $flags)"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
        -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" "${extra[@]}" >/dev/null
  start=$(date +%s)
  if [[ $full -eq 1 ]]; then
    cmake --build "$dir" -j2
    ctest --test-dir "$dir" --output-on-failure -j2 --timeout 900 \
          --repeat "until-fail:$repeat" || status=1
  else
    [[ $s == asan ]] && mapfile -t -O "${#targets[@]}" targets < <(unit_targets_of "$dir")
    cmake --build "$dir" -j2 --target "${targets[@]}"
    ctest --test-dir "$dir" --output-on-failure -j2 --timeout 600 --no-tests=error -R "$tests" ||
      status=1
  fi
  echo "== $s: $(( $(date +%s) - start )) s (build and tests)"
done
exit $status
