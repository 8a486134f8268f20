#!/usr/bin/env bash
# Output forwarding: with SPLITC_UDP_LABEL=1 every line carries its processor
# number; a hosts file with a spawn template (here one that runs locally)
# goes through the same path.
#   label_test.sh SPLITC_RUN_UDP UDP_EXACT_PROGRAM
set -u
run=$1 prog=$2
fail() { echo "label_test: $*" >&2; exit 1; }

out=$(SPLITC_UDP_LABEL=1 timeout 100 "$run" -n 3 "$prog" 1 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "labelled run failed with status $rc"
grep -qx "\[0\] PASS udp_exact" <<<"$out" || fail "no '[0] PASS udp_exact' line"

hosts=$(mktemp)
trap 'rm -f "$hosts"' EXIT
printf 'hostA slots=2\nhostB\n' >"$hosts"
out=$(SPLITC_UDP_HOSTS=$hosts SPLITC_UDP_SPAWN='env SPLITC_TEST_HOST={host}' SPLITC_UDP_LISTEN=127.0.0.1 \
      timeout 100 "$run" -n 3 "$prog" 1 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || fail "hosts-file run failed with status $rc"
grep -qx "PASS udp_exact" <<<"$out" || fail "hosts-file run: no PASS line"
echo "PASS label_test"
