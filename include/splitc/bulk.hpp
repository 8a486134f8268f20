// Bulk transfer (seed §3.2): the five operations on byte ranges of any
// alignment and length. The same paths as single values: local memcpy,
// direct memcpy into a mapped peer segment, or active messages fragmented to
// the backend's limits (src/global_memory.cpp).
#pragma once

#include <splitc/global_memory.hpp>

#include <cstddef>

namespace splitc {

/// Lengths beyond this are certainly a bug (a negative int cast to size_t).
inline constexpr std::size_t max_bulk_length = std::size_t{1} << 46;

namespace detail {
[[gnu::cold, noreturn]] void bad_length(context& c, std::size_t len, const char* op);

/// Checks common to every bulk operation; false when there is nothing to move.
inline bool bulk_begin(context& c, proc_t p, std::size_t len, const char* op) {
  if (len > max_bulk_length) [[unlikely]] bad_length(c, len, op);
  if (static_cast<unsigned>(p) >= static_cast<unsigned>(c.procs)) [[unlikely]]
    bad_processor(c, p, op);
  return len != 0;
}
}  // namespace detail

// The five operations under the name the program called (the C interface
// passes its own names: bulk_get_ctr, __i_read, ...), which errors report.
namespace detail {
inline void bulk_get_as(context& c, void* dst, global_ptr<void> src, std::size_t len,
                        counter& ctr, const char* op) {
  if (bulk_begin(c, src.proc(), len, op)) get_bytes(c, dst, src.proc(), src.address(), len, ctr, op);
}
inline void bulk_put_as(context& c, global_ptr<void> dst, const void* src, std::size_t len,
                        counter& ctr, const char* op) {
  if (bulk_begin(c, dst.proc(), len, op)) put_bytes(c, dst.proc(), dst.address(), src, len, ctr, op);
}
inline void bulk_read_as(context& c, void* dst, global_ptr<void> src, std::size_t len,
                         const char* op) {
  if (!bulk_begin(c, src.proc(), len, op)) return;
  counter mine;
  get_bytes(c, dst, src.proc(), src.address(), len, mine, op);
  wait_until(c, op, [&] { return mine.value() == 0; });
}
inline void bulk_write_as(context& c, global_ptr<void> dst, const void* src, std::size_t len,
                          const char* op) {
  if (!bulk_begin(c, dst.proc(), len, op)) return;
  // The source is read until `mine` is zero, which this call waits for: a backend with
  // zero-copy long messages may send from it in place (bulk_put's source is read by the
  // time the call returns, docs/api.md).
  counter mine;
  put_bytes(c, dst.proc(), dst.address(), src, len, mine, op, source_lifetime::until_sync);
  wait_until(c, op, [&] { return mine.value() == 0; });
}
inline void bulk_store_as(context& c, global_ptr<void> dst, const void* src, std::size_t len,
                          counter& received, counter& sent, const char* op) {
  if (bulk_begin(c, dst.proc(), len, op))
    store_bytes(c, dst.proc(), dst.address(), src, len, received, sent, op);
}
}  // namespace detail

inline void bulk_get(void* dst, global_ptr<void> src, std::size_t len, counter& ctr) {
  detail::bulk_get_as(detail::ctx(), dst, src, len, ctr, "bulk_get");
}
inline void bulk_get(void* dst, global_ptr<void> src, std::size_t len) {
  auto& c = detail::ctx();
  detail::bulk_get_as(c, dst, src, len, c.get_put, "bulk_get");
}

inline void bulk_put(global_ptr<void> dst, const void* src, std::size_t len, counter& ctr) {
  detail::bulk_put_as(detail::ctx(), dst, src, len, ctr, "bulk_put");
}
inline void bulk_put(global_ptr<void> dst, const void* src, std::size_t len) {
  auto& c = detail::ctx();
  detail::bulk_put_as(c, dst, src, len, c.get_put, "bulk_put");
}

inline void bulk_read(void* dst, global_ptr<void> src, std::size_t len) {
  detail::bulk_read_as(detail::ctx(), dst, src, len, "bulk_read");
}

inline void bulk_write(global_ptr<void> dst, const void* src, std::size_t len) {
  detail::bulk_write_as(detail::ctx(), dst, src, len, "bulk_write");
}

inline void bulk_store(global_ptr<void> dst, const void* src, std::size_t len, counter& received,
                       counter& sent) {
  detail::bulk_store_as(detail::ctx(), dst, src, len, received, sent, "bulk_store");
}
inline void bulk_store(global_ptr<void> dst, const void* src, std::size_t len) {
  auto& c = detail::ctx();
  detail::bulk_store_as(c, dst, src, len, *detail::library_store_counter(c), c.store_sent_bytes,
                        "bulk_store");
}

}  // namespace splitc
