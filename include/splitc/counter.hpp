// Counters: how split-phase operations record completion. A counter is an
// opaque value; get/put counters count operations still in flight, store
// counters count bytes (seed 003 §5.2). Programs only pass counters to the
// operations and test or wait on them.
#pragma once

#include <atomic>
#include <cstdint>

namespace splitc {

class counter {
 public:
  constexpr counter() noexcept = default;
  counter(const counter&) = delete;
  counter& operator=(const counter&) = delete;

  /// The raw value, for diagnostics and tests (never needed to use a counter).
  [[nodiscard]] std::int64_t value() const noexcept {
    return std::atomic_ref<const std::int64_t>(value_).load(std::memory_order_acquire);
  }

  /// The count itself, for the C interface's inline code (splitc.h).
  std::int64_t* storage() noexcept { return &value_; }

  // Owner-only updates (get/put completion happens in the owner's poll).
  void add_local(std::int64_t n) noexcept { value_ += n; }
  // Updates that other processes may race with (store byte counts).
  void add_shared(std::int64_t n) noexcept {
    std::atomic_ref<std::int64_t>(value_).fetch_add(n, std::memory_order_acq_rel);
  }

 private:
  alignas(8) std::int64_t value_ = 0;
};

static_assert(sizeof(counter) == 8);

}  // namespace splitc
