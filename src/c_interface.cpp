// The C interface (splitc.h), part 1: start-up, pointers, global memory,
// completion and bulk transfer, each a thin call into the C++ core.
#include <splitc.h>

#include <splitc/bulk.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/runtime.hpp>
#include <splitc/spread_ptr.hpp>

namespace {

using splitc::counter;
using splitc::detail::context;

splitc::global_ptr<void> cpp(__globPtrType g) { return {g.proc, g.addr}; }
counter& cpp(splitc_counter_t* c) { return *reinterpret_cast<counter*>(c); }
static_assert(sizeof(splitc_counter_t) == sizeof(counter));

std::size_t length(int len, const char* op) {
  if (len < 0) splitc::detail::bad_length(splitc::detail::ctx(), static_cast<std::size_t>(len), op);
  return static_cast<std::size_t>(len);
}

}  // namespace

extern "C" {

void splitc_init(int* argc, char*** argv) { splitc::init(*argc, *argv); }
void splitc_finalize(void) { splitc::finalize(); }
void splitc_not_initialized(void) { splitc::detail::not_initialized(); }
void splitc_poll(void) { splitc::poll(); }
void barrier(void) { splitc::barrier(); }

__globPtrType splitc_spread_add(__globPtrType s, long n, size_t elem_size) {
  const splitc::spread_step step = splitc::spread_advance(s.proc, n, splitc::procs());
  return {step.proc, static_cast<char*>(s.addr) + step.rows * static_cast<std::ptrdiff_t>(elem_size)};
}

long splitc_spread_diff(__globPtrType a, __globPtrType b, size_t elem_size) {
  const long rows = (static_cast<char*>(a.addr) - static_cast<char*>(b.addr)) /
                    static_cast<long>(elem_size);
  return rows * splitc::procs() + (a.proc - b.proc);
}

void splitc_read_bytes(void* dst, __globPtrType src, size_t n) {
  splitc::bulk_read(dst, cpp(src), n);
}
void splitc_write_bytes(__globPtrType dst, const void* src, size_t n) {
  splitc::bulk_write(cpp(dst), src, n);
}
void splitc_get_bytes(void* dst, __globPtrType src, size_t n, splitc_counter_t* ctr) {
  if (ctr == nullptr)
    splitc::bulk_get(dst, cpp(src), n);
  else
    splitc::bulk_get(dst, cpp(src), n, cpp(ctr));
}
void splitc_put_bytes(__globPtrType dst, const void* src, size_t n, splitc_counter_t* ctr) {
  if (ctr == nullptr)
    splitc::bulk_put(cpp(dst), src, n);
  else
    splitc::bulk_put(cpp(dst), src, n, cpp(ctr));
}
void splitc_store_bytes(__globPtrType dst, const void* src, size_t n, splitc_counter_t* rbytes,
                        splitc_counter_t* sbytes) {
  if (rbytes == nullptr)
    splitc::bulk_store(cpp(dst), src, n);
  else
    splitc::bulk_store(cpp(dst), src, n, cpp(rbytes), cpp(sbytes));
}

void splitc_sync(void) { splitc::sync(); }
int is_sync(void) { return splitc::is_sync(); }
void sync_ctr(splitc_counter_t* ctr) { splitc::sync(cpp(ctr)); }
int is_sync_ctr(splitc_counter_t* ctr) { return splitc::is_sync(cpp(ctr)); }
void store_sync(int bytes) { splitc::store_sync(bytes); }
int is_store_sync(int bytes) { return splitc::is_store_sync(bytes); }
void store_sync_ctr(int bytes, splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  splitc::store_sync(bytes, cpp(rbytes), cpp(sbytes));
}
int is_store_sync_ctr(int bytes, splitc_counter_t* rbytes, splitc_counter_t* sbytes) {
  return splitc::is_store_sync(bytes, cpp(rbytes), cpp(sbytes));
}
void all_store_sync(void) { splitc::all_store_sync(); }

void bulk_read(void* dst, __globPtrType src, int len) {
  splitc::bulk_read(dst, cpp(src), length(len, "bulk_read"));
}
void bulk_write(__globPtrType dst, void* src, int len) {
  splitc::bulk_write(cpp(dst), src, length(len, "bulk_write"));
}
void bulk_get(void* dst, __globPtrType src, int len) {
  splitc::bulk_get(dst, cpp(src), length(len, "bulk_get"));
}
void bulk_put(__globPtrType dst, void* src, int len) {
  splitc::bulk_put(cpp(dst), src, length(len, "bulk_put"));
}
void bulk_store(__globPtrType dst, void* src, int len) {
  splitc::bulk_store(cpp(dst), src, length(len, "bulk_store"));
}
void bulk_get_ctr(void* dst, __globPtrType src, int len, splitc_counter_t* ctr) {
  splitc::bulk_get(dst, cpp(src), length(len, "bulk_get_ctr"), cpp(ctr));
}
void bulk_put_ctr(__globPtrType dst, void* src, int len, splitc_counter_t* ctr) {
  splitc::bulk_put(cpp(dst), src, length(len, "bulk_put_ctr"), cpp(ctr));
}
void bulk_store_ctr(__globPtrType gp, char* lp, int len, splitc_counter_t* rbytes,
                    splitc_counter_t* sbytes) {
  splitc::bulk_store(cpp(gp), lp, length(len, "bulk_store_ctr"), cpp(rbytes), cpp(sbytes));
}

}  // extern "C"
