#!/usr/bin/env bash
# Compile-only checks of splitc.h with a given C compiler (ctest, label
# c_interface; tests/c_interface/CMakeLists.txt):
#
#   compile_check.sh clean CC INCLUDE FILE
#       FILE must compile under -std=c11 -pedantic -Wall -Wextra with no
#       diagnostic at all (not even a warning).
#   compile_check.sh fail CC INCLUDE FILE REGEX
#       FILE must NOT compile, and the compiler's message must match REGEX
#       (a mistake the header promises to stop at compile time).
set -u
die() { echo "compile_check: FAIL: $*" >&2; exit 1; }
[[ $# -ge 4 ]] || die "usage: compile_check.sh clean|fail CC INCLUDE FILE [REGEX]"
mode=$1 cc=$2 inc=$3 file=$4 regex=${5:-}
flags=(-std=c11 -pedantic -Wall -Wextra -Wstrict-prototypes -I"$inc" -fsyntax-only)
echo "+ $cc ${flags[*]} $file"
out=$("$cc" "${flags[@]}" "$file" 2>&1)
rc=$?
echo "$out"
case $mode in
  clean)
    [[ $rc -eq 0 ]] || die "$file does not compile with $cc (status $rc)"
    [[ -z $out ]] || die "$cc printed diagnostics for $file"
    echo "PASS compile_check clean $(basename "$file") ($cc)" ;;
  fail)
    [[ -n $regex ]] || die "fail needs a REGEX"
    [[ $rc -ne 0 ]] || die "$file compiled with $cc, but it must be rejected"
    grep -qE -- "$regex" <<<"$out" || die "the diagnostic does not match: $regex"
    echo "PASS compile_check fail $(basename "$file") ($cc)" ;;
  *) die "unknown mode '$mode'" ;;
esac
