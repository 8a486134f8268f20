#!/usr/bin/env bash
# A segment that fits this machine's memory while the symmetric heaps of two PEs on it do not
# is refused by shmem before OpenSHMEM allocates anything (issue 45), naming the limit.
#   heaps_exceed_host.sh SPLITC_EXPECT SPLITC_RUN_SHMEM PROGRAM
set -u
expect=$1 run=$2 program=$3
kib=$(awk '/^(MemTotal|SwapTotal):/ { s += $2 } END { print s }' /proc/meminfo)
size=$((kib * 3 / 4 / 1024))M  # three quarters of RAM and swap: two of them are too many
exec "$expect" failure \
  --regex "shmem: 2 symmetric heaps of [0-9.]+ [KMGT]iB .* on this host are more than its memory \\([0-9.]+ [KMGT]iB of RAM and " \
  -- env SPLITC_SEGMENT_SIZE="$size" "$run" -n 2 "$program"
