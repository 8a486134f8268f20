// Global pointers (Split-C `T *global`): a processor number and a local
// address on that processor. Arithmetic moves the local address and keeps the
// processor (seed 003 §3.2). Dereferencing reads and writes through the
// global-memory operations; `gp->*&S::field` and member_of(gp, &S::field)
// reach a field of a struct (C++ cannot overload gp->field to do that).
//
// Where processors share one process (the sim backend) their segments lie apart, and a
// global pointer holds the address of its processor's copy of a place: made so by the
// constructor (detail::placed), kept so by arithmetic. address() is that copy (what a message
// to the processor names); local() and tolocal() are the running processor's copy of the same
// place -- the seed's "same address on every processor", kept as "the same offset" (docs/sim.md,
// "P segments, P addresses"). On every other backend the three are the one address.
//
// What does not compile, on purpose (tests/unit/neg): a local pointer from a
// global one without tolocal(), a global pointer from a local one without
// toglobal(), conversions to another element type (global_pointer_cast) or
// dropping const, a spread pointer from a global one without tospread(),
// arithmetic on or dereference of global_ptr<void>, writing through a
// pointer to const.
#pragma once

#include <splitc/c_context.h>
#include <splitc/port/am.hpp>

#include <compare>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace splitc {

template <class T>
class global_ref;

namespace detail {
/// `local` moved to the same place in processor `proc`'s segment (splitc_placed_, c_context.h):
/// the address itself unless processors share one process.
template <class T>
constexpr T* placed([[maybe_unused]] proc_t proc, T* local) noexcept {
#ifdef SPLITC_SIM_SUBSTRATE
  if (!std::is_constant_evaluated()) return static_cast<T*>(splitc_placed_(proc, local));
#endif
  return local;
}
/// The running processor's copy of the place `local` names on any processor.
template <class T>
constexpr T* placed_here(T* local) noexcept {
#ifdef SPLITC_SIM_SUBSTRATE
  if (!std::is_constant_evaluated()) return static_cast<T*>(splitc_placed_here_(local));
#endif
  return local;
}

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
  /// `local`'s place on processor `proc` (its copy there where segments lie apart).
  constexpr global_ptr(proc_t proc, T* local) noexcept
      : proc_(proc), local_(detail::placed(proc, local)) {}

  /// Conversions that C allows between pointer types: to void and to const.
  template <class U>
    requires(!std::is_same_v<U, T> && std::is_convertible_v<U*, T*>)
  constexpr global_ptr(const global_ptr<U>& other) noexcept
      : proc_(other.proc()), local_(other.address()) {}

  constexpr proc_t proc() const noexcept { return proc_; }
  /// The running processor's copy of the place (Split-C's tolocal): the address itself when
  /// the pointer is to this processor's memory, and on every backend but the sim.
  constexpr T* local() const noexcept { return detail::placed_here(local_); }
  /// The address on the pointer's own processor: what a message to it names.
  constexpr T* address() const noexcept { return local_; }
  constexpr explicit operator bool() const noexcept { return local_ != nullptr; }

  // Arithmetic: the local address moves, the processor stays.
  constexpr global_ptr operator+(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ptr(proc_, local_ + n, as_is{});
  }
  constexpr global_ptr operator-(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ptr(proc_, local_ - n, as_is{});
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
  template <class>
  friend class global_ptr;
  template <class U, class M, class S>
    requires detail::data_member_of<U, M, S>
  friend constexpr global_ptr<detail::member_type<U, M>> member_of(const global_ptr<U>&, M S::*) noexcept;
  template <class V, class U>
  friend constexpr global_ptr<V> global_pointer_cast(const global_ptr<U>&) noexcept;
  /// An address already on `proc` (arithmetic, casts): kept as it is.
  struct as_is {};
  constexpr global_ptr(proc_t proc, T* local, as_is) noexcept : proc_(proc), local_(local) {}

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
/// The running processor's copy of the place p names (p's own address when p is on the
/// running processor; on every backend but the sim, always p's address).
template <class T>
constexpr T* tolocal(const global_ptr<T>& p) noexcept {
  return p.local();
}

/// The running processor's copy of a place that `address` names on some processor -- an
/// address of the spread heap or the segment received in a message's arguments, which on the
/// sim backend is the sender's copy (segments lie apart there). The address itself on every
/// other backend, where the copies are at one address.
template <class T>
constexpr T* local_copy(T* address) noexcept {
  return detail::placed_here(address);
}

template <class T, class M, class S>
  requires detail::data_member_of<T, M, S>
constexpr global_ptr<detail::member_type<T, M>> member_of(const global_ptr<T>& p, M S::* m) noexcept {
  // The field's address in the owner's memory: address arithmetic, no access.
  using R = detail::member_type<T, M>;
  return global_ptr<R>(p.proc(), std::addressof(p.address()->*m), typename global_ptr<R>::as_is{});
}

/// Cast between element types (Split-C pointer casts).
template <class U, class T>
constexpr global_ptr<U> global_pointer_cast(const global_ptr<T>& p) noexcept {
  return global_ptr<U>(p.proc(), reinterpret_cast<U*>(p.address()), typename global_ptr<U>::as_is{});
}

}  // namespace splitc
