#!/usr/bin/env bash
# Makes scripts/sanitize.sh --check-targets meet a build that lacks a target it builds (a copy of
# BUILD's target list without smp's test driver) and passes only if the check fails naming it.
#
#   expect_sanitize_target_missing.sh SOURCE BUILD
set -uo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/CMakeFiles"
grep -v '/splitc-tests-smp[.]dir$' "$build/CMakeFiles/TargetDirectories.txt" \
  > "$work/CMakeFiles/TargetDirectories.txt"
out=$("$src/scripts/sanitize.sh" --check-targets "$work" 2>&1)
status=$?
echo "$out"
if [[ $status -ne 1 || $out != *"no target 'splitc-tests-smp' in"* ]]; then
  echo "expect_sanitize_target_missing: the check passed a build without splitc-tests-smp" >&2
  exit 1
fi
echo "the check found the missing target"
