// Job identity and barrier: distinct myproc, procs, one segment address, no early leaving.
// Usage: runtime_basics [ROUNDS [BARRIERS]]: checked barrier rounds (default 60) and barriers
// back to back (default 200).
#include "harness.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

int main(int argc, char** argv) {
  CHECK(!splitc::initialized());
  splitc::init(argc, argv);
  CHECK(splitc::initialized());
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 60;
  const int barriers = argc > 2 ? std::atoi(argv[2]) : 200;
  CHECK(rounds > 0 && barriers > 0);
  const int me = splitc::myproc(), P = splitc::procs();
  CHECK(P >= 1);
  CHECK(me >= 0 && me < P);
  CHECK(std::string_view(splitc::backend_name()) == splitc::active_backend::name);
  const char* env_procs = std::getenv("SPLITC_PROCS");
  CHECK(env_procs != nullptr && std::atoi(env_procs) == P);
  // One process per processor (not where processors share one, as on sim).
  constexpr bool own_process = !splitc::has_shared_process<splitc::active_backend>;
  const char* env_me = std::getenv("SPLITC_MYPROC");
  if (own_process) CHECK(env_me != nullptr && std::atoi(env_me) == me);

  // Processor 0 collects (myproc, pid, segment) from everyone.
  struct card {
    std::int64_t proc;
    std::int64_t pid;
    std::uintptr_t segment_base;
    std::size_t segment_size;
  };
  auto* cards = reinterpret_cast<card*>(harness::heap());
  const splitc::segment_info seg = splitc::my_segment();
  splitc::write(splitc::toglobal(0, cards + me),
                card{me, getpid(), reinterpret_cast<std::uintptr_t>(seg.base), seg.size});
  splitc::barrier();
  if (me == 0) {
    for (int q = 0; q < P; ++q) {
      CHECK_MSG(cards[q].proc == q, "slot {} holds processor {}", q, cards[q].proc);
      // At the same address everywhere; where processors share one process, each at its own,
      // the copies of one place at one offset (local_copy).
      const auto* base_q = reinterpret_cast<void*>(cards[q].segment_base);
      CHECK_MSG(splitc::local_copy(base_q) == seg.base, "processor {}'s segment is at {}", q, base_q);
      CHECK_MSG((base_q == seg.base) == (q == 0 || own_process), "processor {}'s segment is at {}", q,
                base_q);
      CHECK(cards[q].segment_size == seg.size);
      for (int r = 0; r < q; ++r)
        CHECK_MSG(!own_process || cards[q].pid != cards[r].pid, "processors {} and {} share a pid", q, r);
    }
  }
  splitc::barrier();

  // Barrier: in round r every processor writes r into its slot at processor r mod P; after
  // the barrier that processor must see every slot at r. Nobody may write round r+1 first.
  auto* slots = reinterpret_cast<std::int64_t*>(harness::heap() + 4096);
  for (int round = 1; round <= rounds; ++round) {
    const int judge = round % P;
    splitc::write(splitc::toglobal(judge, slots + me), std::int64_t{round});
    splitc::poll();
    splitc::barrier();
    if (me == judge)
      for (int q = 0; q < P; ++q)
        CHECK_MSG(slots[q] == round, "round {}: processor {} wrote {}", round, q, slots[q]);
    splitc::barrier();
  }
  // Barriers back to back, with uneven arrival.
  for (int i = 0; i < barriers; ++i) {
    if ((i + me) % 7 == 0) usleep(100);
    splitc::barrier();
  }
  return harness::pass("runtime_basics");
}
