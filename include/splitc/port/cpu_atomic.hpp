// The read-modify-writes of splitc's atomics applied with the CPU's own atomics
// to a word this process can address: used by the core (atomic_operations.hpp)
// for words it reaches directly and by backends whose native atomics are the
// CPU's.
#pragma once

#include <splitc/port/am.hpp>

#include <atomic>
#include <type_traits>

namespace splitc::port {

/// `a` is the addend, the mask, the value swapped in or stored, or
/// compare_swap's expected value; `b` what compare_swap stores. Returns the
/// word's old value (store: `a`). T is an integer type.
template <class T>
inline T apply_atomic(T* target, native_atomic_op op, T a, T b) noexcept {
  static_assert(std::is_integral_v<T>);
  std::atomic_ref<T> r(*target);
  switch (op) {
    case native_atomic_op::fetch_add: return r.fetch_add(a, std::memory_order_acq_rel);
    case native_atomic_op::swap: return r.exchange(a, std::memory_order_acq_rel);
    case native_atomic_op::fetch_and: return r.fetch_and(a, std::memory_order_acq_rel);
    case native_atomic_op::fetch_or: return r.fetch_or(a, std::memory_order_acq_rel);
    case native_atomic_op::fetch_xor: return r.fetch_xor(a, std::memory_order_acq_rel);
    case native_atomic_op::load: return r.load(std::memory_order_acquire);
    case native_atomic_op::store: r.store(a, std::memory_order_release); return a;
    case native_atomic_op::compare_swap: break;
  }
  T expected = a;
  r.compare_exchange_strong(expected, b, std::memory_order_acq_rel);
  return expected;
}

}  // namespace splitc::port
