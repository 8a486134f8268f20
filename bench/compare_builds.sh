#!/usr/bin/env bash
# Two builds of splitc-bench, the same backend, alternating: is any row of the
# newer one slower? For "nothing that works today may get slower" (run before
# and after a change to the core or a backend, same machine state).
#
#   bench/compare_builds.sh [--rounds N] [--out DIR] [--threshold 1.05] \
#       [--probe 'LAUNCHER -n 2 BENCH'] \
#       --before 'LAUNCHER -n 2 BENCH' --after 'LAUNCHER -n 2 BENCH' [-- BENCH-ARGS...]
#
# Each round runs both commands with `--quick --no-mpi --no-plots --no-progress
# --out DIR/<round>-<which>` and the BENCH-ARGS (for example `--only table4`);
# which runs first alternates. Then, for every row of splitc's own figures
# (impl "splitc"), the median over the rounds of each build and the ratio
# after/before in the slower direction (time: after / before; bandwidth:
# before / after), the range of the per-round ratios, and the rows above the
# threshold. This machine's cross-core speed switches between two regimes
# (a cache-line round trip of ~140 or ~550 ns) over tens of seconds: a round
# counts only when both runs met the same regime (each run's cache-line round
# trip, the reference of its Table 4 rows, on the same side of 300 ns), and
# the figures are medians of those rounds' per-round ratios, with their range.
# A run without that row (a backend that cannot map a peer's memory, or a
# --only without table4) is placed by --probe, a bench that can (smp's),
# run with `--only limits` (0.4 s) just before and just after it: the run
# counts in a regime only if both probes met it. Without --probe such runs
# are kept with their regime unknown, and said to be. Exit status 0 whatever
# the figures (a benchmark reports, it does not judge).
#
# Both builds start with the same stack placement: some smp rows move by up
# to 1.8x with it alone (the same binary, store outside the segments: 20 or
# 35 ns as its path or environment grows by a few bytes; docs/performance.md,
# "Where a process's stack starts"). The strings of argv and the environment
# sit at the top of the stack, so the two runs' output directories have the
# same length, and COMPARE_BUILDS_PAD, set for both, evens out the lengths of
# the two commands.
set -euo pipefail

rounds=3 out="" threshold=1.05 before="" after="" probe=""
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --threshold) threshold=$2; shift 2 ;;
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --probe) probe=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "compare_builds.sh: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
[[ -n $before && -n $after ]] || { echo "compare_builds.sh: --before and --after are needed" >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/compare_builds.XXXXXX)}
mkdir -p "$out"
extra=("$@")

