// Error: a handler that calls a blocking operation (read or barrier) ends the job.
#include "harness.hpp"

#include <cstdlib>
#include <cstring>

namespace {
splitc::handler_id h_request;
int* g_peer_word = nullptr;  // malloc memory of processor 0
bool g_use_barrier = false;  // argv[1] == "barrier"; otherwise a read that needs a reply
void on_request(const splitc::am_message&) {
  if (g_use_barrier) {
    splitc::barrier();
  } else {
    const int v = splitc::read(splitc::toglobal(0, g_peer_word));  // needs a reply: waits
    std::printf("read %d inside a handler\n", v);
  }
}
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  g_use_barrier = argc > 1 && std::strcmp(argv[1], "barrier") == 0;
  h_request = splitc::register_handler(on_request);
  auto* word = static_cast<int*>(std::malloc(sizeof(int)));
  *word = 42;
  g_peer_word = harness::exchange(word)[0];
  splitc::barrier();  // no request before everyone knows the address
  if (splitc::myproc() == 0) splitc::am_request(splitc::procs() - 1, h_request);
  splitc::barrier();
  splitc::barrier();
  return harness::pass("xf_hwait");
}
