#!/usr/bin/env bash
# check_port_surface.sh on port_surface_fixture/ (a port that includes the core's internals
# and another port's header, by name and by relative path) must fail, naming all three.
#   expect_port_surface_breaches.sh TESTS_DOCS_DIR
set -u
here=${1:?usage: expect_port_surface_breaches.sh TESTS_DOCS_DIR}
out=$(bash "$here/check_port_surface.sh" "$here/port_surface_fixture" 2>&1)
status=$?
echo "$out"
fail() { echo "FAIL: $1"; exit 1; }
((status != 0)) || fail "the check passed a port that includes what it must not"
grep -q 'bad_backend.cpp:2: includes <splitc/detail/context.hpp>' <<<"$out" || fail "detail/ not reported"
grep -q 'bad_backend.cpp:3: includes <other_port.hpp>: a header of ports/other' <<<"$out" ||
  fail "another port's header not reported"
grep -q 'bad_backend.cpp:4: includes "../../other/include/other_port.hpp": a file outside ports/bad/' <<<"$out" ||
  fail "a relative path out of the port not reported"
! grep -q 'bad_backend.cpp:5' <<<"$out" || fail "the porter's surface reported"
echo "PASS: every breach reported"
