// Waiting without burning a core: spin briefly, then yield, then sleep in
// growing steps. With more processes than cores (7 on 2) a waiter that only
// spun would keep the process it waits for off the CPU: there (the runtime
// counts the processes of its host at init, oversubscribed below) a waiter
// yields after its first few polls, as Open MPI's yield_when_idle does.
// A yield that kept the process off the CPU for long says that programs outside
// the job hold the cores: waits then sleep instead of yielding for a while.
#pragma once

#include <sched.h>
#include <time.h>

#include <atomic>
#include <cstdint>

namespace splitc::port {

inline std::uint64_t monotonic_ns() noexcept {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

// Yielding among busy programs. sched_yield gives the core to another runnable process; among
// the job's own waiters that is a turn of a few microseconds, but a program that never yields
// (a compiler, another job, the suite's other tests) then runs out its whole time slice,
// milliseconds, before the yielder runs again. A wait that keeps yielding then crosses every
// hop of a message at that pace: a barrier of 4 processes on this machine's 2 cores beside two
// busy loops took 2.2 ms, and 0.2 ms with waits that sleep (a sleeper that wakes is put ahead
// of a busy program), against 4.4 us with no other load, where yields win (docs/running.md,
// "More processes than cores"). So each yield is timed: one that took longer than
// slow_yield_ns makes every wait of this process sleep instead of yielding for the next
// slow_yield_window_ns, after which a yield is tried again.
inline constexpr std::uint64_t slow_yield_ns = 500000;
inline constexpr std::uint64_t slow_yield_window_ns = 10000000;
/// The end of the current window of sleeping instead of yielding (monotonic ns; 0: none yet).
inline std::atomic<std::uint64_t> yields_slow_until_ns{0};

/// Records a yield that began at `started_ns` and returned at `ended_ns`.
inline void note_yield(std::uint64_t started_ns, std::uint64_t ended_ns) noexcept {
  if (ended_ns - started_ns > slow_yield_ns)
    yields_slow_until_ns.store(ended_ns + slow_yield_window_ns, std::memory_order_relaxed);
}
/// Whether a waiter should yield at `now_ns` rather than sleep.
inline bool yielding_pays(std::uint64_t now_ns) noexcept {
  return now_ns >= yields_slow_until_ns.load(std::memory_order_relaxed);
}
/// sched_yield, timed from `started_ns` (note_yield).
inline void yield_timed(std::uint64_t started_ns) noexcept {
  sched_yield();
  note_yield(started_ns, monotonic_ns());
}
/// sched_yield, timed.
inline void yield_cpu() noexcept { yield_timed(monotonic_ns()); }
/// yield_cpu where yielding pays (true); false within a slow yield's window, where the caller
/// sleeps instead. One clock read serves the test and the timing.
inline bool yield_if_it_pays() noexcept {
  const std::uint64_t started = monotonic_ns();
  if (!yielding_pays(started)) return false;
  yield_timed(started);
  return true;
}

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Set once at start-up (runtime.cpp) when this host runs more of the job's processes than it
/// has processors online: spinning then only delays the process being waited for.
inline bool oversubscribed = false;

class backoff {
 public:
  /// Call after each unsuccessful check.
  void pause() noexcept {
    ++rounds_;
    if (rounds_ < busy_rounds) {
      // Poll flat out first: a reply is usually a few hundred ns away.
      if (oversubscribed && rounds_ >= oversubscribed_busy_rounds) rounds_ = spin_rounds;
    } else if (rounds_ < spin_rounds) {
      // Spinning is bounded by time as well as by rounds: a poll that is a
      // system call (udp's recv, ~1 us) would otherwise keep a core for
      // milliseconds before yielding it. The clock is read only here, every
      // 64 rounds, so short waits never pay for it.
      if (rounds_ == busy_rounds) {
        spin_start_ns_ = monotonic_ns();
      } else if (rounds_ % 64 == 0 && monotonic_ns() - spin_start_ns_ > max_spin_ns) {
        rounds_ = spin_rounds;  // yield from the next round on
      }
      cpu_relax();
    } else if (rounds_ >= spin_rounds + yield_rounds || !yield_if_it_pays()) {
      timespec t{0, static_cast<long>(sleep_ns_)};
      nanosleep(&t, nullptr);
      if (sleep_ns_ < max_sleep_ns) sleep_ns_ *= 2;
    }
  }
  /// Call when something happened: the next wait starts with spinning again.
  void reset() noexcept {
    rounds_ = 0;
    sleep_ns_ = first_sleep_ns;
  }
  /// Whether a pause since the last reset slept.
  bool has_slept() const noexcept { return sleep_ns_ != first_sleep_ns; }

 private:
  static constexpr std::uint32_t busy_rounds = 256;
  static constexpr std::uint32_t oversubscribed_busy_rounds = 16;
  static constexpr std::uint32_t spin_rounds = 4000;
  static constexpr std::uint64_t max_spin_ns = 100000;  ///< spinning phase, at most
  static constexpr std::uint32_t yield_rounds = 200;
  static constexpr std::uint64_t first_sleep_ns = 1000;
  static constexpr std::uint64_t max_sleep_ns = 50000;
  std::uint32_t rounds_ = 0;
  std::uint64_t spin_start_ns_ = 0;
  std::uint64_t sleep_ns_ = first_sleep_ns;
};

}  // namespace splitc::port
