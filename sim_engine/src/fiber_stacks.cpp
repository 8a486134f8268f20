// Guarded fiber stacks and the fault handler (fiber_stacks.hpp).
#include <splitc/sim_engine/fiber_stacks.hpp>

#include <splitc/port/fail.hpp>

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace splitc::backends::sim {
namespace {

const fault_report* report = nullptr;  // per process: the job's one report

/// Every live stack's guard, in a fixed table a signal handler can read.
struct stack_range {
  std::uintptr_t guard_low, guard_high;
};
constexpr int max_stacks = 4096;  // SPLITC_PROCS is at most 4096
stack_range guards[max_stacks];
int guard_count = 0;

bool in_a_guard(std::uintptr_t address) {
  for (int i = 0; i < guard_count; ++i)
    if (address >= guards[i].guard_low && address < guards[i].guard_high) return true;
  return false;
}

void on_fault(int sig, siginfo_t* info, void*) {
  char line[256];
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const int running = report != nullptr ? *report->running : -1;
  const int procs = report != nullptr ? report->procs : 0;
  char who[64];
  if (running >= 0)
    std::snprintf(who, sizeof who, "processor %d of %d", running, procs);
  else
    std::snprintf(who, sizeof who, "the sim's scheduler");
  int n;
  if (running >= 0 && in_a_guard(address)) {
    n = std::snprintf(line, sizeof line,
                      "splitc: %s: stack overflow: its stack of %zu bytes is exhausted "
                      "(fault at %#lx, in the guard below it); SPLITC_SIM_STACK_SIZE sets it\n",
                      who, report->stack_size, static_cast<unsigned long>(address));
  } else {
    n = std::snprintf(line, sizeof line, "splitc: %s: %s at address %#lx (signal %d)\n", who,
                      sig == SIGSEGV ? "segmentation fault" : "bus error",
                      static_cast<unsigned long>(address), sig);
  }
  if (n > 0) [[maybe_unused]] auto w = write(STDERR_FILENO, line, static_cast<std::size_t>(n));
  // Die of the signal, as the process would have: the status says which.
  signal(sig, SIG_DFL);
  raise(sig);
  _exit(128 + sig);
}

}  // namespace

boost::context::stack_context guarded_stack::allocate() {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t usable = (size + page - 1) / page * page;
  const std::size_t total = usable + guard_bytes;
  void* low = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (low == MAP_FAILED)
    port::fail("sim: cannot map a processor's stack of {} bytes: {}", total, std::strerror(errno));
  if (mprotect(low, guard_bytes, PROT_NONE) != 0)
    port::fail("sim: cannot protect a stack's guard: {}", std::strerror(errno));
  if (guard_count < max_stacks) {
    const auto g = reinterpret_cast<std::uintptr_t>(low);
    guards[guard_count++] = {g, g + guard_bytes};
  }
  boost::context::stack_context stack;
  stack.size = usable;
  stack.sp = static_cast<char*>(low) + total;
  return stack;
}

void guarded_stack::deallocate(boost::context::stack_context& stack) noexcept {
  void* low = static_cast<char*>(stack.sp) - stack.size - guard_bytes;
  munmap(low, stack.size + guard_bytes);
  const auto g = reinterpret_cast<std::uintptr_t>(low);
  for (int i = 0; i < guard_count; ++i)
    if (guards[i].guard_low == g) {
      guards[i] = guards[--guard_count];
      break;
    }
}

void install_fault_handler(const fault_report* r) {
  report = r;
  static char alternate[64 * 1024];  // per process: the handler's own stack
  stack_t ss{};
  ss.ss_sp = alternate;
  ss.ss_size = sizeof alternate;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, nullptr);
  sigaction(SIGBUS, &sa, nullptr);
}

}  // namespace splitc::backends::sim
