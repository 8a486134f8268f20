// The processors' stacks: each fiber's stack is its own mapping with an
// inaccessible guard below it, and a SIGSEGV/SIGBUS handler on an alternate
// stack turns a fault into one line naming the processor: a stack overflow
// (the fault is in the running processor's guard) or a segmentation fault.
#pragma once

#include <boost/context/stack_context.hpp>

#include <cstddef>

namespace splitc::backends::sim {

/// A Boost.Context stack allocator: `size` usable bytes above a guard.
struct guarded_stack {
  std::size_t size;
  static constexpr std::size_t guard_bytes = 256 * 1024;

  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context& stack) noexcept;
};

/// What the fault handler reports from (read by a signal handler: plain data).
struct fault_report {
  const int* running;     ///< the running processor, or -1 for the scheduler
  int procs;
  std::size_t stack_size;
};

/// Install the handlers (once per process); `report` must outlive the job.
void install_fault_handler(const fault_report* report);

}  // namespace splitc::backends::sim
