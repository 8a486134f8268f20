#!/usr/bin/env bash
# The steps of the splitcc tests (tests/splitcc/CMakeLists.txt), each run by
# ctest against an install of this build tree (the installed splitcc, headers,
# pkg-config files and splitc-run, as a user has them):
#   install BUILD PREFIX              cmake --install BUILD --prefix PREFIX
#   build PREFIX BACKEND OUT FLAGS... SRC...   splitcc [FLAGS] SRC... -o OUT
#   separate PREFIX WORKDIR SRC        -c then link, with -keep: the generated
#                                      C is left next to the object and reads
#                                      as the program (its functions, the
#                                      C interface's inlined calls)
#   reject PREFIX FILE                 splitcc must fail, printing the line
#                                      FILE's first line names after "expect:"
#   make PREFIX SRCDIR WORKDIR         an old-style Makefile through
#                                      Make.split-c, run with splitc-run -n 4
#   era PREFIX SRCDIR WORKDIR MPL      a Split-C program's own Makefile
#                                      (MPL := CMMD) through Make.split-c, as
#                                      written (MPL CMMD) or with MPL=...
#   mpl-names PREFIX SRCDIR WORKDIR TABLE
#                                      every historical MPL name of TABLE links
#                                      for its backend, and splitc-run with no
#                                      --backend runs it at P = 2
#   warns PREFIX FILE REGEX FLAGS...   splitcc FLAGS -c FILE succeeds and
#                                      warns with a line matching REGEX
#   cmake PREFIX LIBDIR PROJECT PROGRAMS WORKDIR
#                                      a CMake project through
#                                      SplitcSplitC.cmake, run at P = 3
#   compare SPLITC_COMMAND... --reference CXX_COMMAND...
#                                      runs both (each under `timeout`,
#                                      SPLITC_TEST_TIMEOUT seconds, default
#                                      55); both must exit 0 and print the
#                                      same lines starting "result ", and
#                                      at least one
set -euo pipefail
# The programs built here are run, never debugged: linked without the libraries' debug
# information (a tenth of the disk and of the link's output).
strip_debug=-Wl,--strip-debug
step=$1
shift
case $step in
  install)
    rm -rf "$2"
    cmake --install "$1" --prefix "$2" > /dev/null
    # (the libraries without their debug information, as in the packaging tests' install)
    find "$2" -name '*.a' -exec strip --strip-debug {} +
    ;;
  build)
    prefix=$1 backend=$2 out=$3
    shift 3
    mkdir -p "$(dirname "$out")"
    "$prefix/bin/splitcc" -backend "$backend" -Wall -O2 "$@" -o "$out" $strip_debug
    ;;
  separate)
    prefix=$1 work=$2 src=$3
    rm -rf "$work" && mkdir -p "$work" && cd "$work"
    "$prefix/bin/splitcc" -keep -O2 -c "$src" -o prog.o
    "$prefix/bin/splitcc" -o prog prog.o
    gen=prog.splitc.c
    [[ -f $gen ]] || { echo "separate: -keep left no $gen" >&2; exit 1; }
    for want in 'splitcc_user_main' '__d_get(' '__d_store(' 'splitc_sync()' 'all_compute_E_store'; do
      grep -qF "$want" "$gen" || { echo "separate: the generated C has no '$want'" >&2; exit 1; }
    done
    "$prefix/bin/splitc-run" -n 3 ./prog
    ;;
  reject)
    prefix=$1 file=$2
    expect=$(sed -n '1s/^\/\* expect: \(.*\) \*\/$/\1/p' "$file")
    [[ -n $expect ]] || { echo "reject: $file has no '/* expect: ... */' first line" >&2; exit 1; }
    cd "$(dirname "$file")"
    set +e
    out=$("$prefix/bin/splitcc" -c "$(basename "$file")" -o /dev/null 2>&1)
    status=$?
    set -e
    echo "$out"
    if ((status == 0)); then echo "reject: splitcc accepted $file" >&2; exit 1; fi
    grep -qE -- "$expect" <<<"$out" || { echo "reject: no line matching: $expect" >&2; exit 1; }
    ;;
  make)
    prefix=$1 src=$2 work=$3
    rm -rf "$work" && mkdir -p "$work" && cp "$src"/* "$work"/ && cd "$work"
    make CASTLE="$prefix"
    target=$(sed -n 's/^TARGET[[:space:]]*=[[:space:]]*//p' Makefile)
    out=$("$prefix/bin/splitc-run" -n 4 "./$target")
    echo "$out"
    grep -qx "PASS $target" <<<"$out"
    ;;
  era)
    # era PREFIX SRC WORK MPL: the program's own Makefile, as written for CMMD, else with MPL=...
    prefix=$1 src=$2 work=$3 mpl=$4
    rm -rf "$work" && mkdir -p "$work" && cp "$src"/* "$work"/ && cd "$work"
    if [[ $mpl == CMMD ]]; then make CASTLE="$prefix" LDFLAGS=$strip_debug
    else make CASTLE="$prefix" MPL="$mpl" LDFLAGS=$strip_debug; fi
    ;;
  mpl-names)
    # mpl-names PREFIX SRC WORK MAKEFILE: each MPL name of MAKEFILE's splitc_mpl_map (NAME:backend
    # pairs: Make.split-c) links the program for its backend (read back from the program's
    # file) and splitc-run with no --backend runs it.
    prefix=$1 src=$2 work=$3 table=$4
    rm -rf "$work" && mkdir -p "$work" && cp "$src"/* "$work"/ && cd "$work"
    make CASTLE="$prefix" MPL=smp LDFLAGS=$strip_debug > /dev/null
    pcdir=$(dirname "$(find "$prefix" -name splitc-smp.pc | head -1)")
    failed=0
    count=0
    while IFS=: read -r name backend <&3; do
      [[ -z $name ]] && continue
      count=$((count + 1))
      expect=$backend
      [[ -f $pcdir/splitc-$backend.pc ]] || expect=smp
      make CASTLE="$prefix" MPL="$name" TARGET="era_$name" LDFLAGS=$strip_debug > "build_$name.log" 2>&1 ||
        { cat "build_$name.log"; echo "MPL=$name: the build failed"; failed=1; continue; }
      linked=$(grep -a -o 'splitc-linked-backend=[A-Za-z0-9_]*' "era_$name" | sed 's/.*=//' | grep -v '^$' | head -1)
      out=$(timeout --kill-after=5 120 "$prefix/bin/splitc-run" -n 2 "./era_$name" 2>&1) || true
      if [[ $linked != "$expect" ]] || ! grep -qx "PASS sort" <<<"$out"; then
        echo "$out"
        echo "MPL=$name: linked with '$linked' (expected '$expect'), output above"
        failed=1
      else
        echo "MPL=$name -> $linked: PASS sort"
      fi
    done 3< <(sed -n 's/^splitc_mpl_map :=//p' "$table" | tr ' ' '\n')
    ((count > 0)) || { echo "mpl-names: no MPL name in $table"; failed=1; }
    exit $failed
    ;;
  warns)
    prefix=$1 file=$2 regex=$3
    shift 3
    cd "$(dirname "$file")"
    out=$("$prefix/bin/splitcc" "$@" -c "$(basename "$file")" -o /dev/null 2>&1)
    echo "$out"
    grep -qE -- "$regex" <<<"$out" || { echo "warns: no line matching: $regex" >&2; exit 1; }
    ;;
  cmake)
    prefix=$1 libdir=$2 project=$3 programs=$4 work=$5
    rm -rf "$work"
    cmake -S "$project" -B "$work" -DSPLITC_PREFIX="$prefix" -DSPLITC_LIBDIR="$libdir" \
      -DSPLITC_PROGRAMS="$programs" > /dev/null
    cmake --build "$work"
    "$prefix/bin/splitc-run" -n 3 "$work/em3d"
    ;;
  compare)
    sc=()
    while (($# > 0)) && [[ $1 != --reference ]]; do sc+=("$1"); shift; done
    (($# > 1 && ${#sc[@]} > 0)) || { echo "compare: usage: compare CMD... --reference CMD..." >&2; exit 2; }
    shift
    ref=("$@")
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    limit=${SPLITC_TEST_TIMEOUT:-55}
    failed=0
    # run SIDE COMMAND...: its output in $work/SIDE.out, its result lines in $work/SIDE.result.
    run() {
      local side=$1 status
      shift
      set +e
      timeout --kill-after=5 "$limit" "$@" > "$work/$side.out" 2>&1
      status=$?
      set -e
      echo "---- $side: $*"
      cat "$work/$side.out"
      grep '^result ' "$work/$side.out" > "$work/$side.result" || true
      if ((status == 124)); then
        echo "compare: the $side side did not finish within ${limit}s: $*" >&2
        failed=1
      elif ((status != 0)); then
        echo "compare: the $side side exited with status $status: $*" >&2
        failed=1
      elif [[ ! -s $work/$side.result ]]; then
        echo "compare: the $side side printed no 'result' line: $*" >&2
        failed=1
      fi
    }
    run Split-C "${sc[@]}"
    run C++ "${ref[@]}"
    ((failed == 0)) || exit 1
    if ! cmp -s "$work/Split-C.result" "$work/C++.result"; then
      echo "compare: the result lines differ (- the Split-C program, + the C++ reference):" >&2
      diff -u --label "Split-C: ${sc[*]}" --label "C++: ${ref[*]}" \
        "$work/Split-C.result" "$work/C++.result" >&2 || true
      exit 1
    fi
    echo "compare: $(wc -l < "$work/C++.result") result lines, the same on both sides"
    ;;
  *) echo "splitcc_test.sh: unknown step $step" >&2; exit 2 ;;
esac
