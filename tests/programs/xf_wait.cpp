// Error: misuse of the waits on memory (splitc/memory_wait.hpp) ends the job with a message
// naming the processor and the call, never a hang. The argument picks the mistake:
//   lengths   wait_until_all with a status array shorter than the word array
//   indices   wait_until_some with too short an index array
//   cmp       a comparison that is not one of cmp's (a bad value cast from C)
//   handler   wait_until inside a handler
#include "harness.hpp"

#include <splitc/memory_wait.hpp>

#include <cstdint>
#include <cstring>
#include <string>

namespace {
splitc::handler_id h_wait;
void on_wait(const splitc::am_message&) {
  std::uint64_t word = 0;
  splitc::wait_until(&word, splitc::cmp::eq, std::uint64_t{1});
}
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::string mistake = argc > 1 ? argv[1] : "lengths";
  h_wait = splitc::register_handler(on_wait);
  std::uint64_t words[4] = {1, 1, 1, 1};
  const int status[2] = {0, 0};
  std::size_t indices[2];
  if (splitc::myproc() == splitc::procs() - 1) {
    if (mistake == "lengths")
      splitc::wait_until_all(std::span<std::uint64_t>(words), splitc::cmp::eq, std::uint64_t{1},
                             std::span<const int>(status));
    else if (mistake == "indices")
      (void)splitc::wait_until_some(std::span<std::uint64_t>(words), std::span<std::size_t>(indices),
                                    splitc::cmp::eq, std::uint64_t{1});
    else if (mistake == "cmp")
      splitc::wait_until(&words[0], static_cast<splitc::cmp>(9), std::uint64_t{1});
    else if (mistake == "handler")
      splitc::am_request(0, h_wait);
  }
  splitc::barrier();
  return harness::pass("xf_wait");
}
