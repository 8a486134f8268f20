// Global pointers (Split-C `T *global`): a processor number and a local
// address on that processor. Arithmetic moves the local address and keeps the
// processor (seed 003 §3.2). Dereferencing reads and writes through the
// global-memory operations.
#pragma once

#include <splitc/am.hpp>

#include <compare>
#include <cstddef>
#include <type_traits>

namespace splitc {

template <class T>
class global_ref;

template <class T>
class global_ptr {
 public:
  using element_type = T;

  constexpr global_ptr() noexcept = default;
  constexpr global_ptr(std::nullptr_t) noexcept {}
  constexpr global_ptr(proc_t proc, T* local) noexcept : proc_(proc), local_(local) {}

  /// Conversions that C allows between pointer types: to void and to const.
  template <class U>
    requires(!std::is_same_v<U, T> && std::is_convertible_v<U*, T*>)
  constexpr global_ptr(const global_ptr<U>& other) noexcept
      : proc_(other.proc()), local_(other.local()) {}

  constexpr proc_t proc() const noexcept { return proc_; }
  constexpr T* local() const noexcept { return local_; }
  constexpr explicit operator bool() const noexcept { return local_ != nullptr; }

  // Arithmetic: the local address moves, the processor stays.
  constexpr global_ptr operator+(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return {proc_, local_ + n};
  }
  constexpr global_ptr operator-(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return {proc_, local_ - n};
  }
  constexpr std::ptrdiff_t operator-(const global_ptr& other) const noexcept
    requires(!std::is_void_v<T>)
  {
    return local_ - other.local_;
  }
  constexpr global_ptr& operator+=(std::ptrdiff_t n) noexcept { return *this = *this + n; }
  constexpr global_ptr& operator-=(std::ptrdiff_t n) noexcept { return *this = *this - n; }
  constexpr global_ptr& operator++() noexcept { return *this += 1; }
  constexpr global_ptr& operator--() noexcept { return *this -= 1; }
  constexpr global_ptr operator++(int) noexcept {
    auto old = *this;
    ++*this;
    return old;
  }
  constexpr global_ptr operator--(int) noexcept {
    auto old = *this;
    --*this;
    return old;
  }

  // Dereference: a proxy whose conversion reads and whose assignment writes.
  global_ref<T> operator*() const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ref<T>(*this);
  }
  global_ref<T> operator[](std::ptrdiff_t i) const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ref<T>(*this + i);
  }

  // Comparison: by processor, then address (a total order for containers).
  friend constexpr bool operator==(const global_ptr&, const global_ptr&) noexcept = default;
  friend constexpr auto operator<=>(const global_ptr& a, const global_ptr& b) noexcept {
    if (auto c = a.proc_ <=> b.proc_; c != 0) return c;
    return std::compare_three_way{}(a.local_, b.local_);
  }
  friend constexpr bool operator==(const global_ptr& a, std::nullptr_t) noexcept {
    return a.local_ == nullptr;
  }

 private:
  proc_t proc_ = 0;
  T* local_ = nullptr;
};

/// Split-C's toglobal(proc, addr).
template <class T>
constexpr global_ptr<T> toglobal(proc_t proc, T* local) noexcept {
  return {proc, local};
}
/// Split-C's toproc(gp) and tolocal(gp).
template <class T>
constexpr proc_t toproc(const global_ptr<T>& p) noexcept {
  return p.proc();
}
template <class T>
constexpr T* tolocal(const global_ptr<T>& p) noexcept {
  return p.local();
}

/// Cast between element types (Split-C pointer casts).
template <class U, class T>
constexpr global_ptr<U> global_pointer_cast(const global_ptr<T>& p) noexcept {
  return {p.proc(), reinterpret_cast<U*>(p.local())};
}

}  // namespace splitc
