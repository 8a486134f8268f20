#!/usr/bin/env bash
# Fails when a source outside the porting kit reads a splitc variable itself
# (getenv("SPLITC_...") or secure_getenv): every variable is a row of
# include/splitc/port/env_vars.def and is read through port::env::<id>, so
# its parsing, its error message and its documentation stay one.
# The tests (tests/, ports/*/tests, layers/*/tests) may inspect what a
# launcher set; the kit itself (include/splitc/port, src/port) reads through
# the table.
#   check_no_adhoc_getenv.sh SOURCE_DIR
set -u
root=${1:?usage: check_no_adhoc_getenv.sh SOURCE_DIR}
cd "$root" || exit 2
found=$(grep -rnE '(secure_)?getenv[[:space:]]*\([[:space:]]*"(SPLITC|DOLIB)_' \
          --include='*.c' --include='*.cc' --include='*.cpp' --include='*.h' --include='*.hpp' \
          src include ports sim_engine tools bench layers examples 2>/dev/null |
        grep -vE '^(src/port/|include/splitc/port/|tests/|ports/[^/]+/tests/|layers/[^/]+/tests/)')
if [ -n "$found" ]; then
  echo "reads of splitc variables outside the porting kit (use port::env::<id>, include/splitc/port/env.hpp):"
  echo "$found"
  exit 1
fi
# The kit itself names variables only through the table.
found=$(grep -rnE 'getenv[[:space:]]*\([[:space:]]*"SPLITC_' --include='*.cpp' --include='*.hpp' \
          src/port include/splitc/port)
if [ -n "$found" ]; then
  echo "the porting kit reads a variable by name instead of through env_vars.def:"
  echo "$found"
  exit 1
fi
echo "no ad-hoc reads of splitc variables"
