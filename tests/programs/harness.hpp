// Harness of the test programs: CHECK, address exchange, harness heap, the PASS line.
#pragma once

#include <splitc/splitc.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace harness {

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
/// heap() onwards, which is at the same address on every processor.
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
