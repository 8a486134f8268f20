#!/usr/bin/env bash
# Install what is missing, build, and run the porting suite splitc-bench on
# the smp backend with 2 processes: every table and figure of the seed's §5,
# the machine's limits and Open MPI side by side, a few minutes. Arguments go
# to splitc-bench (e.g. --quick for a one-minute run, --only table4,fig12,
# --out DIR; --help lists them). Results: bench-results/ (CSV, JSON, plots).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/build.sh
exec build/tools/splitc-run -n 2 build/bench/splitc-bench "$@"
