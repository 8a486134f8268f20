// Error: a signalled put whose signal word is on another processor than its data ends the job
// with a message naming both, never a put without its signal.
#include "harness.hpp"

#include <splitc/put_signal.hpp>

#include <cstdint>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  auto words = splitc::all_spread_malloc<std::uint64_t>(static_cast<std::size_t>(splitc::procs()));
  std::uint64_t* mine = words.local();  // the same address on every processor
  const std::uint64_t value = 1;
  if (splitc::myproc() == splitc::procs() - 1)
    splitc::put_signal(splitc::global_ptr<void>(0, mine), &value, sizeof value,
                       splitc::global_ptr<std::uint64_t>(1, mine), 1, splitc::signal_op::set);
  splitc::barrier();
  return harness::pass("xf_put_signal");
}
