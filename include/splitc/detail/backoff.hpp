// Waiting without burning a core: spin briefly, then yield, then sleep in
// growing steps. With more processes than cores (7 on 2) a waiter that only
// spun would keep the process it waits for off the CPU.
#pragma once

#include <sched.h>
#include <time.h>

#include <cstdint>

namespace splitc::detail {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class backoff {
 public:
  /// Call after each unsuccessful check.
  void pause() noexcept {
    ++rounds_;
    if (rounds_ < busy_rounds) {
      // Poll flat out first: a reply is usually a few hundred ns away.
    } else if (rounds_ < spin_rounds) {
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
  static constexpr std::uint32_t busy_rounds = 256;
  static constexpr std::uint32_t spin_rounds = 4000;
  static constexpr std::uint32_t yield_rounds = 200;
  static constexpr std::uint64_t first_sleep_ns = 1000;
  static constexpr std::uint64_t max_sleep_ns = 50000;
  std::uint32_t rounds_ = 0;
  std::uint64_t sleep_ns_ = first_sleep_ns;
};

}  // namespace splitc::detail
