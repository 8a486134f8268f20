#!/usr/bin/env bash
# Runs a command with N busy loops beside it, standing for other programs that hold the cores
# (a build, another job): on this 2-core machine two of them make every yield slow, so a
# job's waits take the paths they take on a shared host (docs/running.md, "Beside other
# programs"). The loops end with the command, and after 300 s whatever happens.
#   beside_busy_loops.sh N COMMAND...
set -u
n=$1
shift
loops=""
for _ in $(seq 1 "$n"); do
  timeout 300 sh -c 'while :; do :; done' &
  loops="$loops $!"
done
trap 'kill $loops 2>/dev/null' EXIT
"$@"
