#!/usr/bin/env bash
# The same-host layer against smp (docs/same_host.md, docs/performance.md): splitc-bench --quick
# (Table 4 and Figure 12) with 2 processes on this host on smp, mpi and udp with the layer on
# and off (udp also with the layer on and its active messages over UDP: udp.netmsg), the six
# runs one after the other in each round, so that every round sees one
# machine state; then per row the median and range over the rounds, and each backend's ratio
# to smp's figure of the same round.
#
#   bench/same_host.sh [--build DIR] [--rounds N] [--out DIR]
#
#   bench/same_host.sh --collectives [--backend mpi|udp] [--build DIR] [--rounds N] [--out DIR]
#
# --collectives instead: Tables 8-11 (barrier, broadcast, reductions, scan) at P = 2, 4, 8 with
# the processors in two "hosts" (SPLITC_SAME_HOST_MAX=P/2), the barrier hierarchical and flat
# (SPLITC_HIERARCHICAL=1, 0), and with the layer off; median and range per row.
#
# Needs python3 for the summary. Numbers only: nothing here passes or fails on a timing.
set -euo pipefail

build=build
rounds=5
out=same-host-results
collectives=0
backend=mpi
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --collectives) collectives=1; shift ;;
    --backend) backend="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "same_host.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [[ $collectives -eq 1 ]]; then
  for r in $(seq 1 "$rounds"); do
    for p in 2 4 8; do
      for c in "hier|SPLITC_SAME_HOST_MAX=$((p / 2)) SPLITC_HIERARCHICAL=1" \
               "flat|SPLITC_SAME_HOST_MAX=$((p / 2)) SPLITC_HIERARCHICAL=0" "off|SPLITC_SAME_HOST=0"; do
        IFS='|' read -r name envs <<<"$c"
        dir="$out/round$r/p$p.$name"
        mkdir -p "$out/round$r"
        echo "same_host.sh: round $r/$rounds: $backend P=$p $name" >&2
        env $envs "$build/tools/splitc-run-$backend" -n "$p" "$build/bench/splitc-bench-$backend" \
          --quick --only collectives --no-mpi --no-plots --no-progress --out "$dir" >"$dir.log" 2>&1 ||
          { echo "same_host.sh: P=$p $name failed in round $r (see $dir.log)" >&2; exit 1; }
      done
    done
  done
  python3 - "$out" "$rounds" "$backend" <<'EOF'
import csv, statistics, sys
out, rounds, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ops = ["barrier", "broadcast_int", "reduce_to_one_int_add", "reduce_to_all_int_add", "scan_int_add"]
print(f"{backend}: ns per operation, median [range] of {rounds} rounds; two hosts of P/2 "
      "(SPLITC_SAME_HOST_MAX=P/2): hierarchical barrier, flat barrier; layer off")
print("| P | operation | hierarchical | flat | layer off |")
print("|---|---|---|---|---|")
for p in (2, 4, 8):
    for op in ops:
        cells = []
        for name in ("hier", "flat", "off"):
            xs = []
            for r in range(1, rounds + 1):
                with open(f"{out}/round{r}/p{p}.{name}/results.csv") as f:
                    xs += [float(row["value"]) for row in csv.DictReader(f)
                           if row["part"] == "collectives" and row["name"] == op
                           and row["impl"] == "splitc" and row["value"]]
            cells.append(f"{statistics.median(xs):.4g} [{min(xs):.4g}–{max(xs):.4g}]" if xs else "n/a")
        print(f"| {p} | {op} | " + " | ".join(cells) + " |")
EOF
  exit 0
fi

