// The read-modify-writes of splitc's atomics applied with the CPU's own atomics
// to a word this process can address: used by the core (atomics.hpp) for words
// it reaches directly and by backends whose native atomics are the CPU's.
#pragma once

#include <splitc/port/am.hpp>

#include <atomic>

namespace splitc::port {

/// `a` is the addend, the value swapped in, or compare_swap's expected value;
/// `b` what compare_swap stores. Returns the word's old value.
template <class T>
inline T apply_atomic(T* target, native_atomic_op op, T a, T b) noexcept {
  std::atomic_ref<T> r(*target);
  switch (op) {
    case native_atomic_op::fetch_add: return r.fetch_add(a, std::memory_order_acq_rel);
    case native_atomic_op::swap: return r.exchange(a, std::memory_order_acq_rel);
    default: {
      T expected = a;
      r.compare_exchange_strong(expected, b, std::memory_order_acq_rel);
      return expected;
    }
  }
}

}  // namespace splitc::port
