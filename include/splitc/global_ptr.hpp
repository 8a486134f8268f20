// Global pointers (Split-C `T *global`): a processor number and a local
// address on that processor. Arithmetic moves the local address and keeps the
// processor (seed 003 §3.2). Dereferencing reads and writes through the
// global-memory operations; `gp->*&S::field` and member_of(gp, &S::field)
// reach a field of a struct (C++ cannot overload gp->field to do that).
//
// What does not compile, on purpose (tests/unit/neg): a local pointer from a
// global one without tolocal(), a global pointer from a local one without
// toglobal(), conversions to another element type (global_pointer_cast) or
// dropping const, a spread pointer from a global one without tospread(),
// arithmetic on or dereference of global_ptr<void>, writing through a
// pointer to const.
#pragma once

#include <splitc/port/am.hpp>

#include <compare>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace splitc {

template <class T>
class global_ref;

namespace detail {
/// The type of field M of a T (const when T is).
template <class T, class M>
using member_type = std::conditional_t<std::is_const_v<T>, const M, M>;
/// `m` names a data member of T (not a member function).
template <class T, class M, class S>
concept data_member_of = std::is_same_v<std::remove_const_t<T>, S> && !std::is_function_v<M>;
}  // namespace detail

template <class T>
class global_ptr;

/// The global pointer to field `m` of the struct `p` points to (same
/// processor, the field's address there). No communication.
template <class T, class M, class S>
  requires detail::data_member_of<T, M, S>
constexpr global_ptr<detail::member_type<T, M>> member_of(const global_ptr<T>& p, M S::* m) noexcept;

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
  constexpr global_ptr& operator+=(std::ptrdiff_t n) noexcept
    requires(!std::is_void_v<T>)
  {
    return *this = *this + n;
  }
  constexpr global_ptr& operator-=(std::ptrdiff_t n) noexcept
    requires(!std::is_void_v<T>)
  {
    return *this = *this - n;
  }
  constexpr global_ptr& operator++() noexcept
    requires(!std::is_void_v<T>)
  {
    return *this += 1;
  }
  constexpr global_ptr& operator--() noexcept
    requires(!std::is_void_v<T>)
  {
    return *this -= 1;
  }
  constexpr global_ptr operator++(int) noexcept
    requires(!std::is_void_v<T>)
  {
    auto old = *this;
    ++*this;
    return old;
  }
  constexpr global_ptr operator--(int) noexcept
    requires(!std::is_void_v<T>)
  {
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
  /// `gp->*&S::field`: the field of the struct gp points to, as a reference
  /// (reading converts, assignment writes, as for *gp). For an array field,
  /// member_of(gp, m) gives a pointer to it.
  template <class M, class S>
    requires(detail::data_member_of<T, M, S> && !std::is_array_v<M>)
  global_ref<detail::member_type<T, M>> operator->*(M S::* m) const noexcept {
    return global_ref<detail::member_type<T, M>>(member_of(*this, m));
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

template <class T, class M, class S>
  requires detail::data_member_of<T, M, S>
constexpr global_ptr<detail::member_type<T, M>> member_of(const global_ptr<T>& p, M S::* m) noexcept {
  // The field's address in the owner's memory: address arithmetic, no access.
  return {p.proc(), std::addressof(p.local()->*m)};
}

/// Cast between element types (Split-C pointer casts).
template <class U, class T>
constexpr global_ptr<U> global_pointer_cast(const global_ptr<T>& p) noexcept {
  return {p.proc(), reinterpret_cast<U*>(p.local())};
}

}  // namespace splitc
