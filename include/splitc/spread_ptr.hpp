// Spread pointers (Split-C `T *spread`): like global pointers, but arithmetic
// moves along the processor dimension and wraps, incrementing the local
// address each time the processor number wraps back to zero (seed 003 §7.2):
// element i of a cyclic spread array lives on processor i mod PROCS at
// offset i div PROCS. As for global pointers, a spread pointer to void has
// no arithmetic and no dereference. Where processors share one process and their segments
// lie apart (the sim backend), a spread pointer keeps processor 0's copy of its address, so
// that arithmetic and order are those of offsets; address() and the global pointer it
// converts to name its processor's copy, local() the running processor's (global_ptr.hpp).
#pragma once

#include <splitc/global_ptr.hpp>

#include <cstddef>
#include <type_traits>

namespace splitc {

proc_t procs() noexcept;

/// Moving n elements from processor `proc` over `nprocs` processors lands on
/// processor `proc` of the result, `rows` elements further in local memory.
struct spread_step {
  proc_t proc;
  std::ptrdiff_t rows;
};
constexpr spread_step spread_advance(proc_t proc, std::ptrdiff_t n, proc_t nprocs) noexcept {
  const std::ptrdiff_t linear = static_cast<std::ptrdiff_t>(proc) + n;
  std::ptrdiff_t rows = linear / nprocs;
  std::ptrdiff_t col = linear % nprocs;
  if (col < 0) {  // floor division for negative steps
    col += nprocs;
    rows -= 1;
  }
  return {static_cast<proc_t>(col), rows};
}

template <class T>
class spread_ptr {
 public:
  using element_type = T;

  constexpr spread_ptr() noexcept = default;
  constexpr spread_ptr(std::nullptr_t) noexcept {}
  constexpr spread_ptr(proc_t proc, T* local) noexcept
      : proc_(proc), local_(detail::placed(0, local)) {}
  /// A spread pointer is a global pointer with other arithmetic.
  constexpr explicit spread_ptr(const global_ptr<T>& g) noexcept
      : proc_(g.proc()), local_(detail::placed(0, g.address())) {}
  constexpr operator global_ptr<T>() const noexcept { return {proc_, local_}; }

  constexpr proc_t proc() const noexcept { return proc_; }
  /// The running processor's copy of the place (as global_ptr::local).
  constexpr T* local() const noexcept { return detail::placed_here(local_); }
  /// The address on the pointer's own processor: what a message to it names.
  constexpr T* address() const noexcept { return detail::placed(proc_, local_); }
  constexpr explicit operator bool() const noexcept { return local_ != nullptr; }

  /// Advance by n elements over `nprocs` processors.
  constexpr spread_ptr advanced(std::ptrdiff_t n, proc_t nprocs) const noexcept
    requires(!std::is_void_v<T>)
  {
    const spread_step step = spread_advance(proc_, n, nprocs);
    return {step.proc, local_ + step.rows};
  }
  /// Element distance between two spread pointers over `nprocs` processors.
  constexpr std::ptrdiff_t distance_from(const spread_ptr& other, proc_t nprocs) const noexcept
    requires(!std::is_void_v<T>)
  {
    return (local_ - other.local_) * nprocs + (proc_ - other.proc_);
  }

  spread_ptr operator+(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return advanced(n, procs());
  }
  spread_ptr operator-(std::ptrdiff_t n) const noexcept
    requires(!std::is_void_v<T>)
  {
    return advanced(-n, procs());
  }
  std::ptrdiff_t operator-(const spread_ptr& other) const noexcept
    requires(!std::is_void_v<T>)
  {
    return distance_from(other, procs());
  }
  spread_ptr& operator+=(std::ptrdiff_t n) noexcept
    requires(!std::is_void_v<T>)
  {
    return *this = *this + n;
  }
  spread_ptr& operator-=(std::ptrdiff_t n) noexcept
    requires(!std::is_void_v<T>)
  {
    return *this = *this - n;
  }
  // Stepping by one wraps with a compare instead of a division (seed Table 7's sptr++).
  spread_ptr& operator++() noexcept
    requires(!std::is_void_v<T>)
  {
    if (++proc_ == procs()) {
      proc_ = 0;
      ++local_;
    }
    return *this;
  }
  spread_ptr& operator--() noexcept
    requires(!std::is_void_v<T>)
  {
    if (proc_-- == 0) {
      proc_ = procs() - 1;
      --local_;
    }
    return *this;
  }
  spread_ptr operator++(int) noexcept
    requires(!std::is_void_v<T>)
  {
    auto old = *this;
    ++*this;
    return old;
  }
  spread_ptr operator--(int) noexcept
    requires(!std::is_void_v<T>)
  {
    auto old = *this;
    --*this;
    return old;
  }

  global_ref<T> operator*() const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ref<T>(global_ptr<T>(*this));
  }
  global_ref<T> operator[](std::ptrdiff_t i) const noexcept
    requires(!std::is_void_v<T>)
  {
    return global_ref<T>(global_ptr<T>(*this + i));
  }
  /// `sp->*&S::field`: the field of the element sp points to (see global_ptr).
  template <class M, class S>
    requires(detail::data_member_of<T, M, S> && !std::is_array_v<M>)
  global_ref<detail::member_type<T, M>> operator->*(M S::* m) const noexcept {
    return global_ptr<T>(*this)->*m;
  }

  friend constexpr bool operator==(const spread_ptr&, const spread_ptr&) noexcept = default;
  /// Order of the linear index (address first, then processor).
  friend constexpr auto operator<=>(const spread_ptr& a, const spread_ptr& b) noexcept {
    if (a.local_ != b.local_) return std::compare_three_way{}(a.local_, b.local_);
    return a.proc_ <=> b.proc_;
  }

 private:
  proc_t proc_ = 0;
  T* local_ = nullptr;
};

template <class T>
constexpr spread_ptr<T> tospread(const global_ptr<T>& g) noexcept {
  return spread_ptr<T>(g);
}
template <class T>
constexpr proc_t toproc(const spread_ptr<T>& p) noexcept {
  return p.proc();
}
template <class T>
constexpr T* tolocal(const spread_ptr<T>& p) noexcept {
  return p.local();
}

}  // namespace splitc
