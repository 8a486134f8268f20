#!/usr/bin/env bash
# The ACL paper's Table 1 (one-word latency, P = 2) and Table 2 (1 KB messages on 32 PEs) in
# the T3D model's virtual time: acl_bench on t3d_sim (SPLITC_SIM_MACHINE=t3d), beside the
# seed's figures (Painter et al. 1995, §5). Virtual time does not depend on this machine's
# load; the wall time does (a few minutes at P = 32, many at P = 128: the sim's switch cost).
#
#   seed_tables.sh [--build DIR] [--procs P]   (P for Table 2; the seed's is 32)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$here/../../../build
procs=32
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --procs) procs=$2; shift 2 ;;
    *) echo "seed_tables.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
run=$build/tools/splitc-run-t3d_sim
bench=$build/layers/acl/bench/acl-bench-t3d_sim
[[ -x $run && -x $bench ]] || { echo "seed_tables.sh: build t3d_sim and acl-bench-t3d_sim first" >&2; exit 2; }
export SPLITC_SIM_MACHINE=t3d
value() {  # value P CASE METHOD SIZE REPS: the driver's value
  "$run" -n "$1" "$bench" -case "$2" -method "$3" -sizes "$4" -reps "$5" | awk '{ print $6 }'
}
echo "Table 1: one-word latency, P = 2, one way (virtual us)"
printf '%-16s %10s %10s\n' protocol t3d_sim seed
printf '%-16s %10.3g %10s\n' "ACLMPL (sync)" "$(value 2 latency sync 8 100)" "5 (4.5)"
printf '%-16s %10.3g %10s\n' "ACLMPL (async)" "$(value 2 latency async 8 100)" 10
printf '%-16s %10.3g %10s\n' "put + flag" "$(value 2 latency put 8 100)" ""
echo
echo "Table 2: 1 KB messages on $procs PEs (MB/s; broadcast and reduce in seconds)"
printf '%-10s %12s %10s %12s %10s %12s\n' case "ACL sync" seed "ACL async" seed "put + flag"
seed_sync=(19.00 61.90 74.00) seed_async=(7.93 36.43 60.61)
i=0
for kase in all_to_all all_to_one one_to_all; do
  printf '%-10s %12.4g %10s %12.4g %10s %12.4g\n' "$kase" "$(value "$procs" $kase sync 1024 20)" \
    "${seed_sync[$i]}" "$(value "$procs" $kase async 1024 20)" "${seed_async[$i]}" \
    "$(value "$procs" $kase put 1024 20)"
  i=$((i + 1))
done
printf '%-10s %12.4g %10s\n' broadcast "$(value "$procs" broadcast sync 1024 20)" 0.000076
printf '%-10s %12.4g %10s %12s %10s %12.4g\n' reduce "$(value "$procs" reduce sync 1024 20)" \
  0.000162 "" "" "$(value "$procs" reduce swap 1024 20)"
echo "(reduce, last column: binary swap)"
