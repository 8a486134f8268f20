#!/usr/bin/env bash
# Hosts made of network namespaces: a "switch" namespace with a bridge and
# three "hosts" attached by veth pairs (MTU 1500, so datagrams are sized for
# the path), each dropping 5% of incoming UDP with nftables. The launcher runs
# in the switch namespace and starts processes with the template
# "ip netns exec {host}". Results must be exact; loss must have happened.
# Exits 77 (skipped) unless root with `ip netns` and nft.
#   netns_test.sh SPLITC_RUN_UDP UDP_EXACT_PROGRAM [PROCS] [LOSS%]
set -u
run=$1 prog=$2 procs=${3:-4} loss=${4:-5}
skip() { echo "netns_test: skipped: $*"; exit 77; }
fail() { echo "netns_test: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || skip "not root"
command -v ip >/dev/null || skip "no ip command"
command -v nft >/dev/null || skip "no nft (apt-get install nftables)"

source "$(dirname "${BASH_SOURCE[0]}")/netns_hosts.sh"
make_hosts 3 "$loss"
start=$(date +%s%N)
out=$(ip netns exec "$sw" env SPLITC_UDP_HOSTS="$hostfile" SPLITC_UDP_SPAWN='ip netns exec {host}' \
        SPLITC_UDP_LISTEN="$net.1" SPLITC_UDP_STATS=1 SPLITC_UDP_LABEL=1 \
        timeout 250 "$run" -n "$procs" "$prog" 1 2>&1)
rc=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "$out"
echo "netns: $procs processes on ${#hosts_ns[@]} namespaces, ${loss}% loss: status $rc in ${elapsed_ms} ms"
for h in "${hosts_ns[@]}"; do
  echo "$h: $(ip netns exec "$h" nft list chain inet splitc_loss input 2>/dev/null | grep -o 'packets [0-9]*' | head -1) dropped by nftables"
done
[[ $rc -eq 0 ]] || fail "the job failed with status $rc"
grep -qx "\[0\] PASS udp_exact" <<<"$out" || fail "no PASS line"
if (( loss > 0 )); then
  retx=$(grep -o 'retransmits_\(timeout\|fast\)=[0-9]*' <<<"$out" | awk -F= '{s += $2} END {print s + 0}')
  (( retx > 0 )) || fail "no retransmissions although nftables dropped datagrams"
  echo "retransmissions: $retx"
fi
echo "PASS netns_test"
