# Sourced by the namespace tests (netns_test.sh, same_host_netns_test.sh): "hosts" made of
# network namespaces. make_hosts N LOSS makes a "switch" namespace ($sw) with a bridge at
# $net.1 and N host namespaces (${hosts_ns[@]}) attached by veth pairs (MTU 1500), each
# dropping LOSS% of incoming UDP with nftables when LOSS > 0 (tests/netns/udp_loss.sh);
# an EXIT trap deletes them.
# The caller defines skip and fail, and has checked for root, ip and (with loss) nft.
source "$(dirname "${BASH_SOURCE[0]}")/../../../tests/netns/udp_loss.sh"
tag=sc$$
sw=${tag}sw
net=10.213.$(( $$ % 200 + 20 ))
hosts_ns=()
cleanup_hosts() {
  for n in "$sw" "${hosts_ns[@]}"; do ip netns del "$n" 2>/dev/null; done
  rm -f "${hostfile:-}"
}
make_hosts() {
  local count=$1 loss=$2 i h
  for ((i = 0; i < count; ++i)); do hosts_ns+=("${tag}h$i"); done
  trap cleanup_hosts EXIT
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
      add_udp_loss "$h" "$loss" || fail "nft rule failed"
    fi
    i=$((i + 1))
  done
  # The bridge needs a moment to forward.
  for h in "${hosts_ns[@]}"; do
    ip netns exec "$h" ping -c1 -W2 "$net.1" >/dev/null 2>&1 || true
  done
  hostfile=$(mktemp)
  printf '%s\n' "${hosts_ns[@]}" >"$hostfile"
}
