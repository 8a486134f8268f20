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

inline void bulk_get(void* dst, global_ptr<void> src, std::size_t len, counter& ctr) {
  auto& c = detail::ctx();
  if (detail::bulk_begin(c, src.proc(), len, "bulk_get"))
    detail::get_bytes(c, dst, src.proc(), src.local(), len, ctr, "bulk_get");
}
inline void bulk_get(void* dst, global_ptr<void> src, std::size_t len) {
  bulk_get(dst, src, len, detail::ctx().get_put);
}

inline void bulk_put(global_ptr<void> dst, const void* src, std::size_t len, counter& ctr) {
  auto& c = detail::ctx();
  if (detail::bulk_begin(c, dst.proc(), len, "bulk_put"))
    detail::put_bytes(c, dst.proc(), dst.local(), src, len, ctr, "bulk_put");
}
inline void bulk_put(global_ptr<void> dst, const void* src, std::size_t len) {
  bulk_put(dst, src, len, detail::ctx().get_put);
}

inline void bulk_read(void* dst, global_ptr<void> src, std::size_t len) {
  auto& c = detail::ctx();
  if (!detail::bulk_begin(c, src.proc(), len, "bulk_read")) return;
  counter mine;
  detail::get_bytes(c, dst, src.proc(), src.local(), len, mine, "bulk_read");
  detail::wait_until(c, "bulk_read", [&] { return mine.value() == 0; });
}

inline void bulk_write(global_ptr<void> dst, const void* src, std::size_t len) {
  auto& c = detail::ctx();
  if (!detail::bulk_begin(c, dst.proc(), len, "bulk_write")) return;
  counter mine;
  detail::put_bytes(c, dst.proc(), dst.local(), src, len, mine, "bulk_write");
  detail::wait_until(c, "bulk_write", [&] { return mine.value() == 0; });
}

inline void bulk_store(global_ptr<void> dst, const void* src, std::size_t len, counter& received,
                       counter& sent) {
  auto& c = detail::ctx();
  if (detail::bulk_begin(c, dst.proc(), len, "bulk_store"))
    detail::store_bytes(c, dst.proc(), dst.local(), src, len, received, sent, "bulk_store");
}
inline void bulk_store(global_ptr<void> dst, const void* src, std::size_t len) {
  auto& c = detail::ctx();
  bulk_store(dst, src, len, *detail::library_store_counter(c), c.store_sent_bytes);
}

}  // namespace splitc
