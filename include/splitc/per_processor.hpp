// splitc::per_processor<T>: a variable with one value per processor, for the
// mutable globals of a program (handler flags, counters, receive buffers).
// Where every processor is an OS process of its own it is exactly one T, as
// cheap as a plain global; where the backend runs every processor of the job
// in one process (has_shared_process: the sim backend's fibers), statics are
// shared, and this keeps one T per processor, indexed by MYPROC.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/backend.hpp>
#include <splitc/c_context.h>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace splitc {
namespace detail {

/// A per-processor variable used outside the job (before init, after finalize): ends the
/// process naming the cause and `api`, the interface used (src/errors.cpp).
[[gnu::cold, noreturn]] void per_processor_outside_job(const char* api = "splitc::per_processor");

/// What a per_processor<T> may be constructed from: T's constructor arguments when T is
/// copyable (each processor's value is a copy of that initial value), nothing when it is not
/// (each processor's value is a default-constructed T: a counter, an atomic).
template <class T, class... Args>
concept per_processor_initial =
    (std::copy_constructible<T> && std::constructible_from<T, Args...>) ||
    (!std::copy_constructible<T> && sizeof...(Args) == 0 && std::default_initializable<T>);

/// The storage of a per_processor variable. `Shared` says whether the processors of the job
/// share one process (and so this object); the public class picks it from the backend, and the
/// unit test drives both forms with contexts of its own.
template <class T, bool Shared>
class basic_per_processor;

/// Processors in processes of their own: the variable is the one T.
template <class T>
class basic_per_processor<T, false> {
 public:
  template <class... Args>
    requires per_processor_initial<T, Args&&...>
  constexpr basic_per_processor(Args&&... args) : value_(std::forward<Args>(args)...) {}
  basic_per_processor(const basic_per_processor&) = delete;
  basic_per_processor& operator=(const basic_per_processor&) = delete;

  T& get() noexcept {
    check_in_job();
    return value_;
  }
  const T& get() const noexcept {
    check_in_job();
    return value_;
  }

 private:
  /// Only where assertions are on: a release access is a plain global's (the check is the one
  /// a shared process needs, and there it is always made).
  static void check_in_job() noexcept {
#ifndef NDEBUG
    if (splitc_current_context == nullptr) [[unlikely]] per_processor_outside_job();
#endif
  }

  T value_;
};

/// Processors sharing one process: the initial value is copied into each processor's own T
/// on that processor's first access (a T that cannot be copied is default-constructed). Every
/// value is allocated on its own and never moves, so a reference one processor holds stays
/// valid while the others make theirs (fibers switch at every communication call).
template <class T>
class basic_per_processor<T, true> {
 public:
  template <class... Args>
    requires per_processor_initial<T, Args&&...>
  constexpr basic_per_processor(Args&&... args) : initial_(std::forward<Args>(args)...) {}
  basic_per_processor(const basic_per_processor&) = delete;
  basic_per_processor& operator=(const basic_per_processor&) = delete;

  T& get() {
    const splitc_context_prefix* const running = splitc_current_context;
    if (running == nullptr) [[unlikely]] per_processor_outside_job();
    const auto me = static_cast<std::size_t>(running->myproc);
    if (me < copies_.size() && copies_[me] != nullptr) [[likely]] return *copies_[me];
    return make_copy(me, static_cast<std::size_t>(running->procs));
  }
  const T& get() const { return const_cast<basic_per_processor*>(this)->get(); }

 private:
  [[gnu::noinline]] T& make_copy(std::size_t me, std::size_t procs) {
    auto copy = make_value();
    // Sized after the copy is made: nothing else may have run in between, but if T's copy
    // did communicate, another processor may have grown the table meanwhile.
    if (copies_.size() <= me) copies_.resize(std::max(me + 1, procs));
    copies_[me] = std::move(copy);
    return *copies_[me];
  }

  std::unique_ptr<T> make_value() const {
    if constexpr (std::copy_constructible<T>)
      return std::make_unique<T>(initial_);
    else
      return std::make_unique<T>();
  }

  struct nothing {};
  [[no_unique_address]] std::conditional_t<std::copy_constructible<T>, T, nothing> initial_;
  std::vector<std::unique_ptr<T>> copies_;  ///< by processor; null until its first access
};

}  // namespace detail

/// A variable with one value per processor. Declare it at namespace scope (or as a static
/// member / function-local static), constructed from an initial value or T's constructor
/// arguments (in parentheses: `per_processor<std::vector<int>> v{3, 0};` is three zeros):
///
///     splitc::per_processor<int> hits;            // 0 on every processor
///     void on_hit(const splitc::am_message&) { ++*hits; }
///
/// `*x`, `x->member` and `x.get()` name the running processor's T, also inside handlers.
/// Each processor starts from a copy of the initial value made on its first access; a T that
/// cannot be copied (a counter, an atomic) takes no arguments and starts default-constructed. Use it only between init() and finalize(): outside them there is no
/// running processor, and a shared process ends with an error saying so (where each
/// processor has a process of its own, only builds with assertions check).
template <class T>
class per_processor : public detail::basic_per_processor<T, has_shared_process<active_backend>> {
  static_assert(std::copy_constructible<T> || std::default_initializable<T>,
                "per_processor<T>: each processor's value is a copy of the initial one, or a "
                "default-constructed T");
  using storage = detail::basic_per_processor<T, has_shared_process<active_backend>>;

 public:
  using value_type = T;
  using storage::storage;
  using storage::get;

  T& operator*() { return get(); }
  const T& operator*() const { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }
};

}  // namespace splitc
