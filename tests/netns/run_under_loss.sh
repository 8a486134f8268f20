#!/usr/bin/env bash
# A job of a backend on UDP (udp, hpam) inside a new network namespace whose loopback drops
# LOSS % of incoming UDP datagrams (nftables, udp_loss.sh beside this script, as for
# ports/udp/tests and tests/packaging), at P = 4: the program must pass (its "PASS NAME"
# line), nftables must have dropped datagrams and the layer must have retransmitted (the
# counters SPLITC_UDP_STATS / HPAM_STATS print). Exits 77 (skipped) unless root with
# `ip netns` and nft. Used by ports/hpam/tests and layers/mpi/tests.
#   run_under_loss.sh SPLITC_RUN PROGRAM NAME [LOSS%] [ARGS...]
set -u
source "$(dirname "${BASH_SOURCE[0]}")/udp_loss.sh"
run=$1 prog=$2 name=$3 loss=${4:-5}
shift 4 2>/dev/null || shift $#
skip() { echo "run_under_loss: skipped: $*"; exit 77; }
fail() { echo "run_under_loss: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || skip "not root"
command -v ip >/dev/null || skip "no ip command"
command -v nft >/dev/null || skip "no nft (apt-get install nftables)"
ns=splitc_loss$$
ip netns add "$ns" 2>/dev/null || skip "cannot create a network namespace"
trap 'ip netns del "$ns" 2>/dev/null' EXIT
ip -n "$ns" link set lo up || fail "cannot bring up the namespace's loopback"
add_udp_loss "$ns" "$loss" || fail "the nftables rule failed"
out=$(ip netns exec "$ns" env SPLITC_UDP_STATS=1 HPAM_STATS=1 timeout 250 "$run" -n 4 "$prog" "$@" 2>&1)
rc=$?
echo "$out"
dropped=$(udp_loss_dropped "$ns")
retx=$( (grep -o 'retransmits_\(timeout\|fast\)=[0-9]*' <<<"$out" || true) |
        awk -F= '{ s += $2 } END { print s + 0 }')
echo "run_under_loss: ${loss}% loss on loopback: $dropped datagrams dropped, $retx retransmissions, status $rc"
[[ $rc -eq 0 ]] || fail "the job failed with status $rc"
grep -qx "PASS $name" <<<"$out" || fail "no 'PASS $name' line"
(( dropped > 0 )) || fail "nftables dropped nothing: the loss was not applied"
(( retx > 0 )) || fail "no retransmissions although datagrams were dropped"
echo "PASS run_under_loss"
