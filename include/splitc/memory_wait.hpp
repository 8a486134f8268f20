// Waiting on memory: OpenSHMEM's wait_until / test family on words of this processor's
// memory (its part of the spread heap, a global_malloc'd word, any word others write through
// a global pointer) that other processors update with puts, writes, stores or atomics.
//
//   wait_until(ivar, cmp, value)          until *ivar cmp value holds
//   test(ivar, cmp, value)                whether it holds now (one poll first)
//   wait_until_all / _any / _some         over an array of words, each compared with `value`
//   test_all / test_any / test_some       (or, in the _vector forms, with its own value);
//                                         `status` (optional, one per word) leaves out the
//                                         words whose status is not 0
//
// `any` returns the index of a word whose condition holds (the lowest, among those satisfied
// when it returns) or no_index; `some` writes the indices of every satisfied word into
// `indices` (increasing; room for one per word) and returns how many. Waiting, `any` and
// `some` return once one word is satisfied -- or at once, with no_index or 0, when there is no
// word or every word is left out (OpenSHMEM's rule); `all` then returns at once.
//
// While waiting the processor keeps serving active messages (handlers run; its own
// outstanding operations progress), and backs off as every splitc wait does. Ordering: each
// word is read with acquire order, and every path that writes a processor's memory for
// another one writes the data before it completes (the direct copy, the handler that
// deposits it), so data written before the word -- by operations the writer completed before
// it wrote the word (puts and then sync, bulk_write, write) -- is visible once the condition
// is seen. Two puts in flight at once carry no such order between them (an unordered network
// may deliver the second first), as in OpenSHMEM without shmem_fence.
//
// Called inside a handler, a wait ends the job with a clear message (a handler must not
// wait); arrays of different lengths, an index array too short or a comparison that is not
// one of cmp's end it too.
#pragma once

#include <splitc/detail/context.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/port/backoff.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

namespace splitc {

/// The comparisons of the wait_until family (OpenSHMEM's SHMEM_CMP_*).
enum class cmp { eq, ne, gt, ge, lt, le };

/// Words a wait can watch: 32- and 64-bit integers (the sizes the machine reads atomically).
template <class T>
concept wait_word = std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                    (sizeof(T) == 4 || sizeof(T) == 8);

/// wait_until_any's answer when every word is left out by its status.
inline constexpr std::size_t no_index = std::numeric_limits<std::size_t>::max();

namespace detail {

[[gnu::cold, noreturn]] void bad_wait(const char* what, const char* why);

/// wait_until's reads of its word between two polls.
inline constexpr int reads_per_poll = 8;

template <wait_word T>
inline T load_acquire(const T* word) noexcept {
  return std::atomic_ref<T>(*const_cast<T*>(word)).load(std::memory_order_acquire);
}

template <wait_word T>
constexpr bool holds(T have, cmp c, T value) noexcept {
  switch (c) {
    case cmp::eq: return have == value;
    case cmp::ne: return have != value;
    case cmp::gt: return have > value;
    case cmp::ge: return have >= value;
    case cmp::lt: return have < value;
    case cmp::le: return have <= value;
  }
  return false;
}

inline void check_cmp(cmp c, const char* what) {
  if (static_cast<unsigned>(c) > static_cast<unsigned>(cmp::le)) [[unlikely]]
    bad_wait(what, "the comparison is not one of cmp's (eq, ne, gt, ge, lt, le)");
}

/// The words of an array that take part (status empty, or 0 for the word).
inline bool counted(std::span<const int> status, std::size_t i) {
  return status.empty() || status[i] == 0;
}

/// Every satisfied word's index into `indices` (increasing); how many.
template <wait_word T, class Value>
inline std::size_t satisfied(std::span<T> ivars, std::span<const int> status, cmp c, Value value,
                             std::span<std::size_t> indices) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < ivars.size(); ++i)
    if (counted(status, i) && holds(load_acquire(&ivars[i]), c, value(i)))
      indices[n++] = i;
  return n;
}

template <wait_word T>
inline void check_array(std::span<T> ivars, std::span<const int> status, const char* what) {
  if (!status.empty() && status.size() != ivars.size()) [[unlikely]]
    bad_wait(what, "the status array and the word array differ in length");
}

