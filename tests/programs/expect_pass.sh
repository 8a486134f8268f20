#!/usr/bin/env bash
# Runs a test program (usually through splitc-run) and passes only if it exits 0 AND printed
# the line "PASS <name>" once: expect_pass.sh NAME COMMAND [ARGS...] (expect_output.sh --line,
# which says how the command is run and timed out; read into this shell rather than started
# as a second one, which cost a dirname and a bash per test).
name=$1
shift
here=${BASH_SOURCE[0]%/*}
[[ $here == "${BASH_SOURCE[0]}" ]] && here=.
set -- --line "PASS $name" "$@"
source "$here/expect_output.sh"
