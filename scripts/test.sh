#!/usr/bin/env bash
# Install what is missing, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/build.sh
exec ctest --test-dir build --output-on-failure -j2 --timeout 300
