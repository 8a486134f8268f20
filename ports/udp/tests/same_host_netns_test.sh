#!/usr/bin/env bash
# One udp job across two "hosts" made of network namespaces (netns_hosts.sh), four
# processes round-robin: processors 0 and 2 in one namespace, 1 and 3 in the other. The
# same-host layer must pair exactly 0-2 and 1-3 (its sockets are scoped by the namespace),
# and every program given must pass with shared-memory pairs and network pairs in one job.
# Exits 77 (skipped) unless root with `ip netns`.
#   same_host_netns_test.sh SPLITC_RUN_UDP PROGRAM...
set -u
run=$1
shift
skip() { echo "same_host_netns_test: skipped: $*"; exit 77; }
fail() { echo "same_host_netns_test: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || skip "not root"
command -v ip >/dev/null || skip "no ip command"

source "$(dirname "${BASH_SOURCE[0]}")/netns_hosts.sh"
make_hosts 2 0
for prog in "$@"; do
  name=$(basename "$prog")
  out=$(ip netns exec "$sw" env SPLITC_UDP_HOSTS="$hostfile" SPLITC_UDP_SPAWN='ip netns exec {host}' \
          SPLITC_UDP_LISTEN="$net.1" SPLITC_VERBOSE=1 timeout 200 "$run" -n 4 "$prog" 2>&1)
  rc=$?
  echo "$out"
  [[ $rc -eq 0 ]] || fail "$name: the job failed with status $rc"
  grep -q "^PASS " <<<"$out" || fail "$name: no PASS line"
  for pair in "0 0, 2" "2 0, 2" "1 1, 3" "3 1, 3"; do
    read -r p others <<<"$pair"
    grep -q "processor $p of 4: udp: shares memory with processors $others (2 on this host); messages between them over shared-memory rings" <<<"$out" ||
      fail "$name: processor $p does not share memory and rings with exactly processors $others"
  done
  echo "same_host_netns_test: $name passed with pairs 0-2 and 1-3 in shared memory (rings for their messages)"
done
echo "PASS same_host_netns_test"
