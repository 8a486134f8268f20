// The C interface (splitc.h) to strided and indexed transfers: bulk_get_strided and
// friends, the piece lists and element lists, each a thin call into strided.hpp and
// indexed.hpp. A NULL counter is the library's (sync(), store_sync).
#include <splitc.h>

#include "c_arguments.hpp"

#include <splitc/indexed.hpp>
#include <splitc/strided.hpp>

#include <cstddef>
#include <span>

namespace {

using splitc::counter;
using splitc::detail::context;

using splitc::c_arguments::cpp;
using splitc::c_arguments::length;
using splitc::c_arguments::or_library;
using splitc::c_arguments::received_or_library;
using splitc::c_arguments::sent_or_library;

struct strided_args {
  std::span<const std::ptrdiff_t> dst_strides, src_strides;
  splitc::strided_shape shape;
};
strided_args strided(context& c, const ptrdiff_t* dst_strides, const ptrdiff_t* src_strides,
                     const size_t* counts, int dims, size_t elem_size, const char* op) {
  const std::size_t n = length(c, dims, op);
  return {{dst_strides, n}, {src_strides, n}, {elem_size, {counts, n}}};
}

static_assert(sizeof(splitc_global_piece_t) == sizeof(splitc::global_piece));
static_assert(sizeof(splitc_local_piece_t) == sizeof(splitc::local_piece));
std::span<const splitc::global_piece> pieces(context& c, const splitc_global_piece_t* p, int n,
                                             const char* op) {
  return {reinterpret_cast<const splitc::global_piece*>(p), length(c, n, op)};
}
std::span<const splitc::local_piece> pieces(context& c, const splitc_local_piece_t* p, int n,
                                            const char* op) {
  return {reinterpret_cast<const splitc::local_piece*>(p), length(c, n, op)};
}
std::span<const splitc::global_ptr<void>> elements(context& c, const __globPtrType* p, int n,
                                                   const char* op) {
  return {reinterpret_cast<const splitc::global_ptr<void>*>(p), length(c, n, op)};
}

}  // namespace