/// The first satisfied word, or no_index.
template <wait_word T, class Value>
inline std::size_t first_satisfied(std::span<T> ivars, std::span<const int> status, cmp c,
                                   Value value) {
  for (std::size_t i = 0; i < ivars.size(); ++i)
    if (counted(status, i) && holds(load_acquire(&ivars[i]), c, value(i))) return i;
  return no_index;
}

inline bool none_counted(std::size_t n, std::span<const int> status) {
  if (status.empty()) return n == 0;
  for (int s : status)
    if (s == 0) return false;
  return true;
}

template <wait_word T, class Value>
inline bool all_hold(std::span<T> ivars, std::span<const int> status, cmp c, Value value) {
  for (std::size_t i = 0; i < ivars.size(); ++i)
    if (counted(status, i) && !holds(load_acquire(&ivars[i]), c, value(i))) return false;
  return true;
}

template <wait_word T, class Value>
inline void wait_all(std::span<T> ivars, std::span<const int> status, cmp c, Value value,
                     const char* what) {
  check_cmp(c, what);
  check_array(ivars, status, what);
  wait_until(ctx(), what, [&] { return all_hold(ivars, status, c, value); });
}

template <wait_word T, class Value>
inline std::size_t wait_any(std::span<T> ivars, std::span<const int> status, cmp c, Value value,
                            const char* what) {
  check_cmp(c, what);
  check_array(ivars, status, what);
  if (none_counted(ivars.size(), status)) return no_index;
  std::size_t found = no_index;
  wait_until(ctx(), what, [&] {
    found = first_satisfied(ivars, status, c, value);
    return found != no_index;
  });
  return found;
}

template <wait_word T, class Value>
inline std::size_t wait_some(std::span<T> ivars, std::span<std::size_t> indices,
                             std::span<const int> status, cmp c, Value value, const char* what) {
  check_cmp(c, what);
  check_array(ivars, status, what);
  if (indices.size() < ivars.size()) [[unlikely]]
    bad_wait(what, "the index array is shorter than the word array");
  if (none_counted(ivars.size(), status)) return 0;
  std::size_t n = 0;
  wait_until(ctx(), what, [&] {
    n = satisfied(ivars, status, c, value, indices);
    return n != 0;
  });
  return n;
}

/// One poll, so that a test loop moves the network even when it never waits.
inline void poll_once() { (void)poll_in_loop(ctx()); }

template <wait_word T>
struct same_value {
  T v;
  T operator()(std::size_t) const noexcept { return v; }
};
template <wait_word T>
struct own_value {
  std::span<const T> v;
  T operator()(std::size_t i) const noexcept { return v[i]; }
};

template <wait_word T>
inline void check_values(std::span<T> ivars, std::span<const T> values, const char* what) {
  if (values.size() != ivars.size()) [[unlikely]]
    bad_wait(what, "the value array and the word array differ in length");
}

}  // namespace detail

template <wait_word T>
inline void wait_until(const T* ivar, cmp c, T value) {
  detail::check_cmp(c, "wait_until");
  // Between two polls the word is read a few times, a pause apart: a peer's store is seen
  // within a pause of its arrival (as a raw spin sees it), and messages are still served
  // every few hundred nanoseconds.
  detail::wait_until(detail::ctx(), "wait_until", [&] {
    for (int k = 0; k < detail::reads_per_poll; ++k) {
      if (detail::holds(detail::load_acquire(ivar), c, value)) return true;
      port::cpu_relax();
    }
    return false;
  });
}

template <wait_word T>
inline bool test(const T* ivar, cmp c, T value) {
  detail::check_cmp(c, "test");
  detail::poll_once();
  return detail::holds(detail::load_acquire(ivar), c, value);
}

template <wait_word T>
inline void wait_until_all(std::span<T> ivars, cmp c, T value, std::span<const int> status = {}) {
  detail::wait_all(ivars, status, c, detail::same_value<T>{value}, "wait_until_all");
}
template <wait_word T>
inline std::size_t wait_until_any(std::span<T> ivars, cmp c, T value,
                                  std::span<const int> status = {}) {
  return detail::wait_any(ivars, status, c, detail::same_value<T>{value}, "wait_until_any");
}
template <wait_word T>
inline std::size_t wait_until_some(std::span<T> ivars, std::span<std::size_t> indices, cmp c,
                                   T value, std::span<const int> status = {}) {
  return detail::wait_some(ivars, indices, status, c, detail::same_value<T>{value},
                           "wait_until_some");
}

