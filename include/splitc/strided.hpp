// Strided transfers: bulk_get, bulk_put and bulk_store of an n-dimensional region of one
// processor's memory (OpenSHMEM's shmem_iget/iput, UPC++'s rget/rput_strided). A region is
// an element size in bytes, a count per dimension, and per side a base address (element
// (0, ..., 0)) and a stride per dimension in bytes: element (i0, ..., in-1) is at
// base + i0*stride[0] + ... + in-1*stride[n-1] on each side. Strides may be negative (the
// region walks down from its base) or zero on the side that is read (one element read
// again); the side that is written must not have two elements overlap, which is checked
// (zero strides there are refused). Dimensions whose strides are contiguous on both sides
// merge, so a region of rows moves as rows. Completion as bulk_get/put/store: on the
// counter, on sync(), on store_sync. src/strided.cpp; the wire in src/vector_transfer.cpp.
#pragma once

#include <splitc/counter.hpp>
#include <splitc/global_memory.hpp>

#include <cstddef>
#include <span>

namespace splitc {

/// Regions have at most this many dimensions.
inline constexpr std::size_t max_strided_dims = 8;

/// A region's shape: the element size in bytes and the count of elements per dimension
/// (dimension 0 first). No dimensions: one element.
struct strided_shape {
  std::size_t elem_size;
  std::span<const std::size_t> counts;
};

namespace detail {
void strided_get(context& c, void* dst, std::span<const std::ptrdiff_t> dst_strides,
                 global_ptr<void> src, std::span<const std::ptrdiff_t> src_strides,
                 strided_shape shape, counter& ctr, const char* op);
void strided_put(context& c, global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                 const void* src, std::span<const std::ptrdiff_t> src_strides,
                 strided_shape shape, counter& ctr, const char* op);
void strided_store(context& c, global_ptr<void> dst,
                   std::span<const std::ptrdiff_t> dst_strides, const void* src,
                   std::span<const std::ptrdiff_t> src_strides, strided_shape shape,
                   counter& received, counter& sent, const char* op);
}  // namespace detail

/// Get the region at `src` into the region at `dst`; complete with sync(ctr).
inline void bulk_get_strided(void* dst, std::span<const std::ptrdiff_t> dst_strides,
                             global_ptr<void> src, std::span<const std::ptrdiff_t> src_strides,
                             strided_shape shape, counter& ctr) {
  detail::strided_get(detail::ctx(), dst, dst_strides, src, src_strides, shape, ctr,
                      "bulk_get_strided");
}
/// ... completed by sync().
inline void bulk_get_strided(void* dst, std::span<const std::ptrdiff_t> dst_strides,
                             global_ptr<void> src, std::span<const std::ptrdiff_t> src_strides,
                             strided_shape shape) {
  auto& c = detail::ctx();
  detail::strided_get(c, dst, dst_strides, src, src_strides, shape, c.get_put,
                      "bulk_get_strided");
}

/// Put the region at `src` into the region at `dst`: the source has been read when the
/// call returns; complete with sync(ctr).
inline void bulk_put_strided(global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                             const void* src, std::span<const std::ptrdiff_t> src_strides,
                             strided_shape shape, counter& ctr) {
  detail::strided_put(detail::ctx(), dst, dst_strides, src, src_strides, shape, ctr,
                      "bulk_put_strided");
}
/// ... completed by sync().
inline void bulk_put_strided(global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                             const void* src, std::span<const std::ptrdiff_t> src_strides,
                             strided_shape shape) {
  auto& c = detail::ctx();
  detail::strided_put(c, dst, dst_strides, src, src_strides, shape, c.get_put,
                      "bulk_put_strided");
}

/// Store the region: its bytes counted at the receiver on `received` (the same counter's
/// address there) and here on `sent`, as bulk_store.
inline void bulk_store_strided(global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                               const void* src, std::span<const std::ptrdiff_t> src_strides,
                               strided_shape shape, counter& received, counter& sent) {
  detail::strided_store(detail::ctx(), dst, dst_strides, src, src_strides, shape, received,
                        sent, "bulk_store_strided");
}
/// ... counted on the library's counters: store_sync(n), all_store_sync().
inline void bulk_store_strided(global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                               const void* src, std::span<const std::ptrdiff_t> src_strides,
                               strided_shape shape) {
  auto& c = detail::ctx();
  detail::strided_store(c, dst, dst_strides, src, src_strides, shape,
                        *detail::library_store_counter(c), c.store_sent_bytes,
                        "bulk_store_strided");
}

}  // namespace splitc
