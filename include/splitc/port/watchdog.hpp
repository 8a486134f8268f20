// The job's liveness watchdog, the porting kit's supervision piece, used by
// every backend (started by init, stopped by finalize; src/port/watchdog.cpp).
//
// A thread per process heartbeats on a side channel of its own (a UDP socket
// whose addresses the processes exchange at start-up) to the next processor
// and watches the previous one, so the job's processors form a ring. The
// watched processor is reported, and the job ended, when it has been silent
// for SPLITC_SILENCE seconds (stopped, hung, unreachable), or when it is gone
// from this host before telling that it reached finalize (exit(0) or _exit(0)
// after init, a death the launcher did not end the job for). The main thread
// is never involved: a processor that computes for a long time without
// polling, or sits in a long transfer, keeps being heard.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace splitc::port {

/// Seconds a processor may be silent before the job ends: SPLITC_SILENCE
/// (or SPLITC_UDP_SILENCE, its former name), default 10; a positive number.
double silence_seconds();

class watchdog {
 public:
  /// An all-gather over the backend's bootstrap channel: every processor
  /// contributes `len` bytes, `all` receives procs × len in processor order.
  using exchange_fn = std::function<void(const void* mine, std::size_t len, void* all)>;

  /// Collective (every processor of a job of two or more).
  watchdog(int myproc, int procs, const exchange_fn& exchange);
  watchdog(const watchdog&) = delete;
  watchdog& operator=(const watchdog&) = delete;
  /// Stops the thread (after finalizing(): this processor may now leave).
  ~watchdog();

  /// This processor has reached finalize: its watcher no longer takes its
  /// disappearance for an early exit.
  void finalizing() noexcept;

  /// This processor is ending with an error it has reported (fatal_error, a failing exit):
  /// its watcher does not report its disappearance as an early exit of its own (a second,
  /// misleading line); it leaves the launcher time to end the job, and ends it otherwise.
  void failing() noexcept;

 private:
  struct state;
  std::unique_ptr<state> s_;
};

}  // namespace splitc::port
