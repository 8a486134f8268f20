// Started without splitc-run: SPLITC_PROCS=N launches N processes, otherwise a job of one.
#include "harness.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>

int main(int argc, char** argv) {
  CHECK_MSG(argc == 2, "usage: {} EXPECTED_PROCS", argv[0]);
  const int expected = std::atoi(argv[1]);
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK_MSG(P == expected, "running as {} processors, expected {}", P, expected);
  auto* pids = reinterpret_cast<std::int64_t*>(harness::heap());
  splitc::write(splitc::toglobal(0, pids + me), static_cast<std::int64_t>(getpid()));
  splitc::barrier();
  if (me == 0)
    for (int q = 0; q < P; ++q) {
      CHECK_MSG(pids[q] > 0, "processor {} did not report", q);
      for (int r = 0; r < q && !splitc::has_shared_process<splitc::active_backend>; ++r)
        CHECK_MSG(pids[q] != pids[r], "processors {} and {} are one process", q, r);
    }
  return harness::pass("plain_start");
}
