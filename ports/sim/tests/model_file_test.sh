#!/usr/bin/env bash
# ctest: splitc-bench's figures on a machine model file follow the file's parameters
# (docs/sim-machines.md, "A machine of your own"). Runs BENCH through RUN with
# SPLITC_SIM_MACHINE=MODEL, no charge for computation (SPLITC_SIM_CALL_NS=0), then checks
# each row given as PART/NAME/SIZE=NS against the time the LogGP model predicts, within
# 0.5 % or the fraction given after a `~` (bandwidth rows, MB/s, are turned into the time of
# one transfer).
#
#   model_file_test.sh RUN BENCH PROCS MODEL OUT "BENCH ARGS" PART/NAME/SIZE=NS[~FRACTION]...
set -u
run=$1 bench=$2 procs=$3 model=$4 out=$5 args=$6
shift 6
rm -rf "$out"
# shellcheck disable=SC2086 # the bench's arguments are words
if ! SPLITC_SIM_MACHINE=$model SPLITC_SIM_CALL_NS=0 "$run" -n "$procs" "$bench" $args \
       --no-progress --no-plots --out "$out" > "$out.log" 2>&1; then
  cat "$out.log"
  echo "FAIL: splitc-bench did not run on the model $model"
  exit 1
fi
grep -q "machine model $model" "$out.log" || { cat "$out.log"; echo "FAIL: the bench does not name the model"; exit 1; }
failed=0
for check in "$@"; do
  key=${check%%=*} want=${check#*=} within=0.005
  if [[ $want == *"~"* ]]; then within=${want#*"~"} want=${want%%"~"*}; fi
  IFS=/ read -r part name size <<<"$key"
  line=$(awk -F, -v p="$part" -v n="$name" -v s="$size" \
           '$1 == p && $2 == n && $3 == "splitc" && $6 == s { print $7, $8; exit }' "$out/results.csv")
  if [[ -z $line ]]; then
    echo "FAIL: no row $key in $out/results.csv"
    failed=1
    continue
  fi
  read -r value unit <<<"$line"
  verdict=$(awk -v v="$value" -v u="$unit" -v s="$size" -v w="$want" -v t="$within" 'BEGIN {
      ns = (u == "MB/s") ? s * 1000 / v : v
      d = (ns - w) / w; if (d < 0) d = -d
      printf "%s %.1f", (d <= t ? "ok" : "FAIL"), ns }')
  read -r status ns <<<"$verdict"
  echo "$status: $key: $ns ns (model: $want ns)"
  [[ $status == ok ]] || failed=1
done
exit $failed
