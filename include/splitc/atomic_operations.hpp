// Atomic operations on words of global memory (issue 42; seed §3.5): on 32- and
// 64-bit integers fetch and non-fetch add, and, or, xor, min, max, and swap,
// compare-and-swap, load and store; on float and double add, min, max, swap,
// compare-and-swap, load and store. Each blocking, and split-phase on a
// counter (the fetched value delivered into a local variable once the counter
// is synced). The seed's fetch_and_add, exchange, cmp_and_swap and test_and_set
// are among them.
//
// One rule, whichever path an atomic takes: all processors' atomics on one
// word are atomic with respect to each other.
//  - A word the layer's own atomics reach (has_native_atomics: OpenSHMEM's on
//    the symmetric segment) takes them for every processor's atomics, its
//    owner's included; what the layer lacks (min, max, floating-point add, and
//    what it does not declare) is composed of its load and compare-and-swap.
//  - Every other word takes the CPU's atomics (std::atomic_ref) where it is
//    mapped here -- its owner, a peer on smp or the same-host layer -- and an
//    active message to its owner otherwise, whose handler applies the same CPU
//    atomics there. Both paths are CPU atomics on the one physical word, so a
//    direct atomic and one carried by a message cannot interleave badly.
// Floating-point compare-and-swap compares the bits (0.0 and -0.0 differ; a NaN
// matches itself); min and max keep the word when the comparison fails (NaN).
// Integer add wraps around as unsigned arithmetic does.
#pragma once

#include <splitc/counter.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/port/cpu_atomic.hpp>

#include <atomic>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace splitc {

template <class T>
concept atomic_integer = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
/// The word types of the atomic operations.
template <class T>
concept atomic_value = atomic_integer<T> || std::is_same_v<T, float> || std::is_same_v<T, double>;

namespace detail {

/// What an atomic does to its word.
enum class amo : std::uint8_t { add, bit_and, bit_or, bit_xor, min, max, swap, compare_swap, load, store };
/// The word's type, on the wire.
enum class amo_type : std::uint8_t { i32, i64, u32, u64, f32, f64 };

template <atomic_value T>
constexpr amo_type amo_type_of() noexcept {
  if constexpr (std::is_same_v<T, float>) return amo_type::f32;
  else if constexpr (std::is_same_v<T, double>) return amo_type::f64;
  else if constexpr (sizeof(T) == 4) return std::is_signed_v<T> ? amo_type::i32 : amo_type::u32;
  else return std::is_signed_v<T> ? amo_type::i64 : amo_type::u64;
}

template <atomic_value T>
using amo_bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
template <atomic_value T>
inline std::uint64_t to_bits(T v) noexcept {
  return std::bit_cast<amo_bits_t<T>>(v);
}
template <atomic_value T>
inline T from_bits(std::uint64_t bits) noexcept {
  return std::bit_cast<T>(static_cast<amo_bits_t<T>>(bits));
}

/// The word's new value when it held `old` (the read-modify-writes that have no
/// CPU or layer instruction of their own are composed of this and compare-and-swap).
template <atomic_value T>
inline T combine(amo op, T old, T a) noexcept {
  switch (op) {
    case amo::add:
      if constexpr (atomic_integer<T>)
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(old) +
                              static_cast<std::make_unsigned_t<T>>(a));
      else
        return old + a;
    case amo::min: return a < old ? a : old;
    case amo::max: return old < a ? a : old;
    default:
      if constexpr (atomic_integer<T>) {
        if (op == amo::bit_and) return old & a;
        if (op == amo::bit_or) return old | a;
        if (op == amo::bit_xor) return old ^ a;
      }
      return a;  // swap, store
  }
}

/// The layer operation that is `op` on a word of type T, if there is one
/// (load and store have one each, but a layer may lack them: native_amo).
template <atomic_value T>
constexpr bool native_op_for(amo op, native_atomic_op& n) noexcept {
  switch (op) {
    case amo::add: n = native_atomic_op::fetch_add; return atomic_integer<T>;
    case amo::bit_and: n = native_atomic_op::fetch_and; return true;
    case amo::bit_or: n = native_atomic_op::fetch_or; return true;
    case amo::bit_xor: n = native_atomic_op::fetch_xor; return true;
    case amo::swap: n = native_atomic_op::swap; return true;
    case amo::compare_swap: n = native_atomic_op::compare_swap; return true;
    case amo::load: n = native_atomic_op::load; return true;
    case amo::store: n = native_atomic_op::store; return true;
    default: return false;  // min, max
  }
}

/// CPU atomics on a word this process addresses. Returns the old value.
template <atomic_value T>
inline T cpu_amo(T* target, amo op, T a, T b) noexcept {
  native_atomic_op n{};
  if constexpr (atomic_integer<T>) {
    if (native_op_for<T>(op, n)) return port::apply_atomic(target, n, a, b);
  }
  std::atomic_ref<T> r(*target);
  switch (op) {
    case amo::swap: return r.exchange(a, std::memory_order_acq_rel);
    case amo::load: return r.load(std::memory_order_acquire);
    case amo::store: r.store(a, std::memory_order_release); return a;
    case amo::compare_swap: {
      T expected = a;
      r.compare_exchange_strong(expected, b, std::memory_order_acq_rel);
      return expected;
    }
    default: break;  // min, max, floating-point add
  }
  T old = r.load(std::memory_order_relaxed);
  for (;;) {
    const T next = combine(op, old, a);
    if (to_bits(next) == to_bits(old)) return old;  // min or max: nothing to change
    if (r.compare_exchange_weak(old, next, std::memory_order_acq_rel)) return old;
  }
}

