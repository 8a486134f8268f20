// What the mpi backend's test programs share: CHECK (names the processor and
// ends the job through a non-zero exit, which the backend turns into
// MPI_Abort), access to the backend object, and the final PASS line.
#pragma once

#include <splitc/backends/mpi.hpp>
#include <splitc/port/env.hpp>
#include <splitc/splitc.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace mpitest {

inline int processor() noexcept { return splitc::initialized() ? splitc::myproc() : -1; }

[[noreturn]] inline void fail(const char* file, int line, const char* expr,
                              const std::string& detail) {
  std::fflush(stdout);
  const std::string msg = fmt::format("processor {}: {}:{}: CHECK failed: {}{}{}\n", processor(),
                                      file, line, expr, detail.empty() ? "" : ": ", detail);
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, msg.data(), msg.size());
  std::exit(1);
}

/// The backend object of this process (beyond the public API: tests tune it).
inline splitc::backends::mpi::mpi_backend& backend() { return splitc::detail::ctx().backend; }

/// Whether messages to this process's peers on the host go over the same-host
/// rings (the default) rather than as MPI packets: then the checks of MPI's
/// protocols (compact packets, lent rendezvous sends) have nothing to see.
inline bool messages_on_rings() {
  return splitc::port::env::same_host_messages.get() && backend().host_members().size() > 1;
}

/// Processor 0 prints "PASS <name>" after the whole job has finalized.
inline int pass(const char* name) {
  const bool lead = splitc::myproc() == 0;
  splitc::finalize();
  if (lead) {
    std::printf("PASS %s\n", name);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace mpitest

#define CHECK(expr) \
  ((expr) ? static_cast<void>(0) : ::mpitest::fail(__FILE__, __LINE__, #expr, std::string()))
#define CHECK_MSG(expr, ...)      \
  ((expr) ? static_cast<void>(0) \
          : ::mpitest::fail(__FILE__, __LINE__, #expr, fmt::format(__VA_ARGS__)))
