// Waiting without burning a core: spin briefly, then yield, then sleep in
// growing steps. With more processes than cores (7 on 2) a waiter that only
// spun would keep the process it waits for off the CPU: there (the runtime
// counts the processes of its host at init, oversubscribed below) a waiter
// yields after its first few polls, as Open MPI's yield_when_idle does.
#pragma once

#include <sched.h>
#include <time.h>

#include <cstdint>

namespace splitc::port {

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
        spin_start_ns_ = now_ns();
      } else if (rounds_ % 64 == 0 && now_ns() - spin_start_ns_ > max_spin_ns) {
        rounds_ = spin_rounds;  // yield from the next round on
      }
      cpu_relax();
    } else if (rounds_ < spin_rounds + yield_rounds) {
      sched_yield();
    } else {
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

 private:
  static std::uint64_t now_ns() noexcept {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u +
           static_cast<std::uint64_t>(t.tv_nsec);
  }

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
