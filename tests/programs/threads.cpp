// The threading model (docs/api.md, "Threads"): the thread that called init makes every splitc
// call, while other threads of the process compute (here: each processor's helper threads
// fill its part of a spread array, then the main thread puts it to a neighbour and checks what
// arrived). xf_thread is the mistake: a second thread calling splitc.
#include "harness.hpp"

#include <cstdint>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  constexpr int per = 4096, helpers = 3;
  auto parts = splitc::all_spread_malloc<std::int64_t>(static_cast<std::size_t>(P) * 2 * per);
  std::vector<std::int64_t> mine(per);
  {
    std::vector<std::thread> threads;
    for (int t = 0; t < helpers; ++t)
      threads.emplace_back([&, t] {
        for (int i = t; i < per; i += helpers) mine[static_cast<std::size_t>(i)] = me * 1000003LL + i;
      });
    for (auto& t : threads) t.join();
  }
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  std::int64_t* area = parts.local();  // 2*per words on each processor, the same address
  splitc::bulk_put(splitc::global_ptr<void>(right, area), mine.data(), sizeof(std::int64_t) * per);
  splitc::sync();
  splitc::barrier();
  for (int i = 0; i < per; ++i) CHECK_MSG(area[i] == left * 1000003LL + i, "word {}: {}", i, area[i]);
  splitc::barrier();
  return harness::pass("threads");
}
