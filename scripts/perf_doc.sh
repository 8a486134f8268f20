#!/usr/bin/env bash
# Today's figures of docs/performance.md, measured and written: Table 4 of every backend
# (splitc-bench --quick --only table4, 2 processes) in rounds that alternate the backends, each
# run placed in this machine's cross-core regime by its own cache-line round trip (near below
# 300 ns, far above) or, for a backend that cannot measure one, by smp's (`--only limits`) just
# before and after it (a run whose probes disagree counts in neither); per backend one table of
# the median [range] of the rounds in each regime, splitc's row next to Open MPI's equivalent
# measured in the same runs (on the sim engine's backends: virtual time, each port as its seed
# machine, next to the seed's published figure, bench/seed_figures.def). The
# tables replace the text between "@perf-tables@" and "@perf-tables-end@" in
# docs/performance.md (--write; with BACKENDs named, only their sections, each marked as
# re-measured that day), or are printed.
#
#   scripts/perf_doc.sh [--rounds N] [--out DIR] [--write] [--build DIR] [BACKEND...]
#   scripts/perf_doc.sh --from DIR [--rounds N] [--write] [BACKEND...]   the tables of earlier runs
#
# Without BACKENDs: every backend of the build's declarations (<build>/splitc-backends.tsv)
# but the template and the test vehicles. Rounds default to 5. The runs stay in DIR
# (default: a new directory under /tmp), one results.json each, for a later look.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=5 out="" write=0 build=$here/build measure=1 named=0
backends=()
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --from) out=$2; measure=0; shift 2 ;;
    --write) write=1; shift ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "perf_doc.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) backends+=("$1"); named=1; shift ;;
  esac
done
if ((${#backends[@]} == 0)); then
  mapfile -t backends < <(grep -v '^#' "$build/splitc-backends.tsv" | awk -F'\t' '$3 == "backend" {print $1}')
fi
out=${out:-$(mktemp -d /tmp/perf_doc.XXXXXX)}
mkdir -p "$out"
run=$build/tools/splitc-run
# The seed machine each sim-engine backend is measured as (the sim backend itself: host).
machine_of() {
  case $1 in
    cmaml_sim) echo cm5_cmaml ;; cmam_sim) echo cm5 ;; hpam_sim) echo hp ;; t3d_sim) echo t3d ;;
    nx_sim) echo paragon ;; mpl_sim) echo sp1 ;; *) echo "" ;;
  esac
}
bench_of() { [[ $1 == smp ]] && echo "$build/bench/splitc-bench" || echo "$build/bench/splitc-bench-$1"; }
probe() {  # probe DIR: smp's cache-line round trip
  "$run" -n 2 "$build/bench/splitc-bench" --quick --only limits --no-mpi --no-plots --no-progress \
    --out "$1" > /dev/null 2>&1 || true
}