# name | launcher | bench program | environment
configs=(
  "smp|$build/tools/splitc-run|$build/bench/splitc-bench|"
  "mpi.on|$build/tools/splitc-run-mpi|$build/bench/splitc-bench-mpi|SPLITC_SAME_HOST=1"
  "mpi.off|$build/tools/splitc-run-mpi|$build/bench/splitc-bench-mpi|SPLITC_SAME_HOST=0"
  "udp.on|$build/tools/splitc-run-udp|$build/bench/splitc-bench-udp|SPLITC_SAME_HOST=1"
  "udp.netmsg|$build/tools/splitc-run-udp|$build/bench/splitc-bench-udp|SPLITC_SAME_HOST=1 SPLITC_SAME_HOST_MESSAGES=0"
  "udp.off|$build/tools/splitc-run-udp|$build/bench/splitc-bench-udp|SPLITC_SAME_HOST=0"
)
for r in $(seq 1 "$rounds"); do
  for c in "${configs[@]}"; do
    IFS='|' read -r name run bench envs <<<"$c"
    dir="$out/round$r/$name"
    mkdir -p "$out/round$r"
    echo "same_host.sh: round $r/$rounds: $name" >&2
    env $envs "$run" -n 2 "$bench" --quick --only table4,fig12 --no-mpi --no-plots \
      --no-progress --out "$dir" >"$dir.log" 2>&1 ||
      { echo "same_host.sh: $name failed in round $r (see $dir.log)" >&2; exit 1; }
  done
done

python3 - "$out" "$rounds" <<'EOF'
import csv, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
names = ["smp", "mpi.on", "mpi.off", "udp.on", "udp.netmsg", "udp.off"]
rows = [("table4", "get_spread_heap", 8, "ns"), ("table4", "put_spread_heap", 8, "ns"),
        ("table4", "store_spread_heap", 8, "ns"), ("table4", "read_spread_heap", 8, "ns"),
        ("table4", "write_spread_heap", 8, "ns"), ("table4", "am_round_trip", 8, "ns"),
        ("table4", "get_outside", 8, "ns"), ("fig12", "bulk_get", 64 << 20, "MB/s"),
        ("figures", "memcpy", 64 << 20, "MB/s")]
value = {}
for r in range(1, rounds + 1):
    for n in names:
        with open(f"{out}/round{r}/{n}/results.csv") as f:
            for row in csv.DictReader(f):
                key = (row["part"], row["name"], int(row["size"]))
                if row["impl"] in ("splitc", "machine") and row["value"]:
                    value[(r, n, key)] = float(row["value"])
def span(xs):
    return f"{statistics.median(xs):.4g} [{min(xs):.4g}–{max(xs):.4g}]" if xs else "n/a"
print(f"median [range] of {rounds} rounds; ratio = backend ÷ smp of the same round "
      "(bulk_get: smp ÷ backend, so that above 1 is slower everywhere)")
print("| row | " + " | ".join(names) + " |")
print("|---|" + "---|" * len(names))
for part, name, size, unit in rows:
    key = (part, name, size)
    cells = []
    for n in names:
        xs = [value[(r, n, key)] for r in range(1, rounds + 1) if (r, n, key) in value]
        cells.append(span(xs))
    print(f"| {name} {size if size < 1024 else str(size >> 20) + ' MiB'} ({unit}) | " + " | ".join(cells) + " |")
    if part == "figures":
        continue
    ratios = []
    for n in names[1:]:
        rs = []
        for r in range(1, rounds + 1):
            a, b = value.get((r, n, key)), value.get((r, "smp", key))
            if a and b:
                rs.append(a / b if unit == "ns" else b / a)
        ratios.append(span(rs))
    print(f"| ÷ smp | 1 | " + " | ".join(ratios) + " |")
big = 64 << 20
rs = []
for r in range(1, rounds + 1):
    g = value.get((r, "mpi.on", ("fig12", "bulk_get", big)))
    m = value.get((r, "mpi.on", ("figures", "memcpy", big)))
    if g and m:
        rs.append(g / m)
print(f"\nmpi.on bulk_get 64 MiB ÷ memcpy 64 MiB (same run): {span(rs)}")
EOF