# The pad of each command: what the other has in characters more (the words of
# both are passed as argv strings).
width=$(( ${#before} > ${#after} ? ${#before} : ${#after} ))
pad_before=$(printf '%*s' $((width - ${#before})) '' | tr ' ' x)
pad_after=$(printf '%*s' $((width - ${#after})) '' | tr ' ' x)

run() {  # which round (the directory names: old/new, of one length)
  local dir cmd pad
  if [[ $1 == before ]]; then
    dir=$out/$2-old cmd=$before pad=$pad_before
  else
    dir=$out/$2-new cmd=$after pad=$pad_after
  fi
  # shellcheck disable=SC2086  # the commands are word lists given by the caller
  [[ -z $probe ]] || $probe --quick --only limits --no-mpi --no-plots --no-progress \
    --out "$dir.probe-pre" > "$dir.probe.log" 2>&1
  # shellcheck disable=SC2086
  COMPARE_BUILDS_PAD=$pad $cmd --quick --no-mpi --no-plots --no-progress --out "$dir" \
    "${extra[@]}" > "$dir.log" 2>&1 ||
    { echo "compare_builds.sh: round $2 ($1) failed; see $dir.log" >&2; exit 1; }
  # shellcheck disable=SC2086
  [[ -z $probe ]] || $probe --quick --only limits --no-mpi --no-plots --no-progress \
    --out "$dir.probe-post" >> "$dir.probe.log" 2>&1
}
for ((r = 1; r <= rounds; ++r)); do
  if ((r % 2)); then run before "$r"; run after "$r"; else run after "$r"; run before "$r"; fi
  echo "round $r of $rounds done" >&2
done

python3 - "$out" "$rounds" "$threshold" <<'EOF'
import csv, statistics, sys
out, rounds, threshold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
def cache_line(path):
    """The run's cache-line round trip (ns), or None."""
    try:
        with open(path) as f:
            for r in csv.DictReader(f):
                if r["reference"] == "pingpong_rt" and r["reference_value"]:
                    return float(r["reference_value"])
    except FileNotFoundError:
        pass
    return None
def regime(line):
    if line == "mixed":
        return "mixed"
    return "?" if line is None else ("near" if line < 300 else "far")
def load(run):
    """{(part, name, size): (value, unit)} of splitc's rows, and the run's cache-line round
    trip: its own, else the probes' around it when they agree ("mixed" when they do not)."""
    got = {}
    with open(f"{run}/results.csv") as f:
        for r in csv.DictReader(f):
            if r["impl"] == "splitc" and r["value"]:
                got[(r["part"], r["name"], r["size"])] = (float(r["value"]), r["unit"])
    line = cache_line(f"{run}/results.csv")
    if line is None:
        pre, post = cache_line(f"{run}.probe-pre/results.csv"), cache_line(f"{run}.probe-post/results.csv")
        if pre is not None and post is not None:
            line = pre if regime(pre) == regime(post) else "mixed"
    return got, line
def slower(unit, before, after):  # > 1: the after build is slower
    if not before > 0 or not after > 0:
        return float("nan")
    return before / after if "/s" in unit else after / before
pairs = []
for k in range(1, rounds + 1):
    b, lb = load(f"{out}/{k}-old")
    a, la = load(f"{out}/{k}-new")
    # A run that cannot be placed (no cache-line row, no --probe) counts, and
    # says so; one whose probes met both regimes does not.
    unknown = "?" in (regime(lb), regime(la))
    same = "mixed" not in (regime(lb), regime(la)) and (unknown or regime(lb) == regime(la))
    print(f"round {k}: cache line {lb} / {la} ns: {regime(lb)} / {regime(la)}"
          f"{' -- regime unknown, round kept' if unknown else ''}"
          f"{'' if same else ' -- regimes differ, round left out'}")
    if same:
        pairs.append((b, a, regime(lb)))
if not pairs:
    sys.exit("no round met one regime in both runs: run more rounds")
keys = [k for k in pairs[0][1] if all(k in b and k in a for b, a, _ in pairs)]
print(f"\n{'part':<12} {'row':<44} {'size':>9} {'unit':<5} {'before':>10} {'after':>10} "
      f"{'slower':>7} {'range':>11}")
worse = []
for k in keys:
    unit = pairs[0][1][k][1]
    per_round = [slower(unit, b[k][0], a[k][0]) for b, a, _ in pairs]
    ratio = statistics.median(per_round)
    flag = " *" if ratio > threshold else ""
    print(f"{k[0]:<12} {k[1][:44]:<44} {k[2]:>9} {unit:<5} "
          f"{statistics.median(b[k][0] for b, _, _ in pairs):>10.4g} "
          f"{statistics.median(a[k][0] for _, a, _ in pairs):>10.4g} {ratio:>7.3f} "
          f"{min(per_round):>5.2f}-{max(per_round):<5.2f}{flag}")
    if ratio > threshold:
        worse.append(k)
print(f"\n{len(keys)} rows; {len(pairs)} of {rounds} alternating rounds in one regime "
      f"({', '.join(r for _, _, r in pairs)}); median after/before above {threshold}: "
      f"{len(worse)} (marked *). Results in {out}")
EOF
