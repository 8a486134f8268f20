// The global heap (seed §3.4, §4.4). Every processor's segment starts at the
// same virtual address, so space handed out at one offset is at the same
// address on every processor:
//
// - all_spread_malloc / all_spread_free: collective; `count` objects of
//   `size` bytes spread cyclically (object i on processor i mod PROCS).
// - spread_malloc / spread_free: the same, called by one processor alone
//   (the seed had to drop it; one job-wide allocator, kept by processor 0
//   and reached by active message, makes it possible). The memory is usable
//   by every processor as soon as the call returns.
// - global_malloc / global_free: space in this processor's own segment that
//   others reach directly through the returned global pointer.
//
// Limits: the symmetric heap is the segment (SPLITC_SEGMENT_SIZE, default
// 1 GiB per processor) minus the runtime's part and minus the private part
// (one eighth of the segment) that global_malloc uses. Allocation failure
// returns a null pointer; freeing what was not allocated is a fatal error.
#pragma once

#include <splitc/global_ptr.hpp>
#include <splitc/spread_ptr.hpp>

#include <cstddef>

namespace splitc {

spread_ptr<void> all_spread_malloc(std::size_t count, std::size_t size);
void all_spread_free(spread_ptr<void> p);
spread_ptr<void> spread_malloc(std::size_t count, std::size_t size);
void spread_free(spread_ptr<void> p);
global_ptr<void> global_malloc(std::size_t bytes);
void global_free(global_ptr<void> p);

template <class T>
constexpr spread_ptr<T> spread_pointer_cast(spread_ptr<void> p) noexcept {
  return {p.proc(), static_cast<T*>(p.address())};
}
template <class T>
spread_ptr<T> all_spread_malloc(std::size_t count) {
  return spread_pointer_cast<T>(all_spread_malloc(count, sizeof(T)));
}
template <class T>
spread_ptr<T> spread_malloc(std::size_t count) {
  return spread_pointer_cast<T>(spread_malloc(count, sizeof(T)));
}
template <class T>
void all_spread_free(spread_ptr<T> p) {
  all_spread_free(spread_ptr<void>(p.proc(), const_cast<std::remove_const_t<T>*>(p.address())));
}
template <class T>
void spread_free(spread_ptr<T> p) {
  spread_free(spread_ptr<void>(p.proc(), const_cast<std::remove_const_t<T>*>(p.address())));
}

/// Space left, for diagnostics: symmetric heap (as seen by processor 0's
/// allocator, valid on processor 0 only) and this processor's private part.
struct heap_usage {
  std::size_t symmetric_in_use, symmetric_capacity, private_in_use, private_capacity;
};
heap_usage heap_statistics();

}  // namespace splitc
