// Atomic procedures (seed §4.5), and the atomic operations (atomic_operations.hpp).
//
// atomic(fn, target, args...) runs fn(local target pointer, args...) on the
// processor that owns `target`, atomically with respect to other atomic
// procedures and to handlers there (it runs as a handler), and returns its
// result. fn is a function or capture-less lambda; arguments and result are
// trivially copyable. Functions are named on the wire by their offset from a
// reference symbol, never by raw address, so this survives ASLR as long as
// all processors run the same executable. Atomic procedures are not atomic
// with respect to the atomic operations that peers apply directly (CPU or
// layer atomics) to the same word.
#pragma once

#include <splitc/atomic_operations.hpp>
#include <splitc/counter.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>

namespace splitc {

namespace detail {

// ---- atomic procedures --------------------------------------------------------

/// Functions are named by their distance from this one.
void function_anchor();
inline std::int64_t function_offset(const void* fn) noexcept {
  return reinterpret_cast<std::intptr_t>(fn) - reinterpret_cast<std::intptr_t>(&function_anchor);
}
template <class F>
inline F function_at(std::int64_t offset) noexcept {
  return reinterpret_cast<F>(reinterpret_cast<std::intptr_t>(&function_anchor) + offset);
}

/// What travels with an atomic procedure call.
struct atomic_call {
  std::int64_t runner;    ///< offset of run_atomic<...>
  std::int64_t function;  ///< offset of the user's function
  void* target;           ///< local address at the owner
  void* result;           ///< where the caller wants the result
  counter* done;          ///< counted down when the result has arrived
};

/// Result bytes that travel in a short reply, after (result, done, length).
inline constexpr std::size_t procedure_small_result = 5 * sizeof(am_word);

/// Runs at the owner: unpack the arguments, call, store the result and
/// return its size. A result of at most procedure_small_result bytes goes
/// to `small` (the reply's own argument words), a larger one to `large`.
using atomic_runner = std::size_t (*)(const atomic_call& call, const void* args, void* small,
                                      void* large);

template <class... P>
constexpr std::size_t packed_size = (std::size_t{0} + ... + sizeof(std::decay_t<P>));

template <class R, class T, class... P>
std::size_t run_atomic(const atomic_call& call, const void* packed, void* small, void* large) {
  std::tuple<std::decay_t<P>...> args;
  std::apply(
      [&](auto&... each) {
        const auto* at = static_cast<const unsigned char*>(packed);
        ((std::memcpy(&each, at, sizeof(each)), at += sizeof(each)), ...);
      },
      args);
  auto fn = function_at<R (*)(T*, P...)>(call.function);
  auto* target = static_cast<T*>(call.target);
  if constexpr (std::is_void_v<R>) {
    std::apply([&](auto&... a) { fn(target, a...); }, args);
    return 0;
  } else {
    R r = std::apply([&](auto&... a) { return fn(target, a...); }, args);
    std::memcpy(sizeof(R) <= procedure_small_result ? small : large, &r, sizeof(R));
    return sizeof(R);
  }
}

/// Send the call to `owner` (src/atomics.cpp); the result lands in call.result.
void atomic_call_am(context& c, proc_t owner, const atomic_call& call, const void* args,
                    std::size_t args_bytes);

template <class R, class T, class... P, class... A>
inline void atomic_start(context& c, R (*fn)(T*, P...), global_ptr<T> target, counter& done,
                         void* result, const A&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "atomic: wrong number of arguments for the function");
  static_assert((std::is_trivially_copyable_v<std::decay_t<P>> && ...),
                "atomic procedure arguments must be trivially copyable");
  static_assert(std::is_void_v<R> || std::is_trivially_copyable_v<R>,
                "an atomic procedure's result must be trivially copyable");
  const proc_t p = target.proc();
  if (p == c.myproc) [[likely]] {
    if (target.address() == nullptr) [[unlikely]] null_target(c, p, "atomic");
    // Handlers only run inside poll, so a plain call is atomic with respect to them.
    if constexpr (std::is_void_v<R>) {
      fn(target.address(), args...);
    } else {
      R r = fn(target.address(), args...);
      std::memcpy(result, &r, sizeof(R));
    }
    return;
  }
  check_remote(c, p, target.address(), "atomic");
  unsigned char packed[packed_size<P...> + 1]{};  // {}: no arguments passes 0 bytes
  unsigned char* at = packed;
  [[maybe_unused]] auto pack = [&](const auto& value) {
    std::memcpy(at, &value, sizeof(value));
    at += sizeof(value);
  };
  (pack(static_cast<std::decay_t<P>>(args)), ...);
  // The owner calls the runner through atomic_runner (src/atomics.cpp).
  static_assert(std::is_same_v<decltype(&run_atomic<R, T, P...>), atomic_runner>);
  const atomic_call call{function_offset(reinterpret_cast<const void*>(&run_atomic<R, T, P...>)),
                         function_offset(reinterpret_cast<const void*>(fn)), target.address(),
                         result, &done};
  done.add_local(1);
  atomic_call_am(c, p, call, packed, packed_size<P...>);
}

}  // namespace detail

namespace detail {
template <class R, class T, class... P>
R procedure_result(R (*)(T*, P...));
}  // namespace detail

/// Run fn(target.address(), args...) at the owner of target, atomically; return its result.
template <class F, class T, class... A>
inline auto atomic(F fn, global_ptr<T> target, const A&... args) {
  auto* f = +fn;
  using R = decltype(detail::procedure_result(f));
  auto& c = detail::blocking_context("atomic");
  counter done;
  if constexpr (std::is_void_v<R>) {
    detail::atomic_start(c, f, target, done, nullptr, args...);
    detail::wait_until(c, "atomic", [&] { return done.value() == 0; });
  } else {
    R result{};
    detail::atomic_start(c, f, target, done, &result, args...);
    detail::wait_until(c, "atomic", [&] { return done.value() == 0; });
    return result;
  }
}

/// Split-phase: start it; `*result` is valid once `done` is synced.
template <class F, class T, class R, class... A>
inline void atomic_async(counter& done, R* result, F fn, global_ptr<T> target, const A&... args) {
  auto* f = +fn;
  static_assert(std::is_same_v<R, decltype(detail::procedure_result(f))>,
                "atomic_async: the result pointer's type must match the function's result");
  detail::atomic_start(detail::blocking_context("atomic_async"), f, target, done, result, args...);
}

}  // namespace splitc
