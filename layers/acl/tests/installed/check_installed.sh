#!/usr/bin/env bash
# ACLMPL as an installed package is used (run by ctest from tests/packaging, after
# packaging.install has filled PREFIX):
#
#   check_installed.sh PREFIX LIBDIR WORK BACKEND
#
# checks that the headers and the pkg-config module are installed, then builds as a user
# would, with `cc $(pkg-config --cflags --libs aclmpl-BACKEND)`: the layer's test program
# (tests/acl_calls.c) in one step, and the era's two-file CMMD program (tests/era, gnu89, the
# layer's own main) compiled with -c and linked apart, and again by its own Makefile. Each runs
# under PREFIX/bin/splitc-run --backend BACKEND -n 3 and must exit 0 printing its PASS line.
set -euo pipefail
[[ $# -ge 4 ]] || { echo "usage: check_installed.sh PREFIX LIBDIR WORK BACKEND" >&2; exit 2; }
prefix=$1 libdir=$2 work=$3 backend=$4
tests=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "check_installed: $*" >&2; exit 1; }
run() { echo "+ $*" >&2; "$@"; }

for h in aclmpl.h aclmpl_cmmd.h; do
  [[ -f $prefix/include/$h ]] || die "no $prefix/include/$h"
done
[[ -f $prefix/$libdir/pkgconfig/aclmpl-$backend.pc ]] ||
  die "no aclmpl-$backend.pc in $prefix/$libdir/pkgconfig"
rm -rf -- "$work"
mkdir -p "$work"

expect_pass() {  # expect_pass NAME P PROGRAM [ARGS...]
  local name=$1 p=$2 log=$work/$1-$2.log rc=0
  shift 2
  run timeout 200 "$prefix/bin/splitc-run" --backend "$backend" -n "$p" "$@" >"$log" 2>&1 || rc=$?
  cat "$log"
  [[ $rc -eq 0 ]] || die "$* on $backend at P = $p exited with status $rc"
  grep -qx "PASS $name" "$log" || die "$* on $backend printed no 'PASS $name'"
}

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pc() { "${PKG_CONFIG:-pkg-config}" "$@" "aclmpl-$backend"; }
# shellcheck disable=SC2046 # pkg-config's flags are word lists
run "${CC:-cc}" -O2 -o "$work/calls" "$tests/acl_calls.c" $(pc --cflags --libs)
expect_pass acl_calls 3 "$work/calls"

# shellcheck disable=SC2046
run "${CC:-cc}" -std=gnu89 -w $(pc --cflags) -c -o "$work/node.o" "$tests/era/node.c"
# shellcheck disable=SC2046
run "${CC:-cc}" -std=gnu89 -w $(pc --cflags) -c -o "$work/exchange.o" "$tests/era/exchange.c"
# shellcheck disable=SC2046
run "${CC:-cc}" -o "$work/era" "$work/node.o" "$work/exchange.o" $(pc --libs)
expect_pass acl_era 3 "$work/era"

# The era's way: its Makefile (suffix rules, cc, the flags from pkg-config), run from another
# directory.
mkdir -p "$work/make"
run make -C "$work/make" -f "$tests/era/Makefile" VPATH="$tests/era" ACLMPL="aclmpl-$backend"
expect_pass acl_era 3 "$work/make/node"
echo "PASS installed aclmpl $backend"