start=$(date -u +%Y-%m-%d -r "$out")
for ((r = 1; r <= rounds && measure; r++)); do
  # Each round starts with a different backend, so that no backend always follows another.
  n=${#backends[@]}
  for ((i = 0; i < n; i++)); do
    b=${backends[$(((i + r - 1) % n))]}
    dir=$out/$b/round$r
    mkdir -p "$dir"
    probe "$dir/probe-before"
    machine=$(machine_of "$b")
    if ! env ${machine:+SPLITC_SIM_MACHINE=$machine} "$run" --backend "$b" -n 2 "$(bench_of "$b")" \
          --quick --only table4 --no-plots --no-progress --out "$dir" > "$dir/output.txt" 2>&1; then
      echo "perf_doc: $b, round $r: the bench failed (see $dir/output.txt)" >&2
    fi
    probe "$dir/probe-after"
    echo "perf_doc: round $r/$rounds: $b" >&2
  done
done

tables=$(python3 - "$out" "$start" "$rounds" "${backends[@]}" <<'PYTHON'
import json, os, re, statistics, sys
out, date, rounds, backends = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None

def cache_line(path):
    j = load(os.path.join(path, "results.json"))
    for row in (j or {}).get("rows", []):
        if row["name"] == "pingpong_rt" and row["impl"] == "machine" and row["value"]:
            return row["value"]
    return None

def regime(ns):
    return None if ns is None else ("near" if ns < 300 else "far")

ROWS = [  # (label, splitc row, Open MPI's equivalent)
    ("AM send overhead", "am_send_overhead", None),
    ("AM send+receive overhead", "am_send_recv_overhead", None),
    ("AM round trip", "am_round_trip", "mpi_pingpong_rt"),
    ("store 8 B, spread heap", "store_spread_heap", "mpi_put_pipe"),
    ("get 8 B, spread heap", "get_spread_heap", "mpi_get_pipe"),
    ("put 8 B, spread heap", "put_spread_heap", "mpi_put_pipe"),
    ("read 8 B, spread heap", "read_spread_heap", "mpi_get_flush"),
    ("write 8 B, spread heap", "write_spread_heap", "mpi_put_flush"),
    ("store 8 B, outside the segments", "store_outside", "mpi_put_pipe"),
    ("get 8 B, outside the segments", "get_outside", "mpi_get_pipe"),
    ("put 8 B, outside the segments", "put_outside", "mpi_put_pipe"),
    ("read 8 B, outside the segments", "read_outside", "mpi_get_flush"),
    ("write 8 B, outside the segments", "write_outside", "mpi_put_flush"),
    ("idle poll", "idle_poll", None),
]

def fmt(v):
    return f"{v:,.0f}" if v >= 100 else (f"{v:.3g}" if v >= 1 else f"{v:.2g}")

def cell(values):
    if not values:
        return "—"
    m = statistics.median(values)
    return f"{fmt(m)} [{fmt(min(values))}–{fmt(max(values))}]" if len(values) > 1 else fmt(m)

print(f"Measured {date} by `scripts/perf_doc.sh --rounds {rounds} --write` (2 processes, "
      "`splitc-bench --quick --only table4`, the backends alternating): ns, median "
      "[range] of the rounds in each regime; near and far are the machine's two cross-core "
      "speeds (a cache-line round trip below or above 300 ns). A backend's figures and Open "
      "MPI's come from the same runs.\n")
for b in backends:
    runs = {"near": [], "far": [], "virtual": []}
    unplaced = 0
    machine = "?"
    seeds = {}
    for r in range(1, rounds + 1):
        d = os.path.join(out, b, f"round{r}")
        j = load(os.path.join(d, "results.json"))
        if j is None:
            continue
        rows = {(x["name"], x["impl"]): x["value"] for x in j["rows"]
                if x["part"] in ("table4", "start") and x["value"] is not None}
        if j.get("clock") == "virtual":
            runs["virtual"].append(rows)
            seeds.update({x["name"]: x["seed_value"] for x in j["rows"]
                          if x["part"] == "table4" and x.get("seed_value") is not None})
            try:
                with open(os.path.join(d, "output.txt")) as f:
                    found = re.search(r"machine model (\w+)", f.read())
                machine = found.group(1) if found else machine
            except OSError:
                pass
            continue
        # The run's own cache-line round trip, else the probes around it when both agree.
        own = rows.get(("pingpong_rt", "machine"))
        place = regime(own)
        if place is None:
            before = regime(cache_line(os.path.join(d, "probe-before")))
            after = regime(cache_line(os.path.join(d, "probe-after")))
            place = before if before == after else None
        if place is None:
            unplaced += 1
        else:
            runs[place].append(rows)
    print(f"### {b}\n")
    if runs["virtual"]:
        print(f"virtual time, the sim engine's `{machine}` machine model; rounds: "
              f"{len(runs['virtual'])}; the seed's figure for that machine where it published one\n")
        print("| row | splitc (virtual ns) | the seed | ÷ the seed |")
        print("| --- | --- | --- | --- |")
        for label, name, _ in ROWS:
            values = [x[(name, "splitc")] for x in runs["virtual"] if (name, "splitc") in x]
            if not values:
                continue
            seed = seeds.get(name)
            ratio = f"{statistics.median(values) / seed:.2f}" if seed else "—"
            print(f"| {label} | {cell(values)} | {fmt(seed) if seed else '—'} | {ratio} |")
        print()
        continue
    note = f"; in neither: {unplaced} (the regime changed during the run)" if unplaced else ""
    print(f"host time; rounds near: {len(runs['near'])}, far: {len(runs['far'])}{note}\n")
    print("| row | splitc, near | splitc, far | Open MPI, near | Open MPI, far |")
    print("| --- | --- | --- | --- | --- |")
    for label, name, mpi in ROWS:
        cells = []
        for impl, key in (("splitc", name), ("mpi", mpi)):
            for reg in ("near", "far"):
                cells.append(cell([x[(key, impl)] for x in runs[reg] if key and (key, impl) in x]))
        if all(c == "—" for c in cells[:2]):
            continue
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
PYTHON
)
if ((write)) && ((named)); then
  # Backends named: only their sections are replaced (each headed by when and how it was
  # measured); the other backends' tables stay as they were.
  doc=$here/docs/performance.md
  python3 - "$doc" "$rounds" "$tables" "${backends[@]}" <<'PYTHON' || exit 1
import re, sys
doc, rounds, tables, backends = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
text = open(doc).read()
if text.find("@perf-tables@") < 0 or text.find("@perf-tables-end@") < 0:
    sys.exit(f"perf_doc: no @perf-tables@ ... @perf-tables-end@ in {doc}")
head = tables.splitlines()[0]
date = re.search(r"Measured (\S+)", head).group(1)
for b in backends:
    m = re.search(rf"^### {re.escape(b)}\n.*?(?=^### |\Z)", tables, re.M | re.S)
    if not m:
        continue
    section = m.group(0).rstrip("\n") + "\n\n"
    section = section.replace(
        f"### {b}\n\n",
        f"### {b}\n\nRe-measured {date}: `scripts/perf_doc.sh --rounds {rounds} --write {b}`, "
        "spliced in (the other backends' tables are of their own dates).\n\n", 1)
    # The lines between the marker lines.
    first = text.find("\n", text.find("@perf-tables@")) + 1
    last = text.rfind("\n", 0, text.find("@perf-tables-end@")) + 1
    region = text[first:last]
    old = re.search(rf"^### {re.escape(b)}\n.*?(?=^### |\Z)", region, re.M | re.S)
    if old:
        region = region[:old.start()] + section + region[old.end():]
    else:
        region = region.rstrip("\n") + "\n\n" + section
    text = text[:first] + region + text[last:]
open(doc, "w").write(text)
PYTHON
  echo "perf_doc: wrote the tables of ${backends[*]} into $doc (runs in $out)" >&2
elif ((write)); then
  doc=$here/docs/performance.md
  new=$(awk -v block="$tables" '
    index($0, "@perf-tables@") { print; print block; skip = 1; found = 1; next }
    skip && index($0, "@perf-tables-end@") { skip = 0 }
    !skip { print }
    END { if (!found) exit 3 }' "$doc") || { echo "perf_doc: no @perf-tables@ in $doc" >&2; exit 1; }
  printf '%s\n' "$new" > "$doc"
  echo "perf_doc: wrote today's tables into $doc (runs in $out)" >&2
else
  printf '%s\n' "$tables"
  echo "perf_doc: runs in $out" >&2
fi
