// Harness of the test programs: CHECK, address exchange, harness heap, the PASS line.
#pragma once

#include <splitc/splitc.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

namespace harness {

/// Every processor of the job runs in this one process (a backend with has_shared_process):
/// statics are shared, so a program's per-processor state is in splitc::per_processor values
/// (their addresses differ between processors) or in the segment (the one memory at the same
/// address on every processor).
inline constexpr bool shared_process = splitc::has_shared_process<splitc::active_backend>;

inline int processor() noexcept {
  if (splitc::initialized()) return splitc::myproc();
  const char* me = std::getenv("SPLITC_MYPROC");
  return me != nullptr ? std::atoi(me) : 0;
}

[[noreturn]] inline void fail(const char* file, int line, const char* expr,
                              const std::string& detail) {
  std::fflush(stdout);
  const std::string msg = fmt::format("processor {}: {}:{}: {}{}{}\n", processor(), file, line,
                                      expr, detail.empty() ? "" : ": ", detail);
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg.data(), msg.size());
  std::exit(1);
}

/// The first bytes of my_segment() belong to the harness (the exchange slot); programs use
/// heap() onwards, which is at the same address on every processor (on sim, the same offset).
inline constexpr std::size_t reserved_bytes = 64 * 1024;
inline unsigned char* heap() {
  return static_cast<unsigned char*>(splitc::my_segment().base) + reserved_bytes;
}
inline std::size_t heap_size() { return splitc::my_segment().size - reserved_bytes; }

/// Collective: every processor passes one of its addresses and gets everyone's, by processor.
/// Processor q publishes its address in its own segment; the others read it with splitc::read.
template <class T>
std::vector<T*> exchange(T* mine) {
  auto* slot = static_cast<T**>(splitc::my_segment().base);
  *slot = mine;
  splitc::barrier();
  std::vector<T*> all(static_cast<std::size_t>(splitc::procs()));
  for (int q = 0; q < splitc::procs(); ++q) all[static_cast<std::size_t>(q)] = splitc::read(splitc::toglobal(q, slot));
  splitc::barrier();  // the slot may be reused
  return all;
}

/// An explicit store counter "in static data": a store's receive counter is named by the
/// sender, so it must be at the same address on every processor. Static data is, where each
/// processor has a process of its own (then this is one static counter); where processors share
/// one, the counter at `segment_offset` past heap() stands in for it. Each processor's first
/// get() constructs that one: call it before a barrier that precedes every store naming it.
class static_counter {
 public:
  constexpr explicit static_counter(std::size_t segment_offset) : segment_offset_(segment_offset) {}

  splitc::counter& get() {
    if constexpr (shared_process) {
      auto* at = reinterpret_cast<splitc::counter*>(heap() + segment_offset_);
      if (!*constructed_) {
        new (at) splitc::counter;
        *constructed_ = true;
      }
      return *at;
    } else {
      return *in_static_data_;
    }
  }

 private:
  std::size_t segment_offset_;
  splitc::per_processor<splitc::counter> in_static_data_;
  splitc::per_processor<bool> constructed_;
};

/// The last step of every program: processor 0 prints "PASS <name>" once the whole job has
/// finalized.
inline int pass(const char* name) {
  const bool lead = splitc::myproc() == 0;
  splitc::finalize();
  if (lead) {
    std::printf("PASS %s\n", name);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace harness

#define CHECK(expr) \
  ((expr) ? static_cast<void>(0) : ::harness::fail(__FILE__, __LINE__, #expr, std::string()))
#define CHECK_MSG(expr, ...) \
  ((expr) ? static_cast<void>(0)  \
          : ::harness::fail(__FILE__, __LINE__, #expr, fmt::format(__VA_ARGS__)))
