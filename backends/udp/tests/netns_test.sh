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

tag=sc$$
sw=${tag}sw
hosts_ns=(${tag}h0 ${tag}h1 ${tag}h2)
net=10.213.$(( $$ % 200 + 20 ))
cleanup() {
  for n in "$sw" "${hosts_ns[@]}"; do ip netns del "$n" 2>/dev/null; done
  rm -f "${hostfile:-}"
}
trap cleanup EXIT
ip netns add "$sw" 2>/dev/null || skip "cannot create network namespaces"
ip -n "$sw" link set lo up
ip -n "$sw" link add br0 type bridge
ip -n "$sw" addr add "$net.1/24" dev br0
ip -n "$sw" link set br0 up
i=0
for h in "${hosts_ns[@]}"; do
  ip netns add "$h" || fail "cannot create namespace $h"
  ip link add "${tag}a$i" type veth peer name "${tag}b$i" || fail "cannot create a veth pair"
  ip link set "${tag}a$i" netns "$h"
  ip link set "${tag}b$i" netns "$sw"
  ip -n "$h" link set "${tag}a$i" name eth0
  ip -n "$h" addr add "$net.$((10 + i))/24" dev eth0
  ip -n "$h" link set eth0 up
  ip -n "$h" link set lo up
  ip -n "$sw" link set "${tag}b$i" master br0
  ip -n "$sw" link set "${tag}b$i" up
  if (( loss > 0 )); then
    ip netns exec "$h" nft add table inet splitc_loss
    ip netns exec "$h" nft add chain inet splitc_loss input '{ type filter hook input priority 0; }'
    ip netns exec "$h" nft add rule inet splitc_loss input meta l4proto udp numgen random mod 100 '<' "$loss" counter drop \
      || fail "nft rule failed"
  fi
  i=$((i + 1))
done
# The bridge needs a moment to forward.
for h in "${hosts_ns[@]}"; do
  ip netns exec "$h" ping -c1 -W2 "$net.1" >/dev/null 2>&1 || true
done

hostfile=$(mktemp)
printf '%s\n' "${hosts_ns[@]}" >"$hostfile"
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