/// The atomic by the layer's own atomics (native_amo), composed where the layer lacks the
/// operation. Out of line: the CPU's path, which every atomic on a backend without the layer's
/// atomics (or with them off) takes, stays as small as on a backend that has none.
template <class B, atomic_value T>
[[gnu::noinline]] T layer_amo(B& backend, proc_t p, T* target, amo op, T a, T b) {
  constexpr unsigned layer_ops = native_atomic_ops_of<B>();
  auto native = [&](native_atomic_op n, std::uint64_t x, std::uint64_t y) {
    const std::uint64_t r = backend.native_atomic(p, target, n, sizeof(T), x, y);
    return sizeof(T) == 4 ? r & 0xffffffffu : r;
  };
  native_atomic_op n{};
  if (native_op_for<T>(op, n) && (layer_ops & native_atomic_bit(n)) != 0)
    return from_bits<T>(native(n, to_bits(a), to_bits(b)));
  if (op == amo::store) {  // a store is a swap whose old value nobody wants
    native(native_atomic_op::swap, to_bits(a), 0);
    return a;
  }
  // A compare-and-swap of 0 by 0 reads the word (and leaves it as it was).
  std::uint64_t seen = (layer_ops & native_atomic_bit(native_atomic_op::load)) != 0
                           ? native(native_atomic_op::load, 0, 0)
                           : native(native_atomic_op::compare_swap, 0, 0);
  if (op == amo::load) return from_bits<T>(seen);
  for (;;) {  // the rest, composed: compare-and-swap until no one got in between
    const T now = from_bits<T>(seen);
    const std::uint64_t next = to_bits(combine(op, now, a));
    if (next == seen) break;
    const std::uint64_t found = native(native_atomic_op::compare_swap, seen, next);
    if (found == seen) break;
    seen = found;
  }
  return from_bits<T>(seen);
}

/// The layer's own atomics on the word, when they reach it (the old value in `old`).
template <class B, atomic_value T>
inline bool native_amo(B& backend, proc_t p, T* target, amo op, T a, T b, T& old) {
  if constexpr (has_native_atomics<B>) {
    if (!backend.native_atomic_reaches(p, target, sizeof(T))) return false;
    old = layer_amo(backend, p, target, op, a, b);
    return true;
  }
  return false;
}

/// Applies the atomic here and now where it can be (the word is local, reached
/// by the layer's atomics, or mapped here): true with the old value in `old`.
template <atomic_value T>
inline bool amo_here(context& c, global_ptr<T> g, amo op, T a, T b, T& old, const char* what) {
  const proc_t p = g.proc();
  T* target = g.address();
  if (p == c.myproc) [[likely]] {
    if (target == nullptr) [[unlikely]] null_target(c, p, what);
    if (!native_amo(c.backend, p, target, op, a, b, old)) old = cpu_amo(target, op, a, b);
    return true;
  }
  check_remote(c, p, target, what);
  if (native_amo(c.backend, p, target, op, a, b, old)) return true;
  if (void* d = direct(c, p, target, sizeof(T))) {
    old = cpu_amo(static_cast<T*>(d), op, a, b);
    return true;
  }
  return false;
}

/// The active-message path (src/atomics.cpp): the owner applies the atomic with
/// CPU atomics; the old value's bytes land at `result` (when not null) and
/// `done` goes down by one (it goes up by one here).
void amo_request(context& c, proc_t p, void* target, amo_type type, amo op, std::uint64_t a,
                 std::uint64_t b, void* result, counter& done);

template <atomic_value T>
inline T amo_blocking(global_ptr<T> g, amo op, T a, T b, const char* what) {
  auto& c = ctx();
  T old{};
  if (amo_here(c, g, op, a, b, old, what)) [[likely]]
    return old;
  counter done;
  amo_request(c, g.proc(), g.address(), amo_type_of<T>(), op, to_bits(a), to_bits(b), &old, done);
  wait_until(c, what, [&] { return done.value() == 0; });
  return old;
}

template <atomic_value T>
inline void amo_async(counter& done, T* result, global_ptr<T> g, amo op, T a, T b,
                      const char* what) {
  auto& c = ctx();
  T old{};
  if (amo_here(c, g, op, a, b, old, what)) [[likely]] {
    if (result != nullptr) *result = old;
    return;
  }
  amo_request(c, g.proc(), g.address(), amo_type_of<T>(), op, to_bits(a), to_bits(b), result, done);
}

}  // namespace detail

