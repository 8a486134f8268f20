#!/usr/bin/env bash
# Install what is missing, build, and run the microbenchmark suite on the smp
# backend with 2 processes. Arguments go to splitc-microbench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/build.sh
exec build/tools/splitc-run -n 2 build/bench/splitc-microbench "$@"
