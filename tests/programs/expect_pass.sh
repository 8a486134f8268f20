#!/usr/bin/env bash
# Runs a test program (usually through splitc-run) and passes only if it exits 0 AND printed
# the line "PASS <name>" once: expect_pass.sh NAME COMMAND [ARGS...] (expect_output.sh --line,
# which says how the command is run and timed out).
name=$1
shift
exec bash "$(dirname "${BASH_SOURCE[0]}")/expect_output.sh" --line "PASS $name" "$@"