// ---- the read-modify-writes: fetch and non-fetch, blocking and split-phase -------------
// atomic_fetch_OP(p, v) returns the word's old value; atomic_OP(p, v) returns once
// the word is updated; atomic_fetch_OP_async(done, &result, p, v) and
// atomic_OP_async(done, p, v) start it: it is done (and `result` set) once
// `done` is synced. and, or and xor are for integers only.

#define SPLITC_ATOMIC_READ_MODIFY_WRITE(NAME, OP, CONCEPT)                                         \
  template <CONCEPT T>                                                                             \
  inline T atomic_fetch_##NAME(global_ptr<T> p, T value) {                                         \
    return detail::amo_blocking(p, detail::amo::OP, value, T{}, "atomic_fetch_" #NAME);            \
  }                                                                                                \
  template <CONCEPT T>                                                                             \
  inline void atomic_##NAME(global_ptr<T> p, T value) {                                            \
    (void)detail::amo_blocking(p, detail::amo::OP, value, T{}, "atomic_" #NAME);                   \
  }                                                                                                \
  template <CONCEPT T>                                                                             \
  inline void atomic_fetch_##NAME##_async(counter& done, T* result, global_ptr<T> p, T value) {    \
    detail::amo_async(done, result, p, detail::amo::OP, value, T{}, "atomic_fetch_" #NAME "_async"); \
  }                                                                                                \
  template <CONCEPT T>                                                                             \
  inline void atomic_##NAME##_async(counter& done, global_ptr<T> p, T value) {                     \
    detail::amo_async(done, static_cast<T*>(nullptr), p, detail::amo::OP, value, T{},              \
                      "atomic_" #NAME "_async");                                                   \
  }

SPLITC_ATOMIC_READ_MODIFY_WRITE(add, add, atomic_value)
SPLITC_ATOMIC_READ_MODIFY_WRITE(min, min, atomic_value)
SPLITC_ATOMIC_READ_MODIFY_WRITE(max, max, atomic_value)
SPLITC_ATOMIC_READ_MODIFY_WRITE(and, bit_and, atomic_integer)
SPLITC_ATOMIC_READ_MODIFY_WRITE(or, bit_or, atomic_integer)
SPLITC_ATOMIC_READ_MODIFY_WRITE(xor, bit_xor, atomic_integer)
#undef SPLITC_ATOMIC_READ_MODIFY_WRITE

// ---- swap, compare-and-swap, load and store ------------------------------------------------

/// Puts `value` in the word; returns what it held.
template <atomic_value T>
inline T atomic_swap(global_ptr<T> p, T value) {
  return detail::amo_blocking(p, detail::amo::swap, value, T{}, "atomic_swap");
}
/// Puts `desired` in the word if it holds `expected`; returns what it held (the
/// swap happened if that equals `expected`).
template <atomic_value T>
inline T atomic_compare_swap(global_ptr<T> p, T expected, T desired) {
  return detail::amo_blocking(p, detail::amo::compare_swap, expected, desired,
                              "atomic_compare_swap");
}
template <atomic_value T>
inline T atomic_load(global_ptr<T> p) {
  return detail::amo_blocking(p, detail::amo::load, T{}, T{}, "atomic_load");
}
template <atomic_value T>
inline void atomic_store(global_ptr<T> p, T value) {
  (void)detail::amo_blocking(p, detail::amo::store, value, T{}, "atomic_store");
}

template <atomic_value T>
inline void atomic_swap_async(counter& done, T* result, global_ptr<T> p, T value) {
  detail::amo_async(done, result, p, detail::amo::swap, value, T{}, "atomic_swap_async");
}
template <atomic_value T>
inline void atomic_compare_swap_async(counter& done, T* result, global_ptr<T> p, T expected,
                                      T desired) {
  detail::amo_async(done, result, p, detail::amo::compare_swap, expected, desired,
                    "atomic_compare_swap_async");
}
template <atomic_value T>
inline void atomic_load_async(counter& done, T* result, global_ptr<T> p) {
  detail::amo_async(done, result, p, detail::amo::load, T{}, T{}, "atomic_load_async");
}
template <atomic_value T>
inline void atomic_store_async(counter& done, global_ptr<T> p, T value) {
  detail::amo_async(done, static_cast<T*>(nullptr), p, detail::amo::store, value, T{},
                    "atomic_store_async");
}

// ---- the seed's names (§3.5) -----------------------------------------------------------------

template <atomic_integer T>
inline T fetch_and_add(global_ptr<T> p, T value) {
  return detail::amo_blocking(p, detail::amo::add, value, T{}, "fetch_and_add");
}
template <atomic_integer T>
inline T exchange(global_ptr<T> p, T value) {
  return detail::amo_blocking(p, detail::amo::swap, value, T{}, "exchange");
}
/// Returns the value found; the swap happened if it equals `expected`.
template <atomic_integer T>
inline T cmp_and_swap(global_ptr<T> p, T expected, T desired) {
  return detail::amo_blocking(p, detail::amo::compare_swap, expected, desired, "cmp_and_swap");
}
/// Sets the word to 1 and returns what it was.
template <atomic_integer T>
inline T test_and_set(global_ptr<T> p) {
  return detail::amo_blocking(p, detail::amo::swap, T{1}, T{}, "test_and_set");
}

}  // namespace splitc
