// The C interface (splitc.h), part 1: start-up, pointers, global memory,
// completion and bulk transfer, each a thin call into the C++ core.
#include <splitc.h>

#include "c_arguments.hpp"

#include <splitc/bulk.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/runtime.hpp>
#include <splitc/spread_ptr.hpp>

namespace {

using splitc::counter;
using splitc::detail::context;

using splitc::c_arguments::cpp;
using splitc::c_arguments::length;
using splitc::c_arguments::or_library;
std::int64_t byte_count(context& c, int bytes, const char* op) {
  if (bytes < 0) splitc::detail::bad_count(c, bytes, "byte count", op);
  return bytes;
}
std::size_t element_size(size_t size, const char* op) {
  if (size == 0) splitc::detail::fail("{}: element size 0", op);
  return size;
}

}  // namespace

extern "C" {

void splitc_init(int* argc, char*** argv) { splitc::init(*argc, *argv); }
void splitc_finalize(void) { splitc::finalize(); }
void splitc_not_initialized(void) { splitc::detail::not_initialized(); }
void splitc_poll(void) { splitc::poll(); }
double splitc_get_seconds(void) { return splitc::get_seconds(); }
void barrier(void) { splitc::barrier(); }

__globPtrType splitc_spread_add(__globPtrType s, long n, size_t elem_size) {
  const splitc::spread_step step = splitc::spread_advance(s.proc, n, splitc::procs());
  // The same offset on the new processor (its own copy where segments lie apart: c_context.h).
  return ::toglobal(step.proc, static_cast<char*>(s.addr) + step.rows * static_cast<std::ptrdiff_t>(elem_size));
}

long splitc_spread_diff(__globPtrType a, __globPtrType b, size_t elem_size) {
  // Offsets: both addresses as processor 0's copies.
  const long rows = (static_cast<char*>(splitc_placed_(0, a.addr)) - static_cast<char*>(splitc_placed_(0, b.addr))) /
                    static_cast<long>(element_size(elem_size, "splitc_spread_diff"));
  return rows * splitc::procs() + (a.proc - b.proc);
}

void splitc_read_bytes(void* dst, __globPtrType src, size_t n, const char* op) {
  splitc::detail::bulk_read_as(splitc::detail::ctx(), dst, cpp(src), n,
                               op != nullptr ? op : "splitc_read_bytes");
}
void splitc_write_bytes(__globPtrType dst, const void* src, size_t n, const char* op) {
  splitc::detail::bulk_write_as(splitc::detail::ctx(), cpp(dst), src, n,
                                op != nullptr ? op : "splitc_write_bytes");
}
void splitc_get_bytes(void* dst, __globPtrType src, size_t n, splitc_counter_t* ctr,
                      const char* op) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_get_as(c, dst, cpp(src), n, or_library(c, ctr),
                              op != nullptr ? op : "splitc_get_bytes");
}
void splitc_put_bytes(__globPtrType dst, const void* src, size_t n, splitc_counter_t* ctr,
                      const char* op) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_put_as(c, cpp(dst), src, n, or_library(c, ctr),
                              op != nullptr ? op : "splitc_put_bytes");
}
void splitc_store_bytes(__globPtrType dst, const void* src, size_t n, splitc_counter_t* rbytes,
                        splitc_counter_t* sbytes, const char* op) {
  context& c = splitc::detail::ctx();
  if (op == nullptr) op = "splitc_store_bytes";
  if (rbytes == nullptr)
    splitc::detail::bulk_store_as(c, cpp(dst), src, n, *splitc::detail::library_store_counter(c),
                                  c.store_sent_bytes, op);
  else
    splitc::detail::bulk_store_as(c, cpp(dst), src, n, cpp(rbytes), cpp(sbytes), op);
}

void splitc_sync(void) { splitc::sync(); }
int is_sync(void) { return splitc::is_sync(); }
void sync_ctr(splitc_counter_t* ctr) { splitc::sync(cpp(ctr)); }
int is_sync_ctr(splitc_counter_t* ctr) { return splitc::is_sync(cpp(ctr)); }
void store_sync(int bytes) {
  context& c = splitc::detail::ctx();
  splitc::detail::store_sync_as(c, byte_count(c, bytes, "store_sync"),
                                *splitc::detail::library_store_counter(c), c.store_sent_bytes,
                                "store_sync");
}
int is_store_sync(int bytes) {
  context& c = splitc::detail::ctx();
  return splitc::detail::is_store_sync_as(c, byte_count(c, bytes, "is_store_sync"),
                                          *splitc::detail::library_store_counter(c),
                                          c.store_sent_bytes, "is_store_sync");
}
void store_sync_ctr(int bytes, splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  splitc::detail::store_sync_as(c, byte_count(c, bytes, "store_sync_ctr"), cpp(rbytes),
                                cpp(sbytes), "store_sync_ctr");
}
int is_store_sync_ctr(int bytes, splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  return splitc::detail::is_store_sync_as(c, byte_count(c, bytes, "is_store_sync_ctr"),
                                          cpp(rbytes), cpp(sbytes), "is_store_sync_ctr");
}
void all_store_sync(void) { splitc::all_store_sync(); }
void reset_store_sync(void) { splitc::reset_store_sync(); }

// The bulk operations, under their C names.
void bulk_read(void* dst, __globPtrType src, int len) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_read_as(c, dst, cpp(src), length(c, len, "bulk_read"), "bulk_read");
}
void bulk_write(__globPtrType dst, void* src, int len) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_write_as(c, cpp(dst), src, length(c, len, "bulk_write"), "bulk_write");
}
void bulk_get(void* dst, __globPtrType src, int len) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_get_as(c, dst, cpp(src), length(c, len, "bulk_get"), c.get_put,
                              "bulk_get");
}
void bulk_put(__globPtrType dst, void* src, int len) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_put_as(c, cpp(dst), src, length(c, len, "bulk_put"), c.get_put,
                              "bulk_put");
}
void bulk_store(__globPtrType dst, void* src, int len) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_store_as(c, cpp(dst), src, length(c, len, "bulk_store"),
                                *splitc::detail::library_store_counter(c), c.store_sent_bytes,
                                "bulk_store");
}
void bulk_get_ctr(void* dst, __globPtrType src, int len, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_get_as(c, dst, cpp(src), length(c, len, "bulk_get_ctr"), cpp(ctr),
                              "bulk_get_ctr");
}
void bulk_put_ctr(__globPtrType dst, void* src, int len, splitc_counter_t* ctr) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_put_as(c, cpp(dst), src, length(c, len, "bulk_put_ctr"), cpp(ctr),
                              "bulk_put_ctr");
}
void bulk_store_ctr(__globPtrType gp, char* lp, int len, splitc_counter_t* rbytes,
                    splitc_counter_t* sbytes) {
  context& c = splitc::detail::ctx();
  splitc::detail::bulk_store_as(c, cpp(gp), lp, length(c, len, "bulk_store_ctr"), cpp(rbytes),
                                cpp(sbytes), "bulk_store_ctr");
}

}  // extern "C"
