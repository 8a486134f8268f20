#!/usr/bin/env bash
# A negative compile test: FILE must compile with -DSPLITC_NEG_CONTROL (the
# correct form, so the test cannot pass on an unrelated error) and must fail
# to compile without it, with a diagnostic matching the ERE on the file's
# "// diagnostic: " line.
#
#   expect_compile_error.sh FILE -- COMPILER [FLAGS...]
set -u
file=$1
shift
[[ ${1:-} == -- ]] && shift
regex=$(sed -n 's|^// diagnostic: ||p' "$file" | head -n 1)
if [[ -z $regex ]]; then
  echo "neg: $file has no '// diagnostic: ' line" >&2
  exit 2
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

if ! "$@" -fsyntax-only -DSPLITC_NEG_CONTROL "$file" > "$out" 2>&1; then
  cat "$out"
  echo "neg: FAIL: the correct form (SPLITC_NEG_CONTROL) does not compile" >&2
  exit 1
fi
if "$@" -fsyntax-only "$file" > "$out" 2>&1; then
  echo "neg: FAIL: $file compiled; it must not" >&2
  exit 1
fi
if ! grep -qE -- "$regex" "$out"; then
  cat "$out"
  echo "neg: FAIL: the compiler refused it, but no diagnostic matches: $regex" >&2
  exit 1
fi
grep -E -m 1 -- "$regex" "$out"
echo "neg: ok (refused as expected)"
