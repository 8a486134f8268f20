// The real (host) time of a processor switch on sim: processor 0 reads a word
// of processor 1's segment N times; each read is two switches (0 to 1, whose
// handler replies, and back), with the message's delivery and the scheduler's
// choice. Prints host nanoseconds per switch. A measurement (docs/sim.md, "P
// segments, P addresses"), not a test.
#include <splitc/splitc.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  auto* word = static_cast<long*>(splitc::my_segment().base);
  *word = splitc::myproc();
  splitc::barrier();
  if (splitc::myproc() == 0) {
    const auto t0 = std::chrono::steady_clock::now();
    long sum = 0;
    for (int i = 0; i < n; ++i) sum += splitc::read(splitc::toglobal(1, word));
    const auto t1 = std::chrono::steady_clock::now();
    const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
    std::printf("%d reads (%ld): %.0f ns of host time per switch\n", n, sum, ns / (2.0 * n));
  }
  splitc::finalize();
  return 0;
}
