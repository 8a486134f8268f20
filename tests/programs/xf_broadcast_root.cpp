// Error: processors calling broadcast with different roots end the job with a
// "collective mismatch" that names both roots (processor 1 says root 1, the
// others root 0), instead of returning wrong values. With the argument
// "long", the broadcast is many mailbox chunks long (the root sends after
// its check rather than before). With "last", the broadcast is the program's last collective:
// the root, which leaves a one-chunk broadcast before checking its children's announcements,
// checks them in finalize, and the mismatch is still reported, with both roots. With "wait",
// every processor then waits for a condition nobody makes true: the root's check at a poll
// (progress.cpp) must report the mismatch rather than leave the job waiting for ever. With
// "loop", everyone broadcasts from root 0 back to back, but processor 2 names root 1 in the
// sixth: it waits for data from processor 1 that never comes, while processors 0 and 1, who
// leave their children's announcements unchecked for up to 32 broadcasts, go on -- and
// processor 0 must still find processor 2's announcement and report it. Each processor says
// when it has returned from the sixth and later broadcasts ("returned from broadcast"): under
// SPLITC_BROADCAST_CHECK=before_return none may. With "mixed", processor 2 alone (its rank from
// its launcher's environment) sets SPLITC_BROADCAST_CHECK=before_return before init, and
// everyone broadcasts from root 0: the two ways of checking are a mismatch, reported as such.
// With "extra", every processor makes 4 broadcasts from root 0 and processor 2 a fifth, then
// everyone calls barrier: processor 2's root announcements, one message for all five, tell
// processor 0 of a broadcast it never made, which is reported at its barrier (or processor 2
// meets the barrier's message where it waits for data) -- never a hang.
#include "harness.hpp"

#include <splitc/wait.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
/// This process's rank as its launcher gave it, before init: splitc-run's own, Open MPI's or
/// MPICH's variable; -1 when none is set.
int launcher_rank() {
  for (const char* name : {"SPLITC_MYPROC", "OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (const char* v = std::getenv(name)) return std::atoi(v);
  return -1;
}
}  // namespace

int main(int argc, char** argv) {
  const bool mixed = argc > 1 && std::strcmp(argv[1], "mixed") == 0;
  if (mixed && launcher_rank() == 2) setenv("SPLITC_BROADCAST_CHECK", "before_return", 1);
  splitc::init(argc, argv);
  if (mixed) {
    int value = splitc::myproc();
    splitc::broadcast(std::span<int>(&value, 1), 0);
    std::printf("processor %d got %d\n", splitc::myproc(), value);
    splitc::barrier();
    return harness::pass("xf_broadcast_root");
  }
  const splitc::proc_t root = splitc::myproc() == 1 ? 1 : 0;
  const bool long_vector = argc > 1 && std::strcmp(argv[1], "long") == 0;
  const bool last = argc > 1 && std::strcmp(argv[1], "last") == 0;
  const bool wait = argc > 1 && std::strcmp(argv[1], "wait") == 0;
  if (argc > 1 && std::strcmp(argv[1], "extra") == 0) {
    int value = 0;
    for (int i = 0; i < (splitc::myproc() == 2 ? 5 : 4); ++i) value += splitc::broadcast(i, 0);
    std::printf("processor %d made its broadcasts (%d)\n", splitc::myproc(), value);
    splitc::barrier();
    return harness::pass("xf_broadcast_root");
  }
  if (argc > 1 && std::strcmp(argv[1], "loop") == 0) {
    for (int i = 0; i < 40; ++i) {
      int value = i;
      splitc::broadcast(std::span<int>(&value, 1), i == 5 && splitc::myproc() == 2 ? 1 : 0);
      if (i >= 5) std::printf("processor %d returned from broadcast %d\n", splitc::myproc(), i);
    }
    return harness::pass("xf_broadcast_root");
  }
  std::vector<int> values(long_vector ? 100000 : 1, 100 + splitc::myproc());
  splitc::broadcast(std::span<int>(values), root);
  if (last) return harness::pass("xf_broadcast_root");
  if (wait) splitc::wait_until("a condition nobody makes true", [] { return false; });
  std::printf("processor %d got %d\n", splitc::myproc(), values[0]);
  splitc::barrier();
  return harness::pass("xf_broadcast_root");
}
