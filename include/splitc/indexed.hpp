// Indexed transfers: bulk_get, bulk_put and bulk_store of lists of pieces of global memory,
// spread over any processors — lists of (global address, length) pieces, and lists of
// elements (global pointers, or indices from a spread or global pointer) — moved with one
// message per owner, not one per piece (per medium_limit bytes; long pieces travel alone
// as bulk transfers do, and pieces mapped here are copied). The local side is a list of
// pieces or one contiguous buffer, holding the pieces' bytes in list order. Pieces may
// repeat or be empty; where a put's or store's destination pieces overlap, which value
// lands is unspecified (as MPI's and OpenSHMEM's). src/vector_transfer.cpp.
#pragma once

#include <splitc/detail/vector_transfer.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/spread_ptr.hpp>

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

namespace splitc {

/// `len` bytes of global memory at `ptr`.
struct global_piece {
  global_ptr<void> ptr;
  std::size_t len;
};
/// `len` bytes of this processor's memory: written by gets ...
struct local_piece {
  void* ptr;
  std::size_t len;
};
/// ... read by puts and stores.
struct source_piece {
  const void* ptr;
  std::size_t len;
};

namespace detail {
/// As vector_transfer (and returning its count of packed messages).
std::size_t pieces_transfer(context& c, vector_kind kind, std::span<const global_piece> remote,
                     std::span<const local_piece> local, counter& ctr, counter* sent,
                     const char* op);
std::size_t elements_transfer(context& c, vector_kind kind, std::span<const global_ptr<void>> remote,
                       void* local, std::size_t elem_size, counter& ctr, counter* sent,
                       const char* op);

inline std::span<const local_piece> as_local(std::span<const source_piece> s) noexcept {
  static_assert(sizeof(source_piece) == sizeof(local_piece));
  return {reinterpret_cast<const local_piece*>(s.data()), s.size()};
}
inline local_piece one_piece(const void* p, std::span<const global_piece> remote) noexcept {
  std::size_t len = 0;
  for (const global_piece& g : remote) len += g.len;
  return {const_cast<void*>(p), len};
}
/// Element i of a spread or global pointer's sequence, as a global pointer.
template <class T>
std::vector<global_ptr<void>> element_ptrs(spread_ptr<T> base,
                                           std::span<const std::ptrdiff_t> indices) {
  std::vector<global_ptr<void>> out;
  out.reserve(indices.size());
  const proc_t P = procs();
  for (std::ptrdiff_t i : indices) out.emplace_back(global_ptr<T>(base.advanced(i, P)));
  return out;
}
template <class T>
std::vector<global_ptr<void>> element_ptrs(global_ptr<T> base,
                                           std::span<const std::ptrdiff_t> indices) {
  std::vector<global_ptr<void>> out;
  out.reserve(indices.size());
  for (std::ptrdiff_t i : indices) out.emplace_back(global_ptr<T>(base + i));
  return out;
}
}  // namespace detail

// ---- lists of pieces ---------------------------------------------------------------

/// Get every remote piece into the local pieces, byte for byte in list order (the two
/// lists' lengths must add up to the same); complete with sync(ctr).
inline void bulk_get_pieces(std::span<const local_piece> dst, std::span<const global_piece> src,
                            counter& ctr) {
  detail::pieces_transfer(detail::ctx(), detail::vector_kind::get, src, dst, ctr, nullptr,
                          "bulk_get_pieces");
}
inline void bulk_get_pieces(std::span<const local_piece> dst, std::span<const global_piece> src) {
  auto& c = detail::ctx();
  detail::pieces_transfer(c, detail::vector_kind::get, src, dst, c.get_put, nullptr, "bulk_get_pieces");
}
/// ... into one contiguous buffer.
inline void bulk_get_pieces(void* dst, std::span<const global_piece> src, counter& ctr) {
  const local_piece all = detail::one_piece(dst, src);
  bulk_get_pieces({&all, 1}, src, ctr);
}
inline void bulk_get_pieces(void* dst, std::span<const global_piece> src) {
  bulk_get_pieces(dst, src, detail::ctx().get_put);
}

/// Put the local pieces' bytes into the remote pieces; the source has been read when the
/// call returns; complete with sync(ctr).
inline void bulk_put_pieces(std::span<const global_piece> dst, std::span<const source_piece> src,
                            counter& ctr) {
  detail::pieces_transfer(detail::ctx(), detail::vector_kind::put, dst, detail::as_local(src), ctr,
                          nullptr, "bulk_put_pieces");
}
inline void bulk_put_pieces(std::span<const global_piece> dst, std::span<const source_piece> src) {
  bulk_put_pieces(dst, src, detail::ctx().get_put);
}
inline void bulk_put_pieces(std::span<const global_piece> dst, const void* src, counter& ctr) {
  const source_piece all{src, detail::one_piece(src, dst).len};
  bulk_put_pieces(dst, {&all, 1}, ctr);
}
inline void bulk_put_pieces(std::span<const global_piece> dst, const void* src) {
  bulk_put_pieces(dst, src, detail::ctx().get_put);
}

/// Store them: bytes counted at each receiver on `received` and here on `sent`.
inline void bulk_store_pieces(std::span<const global_piece> dst,
                              std::span<const source_piece> src, counter& received,
                              counter& sent) {
  detail::pieces_transfer(detail::ctx(), detail::vector_kind::store, dst, detail::as_local(src),
                          received, &sent, "bulk_store_pieces");
}
/// ... on the library's counters (store_sync, all_store_sync).
inline void bulk_store_pieces(std::span<const global_piece> dst,
                              std::span<const source_piece> src) {
  auto& c = detail::ctx();
  detail::pieces_transfer(c, detail::vector_kind::store, dst, detail::as_local(src),
                          *detail::library_store_counter(c), &c.store_sent_bytes,
                          "bulk_store_pieces");
}
inline void bulk_store_pieces(std::span<const global_piece> dst, const void* src) {
  const source_piece all{src, detail::one_piece(src, dst).len};
  bulk_store_pieces(dst, {&all, 1});
}

// ---- lists of elements -------------------------------------------------------------

/// dst[k] = *src[k] for every k; complete with sync(ctr).
template <transferable T>
void bulk_get_elements(T* dst, std::type_identity_t<std::span<const global_ptr<T>>> src, counter& ctr) {
  detail::elements_transfer(
      detail::ctx(), detail::vector_kind::get,
      {reinterpret_cast<const global_ptr<void>*>(src.data()), src.size()}, dst, sizeof(T), ctr,
      nullptr, "bulk_get_elements");
}
template <transferable T>
void bulk_get_elements(T* dst, std::type_identity_t<std::span<const global_ptr<T>>> src) {
  bulk_get_elements(dst, src, detail::ctx().get_put);
}
/// *dst[k] = src[k] for every k; complete with sync(ctr).
template <transferable T>
void bulk_put_elements(std::type_identity_t<std::span<const global_ptr<T>>> dst, const T* src, counter& ctr) {
  detail::elements_transfer(
      detail::ctx(), detail::vector_kind::put,
      {reinterpret_cast<const global_ptr<void>*>(dst.data()), dst.size()},
      const_cast<T*>(src), sizeof(T), ctr, nullptr, "bulk_put_elements");
}
template <transferable T>
void bulk_put_elements(std::type_identity_t<std::span<const global_ptr<T>>> dst, const T* src) {
  bulk_put_elements(dst, src, detail::ctx().get_put);
}
/// *dst[k] = src[k] as stores, counted on the library's counters.
template <transferable T>
void bulk_store_elements(std::type_identity_t<std::span<const global_ptr<T>>> dst, const T* src) {
  auto& c = detail::ctx();
  detail::elements_transfer(
      c, detail::vector_kind::store, {reinterpret_cast<const global_ptr<void>*>(dst.data()), dst.size()},
      const_cast<T*>(src), sizeof(T), *detail::library_store_counter(c), &c.store_sent_bytes,
      "bulk_store_elements");
}

/// dst[k] = base[indices[k]], where base is a spread pointer (element i of a cyclic spread
/// array on processor i mod PROCS) or a global pointer (one processor's array); complete
/// with sync(ctr).
template <class Ptr, transferable T = typename Ptr::element_type>
void bulk_get_indexed(std::type_identity_t<T>* dst, Ptr base, std::span<const std::ptrdiff_t> indices, counter& ctr) {
  const auto ptrs = detail::element_ptrs(base, indices);
  detail::elements_transfer(detail::ctx(), detail::vector_kind::get, ptrs, dst, sizeof(T), ctr,
                            nullptr, "bulk_get_indexed");
}
template <class Ptr, transferable T = typename Ptr::element_type>
void bulk_get_indexed(std::type_identity_t<T>* dst, Ptr base, std::span<const std::ptrdiff_t> indices) {
  bulk_get_indexed(dst, base, indices, detail::ctx().get_put);
}
/// base[indices[k]] = src[k]; complete with sync(ctr).
template <class Ptr, transferable T = typename Ptr::element_type>
void bulk_put_indexed(Ptr base, std::span<const std::ptrdiff_t> indices, const std::type_identity_t<T>* src,
                      counter& ctr) {
  const auto ptrs = detail::element_ptrs(base, indices);
  detail::elements_transfer(detail::ctx(), detail::vector_kind::put, ptrs, const_cast<T*>(src),
                            sizeof(T), ctr, nullptr, "bulk_put_indexed");
}
template <class Ptr, transferable T = typename Ptr::element_type>
void bulk_put_indexed(Ptr base, std::span<const std::ptrdiff_t> indices, const std::type_identity_t<T>* src) {
  bulk_put_indexed(base, indices, src, detail::ctx().get_put);
}
/// base[indices[k]] = src[k] as stores, counted on the library's counters.
template <class Ptr, transferable T = typename Ptr::element_type>
void bulk_store_indexed(Ptr base, std::span<const std::ptrdiff_t> indices, const std::type_identity_t<T>* src) {
  auto& c = detail::ctx();
  const auto ptrs = detail::element_ptrs(base, indices);
  detail::elements_transfer(c, detail::vector_kind::store, ptrs, const_cast<T*>(src), sizeof(T),
                            *detail::library_store_counter(c), &c.store_sent_bytes,
                            "bulk_store_indexed");
}

}  // namespace splitc