extern "C" {

void bulk_get_strided_ctr(void* dst, const ptrdiff_t* dst_strides, __globPtrType src,
                          const ptrdiff_t* src_strides, const size_t* counts, int dims,
                          size_t elem_size, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  const auto a = strided(c, dst_strides, src_strides, counts, dims, elem_size, "bulk_get_strided");
  splitc::detail::strided_get(c, dst, a.dst_strides, cpp(src), a.src_strides, a.shape,
                              or_library(c, ctr), "bulk_get_strided");
}
void bulk_get_strided(void* dst, const ptrdiff_t* dst_strides, __globPtrType src,
                      const ptrdiff_t* src_strides, const size_t* counts, int dims,
                      size_t elem_size) {
  bulk_get_strided_ctr(dst, dst_strides, src, src_strides, counts, dims, elem_size, nullptr);
}
void bulk_put_strided_ctr(__globPtrType dst, const ptrdiff_t* dst_strides, const void* src,
                          const ptrdiff_t* src_strides, const size_t* counts, int dims,
                          size_t elem_size, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  const auto a = strided(c, dst_strides, src_strides, counts, dims, elem_size, "bulk_put_strided");
  splitc::detail::strided_put(c, cpp(dst), a.dst_strides, src, a.src_strides, a.shape,
                              or_library(c, ctr), "bulk_put_strided");
}
void bulk_put_strided(__globPtrType dst, const ptrdiff_t* dst_strides, const void* src,
                      const ptrdiff_t* src_strides, const size_t* counts, int dims,
                      size_t elem_size) {
  bulk_put_strided_ctr(dst, dst_strides, src, src_strides, counts, dims, elem_size, nullptr);
}
void bulk_store_strided_ctr(__globPtrType dst, const ptrdiff_t* dst_strides, const void* src,
                            const ptrdiff_t* src_strides, const size_t* counts, int dims,
                            size_t elem_size, splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  const auto a =
      strided(c, dst_strides, src_strides, counts, dims, elem_size, "bulk_store_strided");
  splitc::detail::strided_store(c, cpp(dst), a.dst_strides, src, a.src_strides, a.shape,
                                received_or_library(c, rbytes), sent_or_library(c, sbytes), "bulk_store_strided");
}
void bulk_store_strided(__globPtrType dst, const ptrdiff_t* dst_strides, const void* src,
                        const ptrdiff_t* src_strides, const size_t* counts, int dims,
                        size_t elem_size) {
  bulk_store_strided_ctr(dst, dst_strides, src, src_strides, counts, dims, elem_size, nullptr,
                         nullptr);
}

void bulk_get_pieces_ctr(const splitc_local_piece_t* dst, int ndst,
                         const splitc_global_piece_t* src, int nsrc, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::pieces_transfer(c, splitc::detail::vector_kind::get,
                                  pieces(c, src, nsrc, "bulk_get_pieces"),
                                  pieces(c, dst, ndst, "bulk_get_pieces"), or_library(c, ctr),
                                  nullptr, "bulk_get_pieces");
}
void bulk_get_pieces(const splitc_local_piece_t* dst, int ndst, const splitc_global_piece_t* src,
                     int nsrc) {
  bulk_get_pieces_ctr(dst, ndst, src, nsrc, nullptr);
}
void bulk_put_pieces_ctr(const splitc_global_piece_t* dst, int ndst,
                         const splitc_local_piece_t* src, int nsrc, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::pieces_transfer(c, splitc::detail::vector_kind::put,
                                  pieces(c, dst, ndst, "bulk_put_pieces"),
                                  pieces(c, src, nsrc, "bulk_put_pieces"), or_library(c, ctr),
                                  nullptr, "bulk_put_pieces");
}
void bulk_put_pieces(const splitc_global_piece_t* dst, int ndst, const splitc_local_piece_t* src,
                     int nsrc) {
  bulk_put_pieces_ctr(dst, ndst, src, nsrc, nullptr);
}
void bulk_store_pieces_ctr(const splitc_global_piece_t* dst, int ndst,
                           const splitc_local_piece_t* src, int nsrc, splitc_counter_t* rbytes,
                           splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  counter& sent = sent_or_library(c, sbytes);
  splitc::detail::pieces_transfer(c, splitc::detail::vector_kind::store,
                                  pieces(c, dst, ndst, "bulk_store_pieces"),
                                  pieces(c, src, nsrc, "bulk_store_pieces"),
                                  received_or_library(c, rbytes), &sent, "bulk_store_pieces");
}
void bulk_store_pieces(const splitc_global_piece_t* dst, int ndst,
                       const splitc_local_piece_t* src, int nsrc) {
  bulk_store_pieces_ctr(dst, ndst, src, nsrc, nullptr, nullptr);
}

void bulk_get_elements_ctr(void* dst, const __globPtrType* src, int n, size_t elem_size,
                           splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::elements_transfer(c, splitc::detail::vector_kind::get,
                                    elements(c, src, n, "bulk_get_elements"), dst, elem_size,
                                    or_library(c, ctr), nullptr, "bulk_get_elements");
}
void bulk_get_elements(void* dst, const __globPtrType* src, int n, size_t elem_size) {
  bulk_get_elements_ctr(dst, src, n, elem_size, nullptr);
}
void bulk_put_elements_ctr(const __globPtrType* dst, const void* src, int n, size_t elem_size,
                           splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::elements_transfer(c, splitc::detail::vector_kind::put,
                                    elements(c, dst, n, "bulk_put_elements"),
                                    const_cast<void*>(src), elem_size, or_library(c, ctr),
                                    nullptr, "bulk_put_elements");
}
void bulk_put_elements(const __globPtrType* dst, const void* src, int n, size_t elem_size) {
  bulk_put_elements_ctr(dst, src, n, elem_size, nullptr);
}
void bulk_store_elements_ctr(const __globPtrType* dst, const void* src, int n, size_t elem_size,
                             splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  counter& sent = sent_or_library(c, sbytes);
  splitc::detail::elements_transfer(c, splitc::detail::vector_kind::store,
                                    elements(c, dst, n, "bulk_store_elements"),
                                    const_cast<void*>(src), elem_size, received_or_library(c, rbytes),
                                    &sent, "bulk_store_elements");
}
void bulk_store_elements(const __globPtrType* dst, const void* src, int n, size_t elem_size) {
  bulk_store_elements_ctr(dst, src, n, elem_size, nullptr, nullptr);
}

}  // extern "C"
