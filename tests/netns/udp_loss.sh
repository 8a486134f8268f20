# Loss of UDP datagrams in a network namespace, for the tests that run jobs
# under loss (tests/packaging/check_packaging.sh, run_under_loss.sh beside this file,
# ports/udp/tests/netns_hosts.sh). Sourced, not run.
#
#   add_udp_loss NAMESPACE LOSS   nftables drops LOSS % of the UDP datagrams arriving in
#                                 the namespace: every (100 / LOSS)-th, from the first (a
#                                 LOSS that does not divide 100: the first LOSS of every
#                                 100). Deterministic, so that a short job loses some too:
#                                 a random rule at 5 % left a job of 45 datagrams untouched
#                                 about one run in ten, and its test failed.
#   udp_loss_dropped NAMESPACE    how many datagrams the rule has dropped so far
add_udp_loss() {
  local ns=$1 loss=$2 rule
  if (( 100 % loss == 0 )); then
    rule=(numgen inc mod $((100 / loss)) 0)
  else
    rule=(numgen inc mod 100 '<' "$loss")
  fi
  ip netns exec "$ns" nft add table inet splitc_loss &&
    ip netns exec "$ns" nft add chain inet splitc_loss input \
      '{ type filter hook input priority 0; }' &&
    ip netns exec "$ns" nft add rule inet splitc_loss input meta l4proto udp "${rule[@]}" \
      counter drop
}

udp_loss_dropped() {
  ip netns exec "$1" nft list chain inet splitc_loss input 2>/dev/null | grep -o 'packets [0-9]*' |
    awk '{ s += $2 } END { print s + 0 }'
}
