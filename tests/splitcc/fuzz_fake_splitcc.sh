#!/bin/bash
# A translator that fails as splitcc must never fail, for splitcc-fuzz's own
# tests (tests/splitcc/CMakeLists.txt): SPLITCC_FUZZ_FAKE=segv dies by SIGSEGV,
# =hang never ends; anything else rejects the program as a compiler would.
case ${SPLITCC_FUZZ_FAKE:-} in
  segv) kill -SEGV $$ ;;
  hang) exec sleep 600 ;;
  *) echo "fake.sc:1:1: error: rejected" >&2; exit 1 ;;
esac