template <wait_word T>
inline void wait_until_all_vector(std::span<T> ivars, cmp c, std::span<const T> values,
                                  std::span<const int> status = {}) {
  detail::check_values(ivars, values, "wait_until_all_vector");
  detail::wait_all(ivars, status, c, detail::own_value<T>{values}, "wait_until_all_vector");
}
template <wait_word T>
inline std::size_t wait_until_any_vector(std::span<T> ivars, cmp c, std::span<const T> values,
                                         std::span<const int> status = {}) {
  detail::check_values(ivars, values, "wait_until_any_vector");
  return detail::wait_any(ivars, status, c, detail::own_value<T>{values},
                          "wait_until_any_vector");
}
template <wait_word T>
inline std::size_t wait_until_some_vector(std::span<T> ivars, std::span<std::size_t> indices,
                                          cmp c, std::span<const T> values,
                                          std::span<const int> status = {}) {
  detail::check_values(ivars, values, "wait_until_some_vector");
  return detail::wait_some(ivars, indices, status, c, detail::own_value<T>{values},
                           "wait_until_some_vector");
}

template <wait_word T>
inline bool test_all(std::span<T> ivars, cmp c, T value, std::span<const int> status = {}) {
  detail::check_cmp(c, "test_all");
  detail::check_array(ivars, status, "test_all");
  detail::poll_once();
  return detail::all_hold(ivars, status, c, detail::same_value<T>{value});
}
template <wait_word T>
inline std::size_t test_any(std::span<T> ivars, cmp c, T value, std::span<const int> status = {}) {
  detail::check_cmp(c, "test_any");
  detail::check_array(ivars, status, "test_any");
  detail::poll_once();
  return detail::first_satisfied(ivars, status, c, detail::same_value<T>{value});
}
template <wait_word T>
inline std::size_t test_some(std::span<T> ivars, std::span<std::size_t> indices, cmp c, T value,
                             std::span<const int> status = {}) {
  detail::check_cmp(c, "test_some");
  detail::check_array(ivars, status, "test_some");
  if (indices.size() < ivars.size()) [[unlikely]]
    detail::bad_wait("test_some", "the index array is shorter than the word array");
  detail::poll_once();
  return detail::satisfied(ivars, status, c, detail::same_value<T>{value}, indices);
}

template <wait_word T>
inline bool test_all_vector(std::span<T> ivars, cmp c, std::span<const T> values,
                            std::span<const int> status = {}) {
  detail::check_cmp(c, "test_all_vector");
  detail::check_array(ivars, status, "test_all_vector");
  detail::check_values(ivars, values, "test_all_vector");
  detail::poll_once();
  return detail::all_hold(ivars, status, c, detail::own_value<T>{values});
}
template <wait_word T>
inline std::size_t test_any_vector(std::span<T> ivars, cmp c, std::span<const T> values,
                                   std::span<const int> status = {}) {
  detail::check_cmp(c, "test_any_vector");
  detail::check_array(ivars, status, "test_any_vector");
  detail::check_values(ivars, values, "test_any_vector");
  detail::poll_once();
  return detail::first_satisfied(ivars, status, c, detail::own_value<T>{values});
}
template <wait_word T>
inline std::size_t test_some_vector(std::span<T> ivars, std::span<std::size_t> indices, cmp c,
                                    std::span<const T> values, std::span<const int> status = {}) {
  detail::check_cmp(c, "test_some_vector");
  detail::check_array(ivars, status, "test_some_vector");
  detail::check_values(ivars, values, "test_some_vector");
  if (indices.size() < ivars.size()) [[unlikely]]
    detail::bad_wait("test_some_vector", "the index array is shorter than the word array");
  detail::poll_once();
  return detail::satisfied(ivars, status, c, detail::own_value<T>{values}, indices);
}

}  // namespace splitc
