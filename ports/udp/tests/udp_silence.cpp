// Failure behaviour of a udp job. `udp_silence MODE`:
//   stop     processor 1 stops itself (SIGSTOP) after the first barrier: the
//            others must end the job within SPLITC_UDP_SILENCE, naming it;
//   die      processor 1 is killed (SIGKILL): the launcher ends the job;
//   compute  processor 1 computes without polling for longer than the silence
//            limit: that is not silence (its helper thread keeps it heard);
//            the job passes.
#include "harness.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const char* mode = argc > 1 ? argv[1] : "compute";
  splitc::barrier();
  if (splitc::myproc() == 1) {
    if (std::strcmp(mode, "stop") == 0) raise(SIGSTOP);
    if (std::strcmp(mode, "die") == 0) {
      usleep(200000);
      raise(SIGKILL);
    }
    if (std::strcmp(mode, "compute") == 0) {
      const double seconds = argc > 2 ? std::atof(argv[2]) : 3.0;
      const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
      volatile std::uint64_t x = 1;
      while (std::chrono::steady_clock::now() < until) x = x * 6364136223846793005ULL + 1;
    }
  }
  splitc::barrier();
  return harness::pass("udp_silence");
}
