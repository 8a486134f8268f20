// The C interface's argument conversions, shared by its files (src/c_*.cpp; not installed):
// C's global pointers and counters as the C++ core's, an int length checked, and a NULL
// counter as the library's (sync() for gets and puts, store_sync for stores).
#pragma once

#include <splitc.h>

#include <splitc/bulk.hpp>
#include <splitc/counter.hpp>
#include <splitc/global_memory.hpp>

#include <cstddef>

namespace splitc::c_arguments {

static_assert(sizeof(splitc_counter_t) == sizeof(counter));
static_assert(sizeof(__globPtrType) == sizeof(global_ptr<void>));

inline global_ptr<void> cpp(__globPtrType g) { return {g.proc, g.addr}; }
inline counter& cpp(splitc_counter_t* c) { return *reinterpret_cast<counter*>(c); }

/// A C length or count (an int): negative is an error naming the call.
inline std::size_t length(detail::context& c, int len, const char* op) {
  if (len < 0) detail::bad_length(c, static_cast<std::size_t>(len), op);
  return static_cast<std::size_t>(len);
}

/// The counter a get, put or split-phase atomic completes on: the caller's, or sync()'s.
inline counter& or_library(detail::context& c, splitc_counter_t* ctr) {
  return ctr == nullptr ? c.get_put : cpp(ctr);
}
/// A store's counters: the caller's, or the library's (store_sync, all_store_sync).
inline counter& received_or_library(detail::context& c, splitc_counter_t* ctr) {
  return ctr == nullptr ? *detail::library_store_counter(c) : cpp(ctr);
}
inline counter& sent_or_library(detail::context& c, splitc_counter_t* ctr) {
  return ctr == nullptr ? c.store_sent_bytes : cpp(ctr);
}

}  // namespace splitc::c_arguments
