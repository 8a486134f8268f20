#!/usr/bin/env bash
# Two builds of splitc-bench, the same backend, alternating: is any row of the
# newer one slower? For "nothing that works today may get slower" (run before
# and after a change to the core or a backend, same machine state).
#
#   bench/compare_builds.sh [--rounds N] [--out DIR] [--threshold 1.05] \
#       --before 'LAUNCHER -n 2 BENCH' --after 'LAUNCHER -n 2 BENCH' [-- BENCH-ARGS...]
#
# Each round runs both commands with `--quick --no-mpi --no-plots --no-progress
# --out DIR/<round>-<which>` and the BENCH-ARGS (for example `--only table4`);
# which runs first alternates. Then, for every row of splitc's own figures
# (impl "splitc"), the median over the rounds of each build and the ratio
# after/before in the slower direction (time: after / before; bandwidth:
# before / after), the range of the per-round ratios, and the rows above the
# threshold. A row measured against a reference of the same run (the
# cache-line round trip, memcpy, Open MPI: the bench's `ratio` column) is
# compared by that ratio ("÷ref" in the basis column), so that a switch of
# the machine's cross-core regime between two runs does not count as a
# change of splitc; rows without one by their value. Exit status 0 whatever
# the figures (a benchmark reports, it does not judge).
set -euo pipefail

rounds=3 out="" threshold=1.05 before="" after=""
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "compare_builds.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
[[ -n $before && -n $after ]] || { echo "compare_builds.sh: --before and --after are needed" >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/compare_builds.XXXXXX)}
mkdir -p "$out"
extra=("$@")

run() {  # which round
  local dir=$out/$2-$1 cmd
  [[ $1 == before ]] && cmd=$before || cmd=$after
  # shellcheck disable=SC2086  # the commands are word lists given by the caller
  $cmd --quick --no-mpi --no-plots --no-progress --out "$dir" "${extra[@]}" > "$dir.log" 2>&1 ||
    { echo "compare_builds.sh: round $2 ($1) failed; see $dir.log" >&2; exit 1; }
}
for ((r = 1; r <= rounds; ++r)); do
  if ((r % 2)); then run before "$r"; run after "$r"; else run after "$r"; run before "$r"; fi
  echo "round $r of $rounds done" >&2
done

python3 - "$out" "$rounds" "$threshold" <<'EOF'
import csv, math, statistics, sys
out, rounds, threshold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def rows(path):
    got = {}  # (part, name, size) -> (value, ratio to the same run's reference or nan, unit)
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["impl"] != "splitc" or not r["value"]:
                continue
            try:
                ref, ratio = float(r["reference_value"]), float(r["ratio"])
            except ValueError:
                ref, ratio = float("nan"), float("nan")
            if r["reference"] in ("", r["name"]) or not ref > 0:
                ratio = float("nan")
            got[(r["part"], r["name"], r["size"])] = (float(r["value"]), ratio, r["unit"])
    return got
runs = {w: [rows(f"{out}/{k}-{w}/results.csv") for k in range(1, rounds + 1)]
        for w in ("before", "after")}
keys = [k for k in runs["after"][0] if all(k in r for w in runs for r in runs[w])]
def slower(unit, before, after):  # > 1: the after build is slower
    if not before > 0 or not after > 0:
        return float("nan")
    return before / after if "/s" in unit else after / before
print(f"{'part':<12} {'row':<44} {'size':>9} {'unit':<5} {'basis':<5} {'before':>10} "
      f"{'after':>10} {'slower':>7} {'range':>11}")
worse = []
for k in keys:
    unit = runs["after"][0][k][2]
    by_ref = all(not math.isnan(r[k][1]) for w in runs for r in runs[w])
    pick = 1 if by_ref else 0
    b = [r[k][pick] for r in runs["before"]]
    a = [r[k][pick] for r in runs["after"]]
    ratio = slower(unit, statistics.median(b), statistics.median(a))
    per_round = [slower(unit, x, y) for x, y in zip(b, a)]
    flag = " *" if ratio > threshold else ""
    print(f"{k[0]:<12} {k[1][:44]:<44} {k[2]:>9} {unit:<5} {'÷ref' if by_ref else 'value':<5} "
          f"{statistics.median(b):>10.4g} {statistics.median(a):>10.4g} {ratio:>7.3f} "
          f"{min(per_round):>5.2f}-{max(per_round):<5.2f}{flag}")
    if ratio > threshold:
        worse.append(k)
print(f"\n{len(keys)} rows, {rounds} alternating rounds; median after/before above "
      f"{threshold}: {len(worse)} (marked *). Results in {out}")
EOF
