// The C interface (splitc.h) to the atomic operations (splitc/atomic_operations.hpp): one set
// of functions per word type, splitc_<type>_atomic_fetch_add, ..., and their split-phase
// forms ending in _ctr (the counter last, as bulk_get_ctr; NULL: the counter sync() waits on).
#include <splitc.h>

#include "c_arguments.hpp"

#include <splitc/atomic_operations.hpp>

namespace {

template <class T>
splitc::global_ptr<T> cpp_word(__globPtrType g) {
  return {g.proc, static_cast<T*>(g.addr)};
}
splitc::counter& counter_or_library(splitc_counter_t* ctr) {
  return splitc::c_arguments::or_library(splitc::detail::ctx(), ctr);
}

}  // namespace

// A read-modify-write OP of the word type T: fetch and non-fetch, blocking and _ctr.
#define SPLITC_C_ATOMIC_RMW(NAME, T, OP)                                                           \
  extern "C" T splitc_##NAME##_atomic_fetch_##OP(__globPtrType p, T value) {                       \
    return splitc::atomic_fetch_##OP(cpp_word<T>(p), value);                                       \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_##OP(__globPtrType p, T value) {                          \
    splitc::atomic_##OP(cpp_word<T>(p), value);                                                    \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_fetch_##OP##_ctr(T* result, __globPtrType p, T value,     \
                                                          splitc_counter_t* ctr) {                 \
    splitc::atomic_fetch_##OP##_async(counter_or_library(ctr), result, cpp_word<T>(p), value);     \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_##OP##_ctr(__globPtrType p, T value,                      \
                                                    splitc_counter_t* ctr) {                       \
    splitc::atomic_##OP##_async(counter_or_library(ctr), cpp_word<T>(p), value);                   \
  }

// What every word type has: add, min, max, swap, compare-and-swap, load, store.
#define SPLITC_C_ATOMIC_FAMILY(NAME, T)                                                            \
  SPLITC_C_ATOMIC_RMW(NAME, T, add)                                                                \
  SPLITC_C_ATOMIC_RMW(NAME, T, min)                                                                \
  SPLITC_C_ATOMIC_RMW(NAME, T, max)                                                                \
  extern "C" T splitc_##NAME##_atomic_swap(__globPtrType p, T value) {                             \
    return splitc::atomic_swap(cpp_word<T>(p), value);                                             \
  }                                                                                                \
  extern "C" T splitc_##NAME##_atomic_compare_swap(__globPtrType p, T expected, T desired) {       \
    return splitc::atomic_compare_swap(cpp_word<T>(p), expected, desired);                         \
  }                                                                                                \
  extern "C" T splitc_##NAME##_atomic_load(__globPtrType p) {                                      \
    return splitc::atomic_load(cpp_word<T>(p));                                                    \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_store(__globPtrType p, T value) {                         \
    splitc::atomic_store(cpp_word<T>(p), value);                                                   \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_swap_ctr(T* result, __globPtrType p, T value,             \
                                                  splitc_counter_t* ctr) {                         \
    splitc::atomic_swap_async(counter_or_library(ctr), result, cpp_word<T>(p), value);             \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_compare_swap_ctr(T* result, __globPtrType p, T expected,  \
                                                          T desired, splitc_counter_t* ctr) {      \
    splitc::atomic_compare_swap_async(counter_or_library(ctr), result, cpp_word<T>(p), expected,   \
                                      desired);                                                    \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_load_ctr(T* result, __globPtrType p,                      \
                                                  splitc_counter_t* ctr) {                         \
    splitc::atomic_load_async(counter_or_library(ctr), result, cpp_word<T>(p));                    \
  }                                                                                                \
  extern "C" void splitc_##NAME##_atomic_store_ctr(__globPtrType p, T value,                       \
                                                   splitc_counter_t* ctr) {                        \
    splitc::atomic_store_async(counter_or_library(ctr), cpp_word<T>(p), value);                    \
  }

// Integer word types add and, or, xor.
#define SPLITC_C_ATOMIC_INTEGER_FAMILY(NAME, T)                                                    \
  SPLITC_C_ATOMIC_FAMILY(NAME, T)                                                                  \
  SPLITC_C_ATOMIC_RMW(NAME, T, and)                                                                \
  SPLITC_C_ATOMIC_RMW(NAME, T, or)                                                                 \
  SPLITC_C_ATOMIC_RMW(NAME, T, xor)

SPLITC_C_ATOMIC_INTEGER_FAMILY(int, int)
SPLITC_C_ATOMIC_INTEGER_FAMILY(long, long)
SPLITC_C_ATOMIC_INTEGER_FAMILY(longlong, long long)
SPLITC_C_ATOMIC_INTEGER_FAMILY(uint, unsigned int)
SPLITC_C_ATOMIC_INTEGER_FAMILY(ulong, unsigned long)
SPLITC_C_ATOMIC_INTEGER_FAMILY(ulonglong, unsigned long long)
SPLITC_C_ATOMIC_INTEGER_FAMILY(int32, int32_t)
SPLITC_C_ATOMIC_INTEGER_FAMILY(int64, int64_t)
SPLITC_C_ATOMIC_INTEGER_FAMILY(uint32, uint32_t)
SPLITC_C_ATOMIC_INTEGER_FAMILY(uint64, uint64_t)
SPLITC_C_ATOMIC_INTEGER_FAMILY(size, size_t)
SPLITC_C_ATOMIC_INTEGER_FAMILY(ptrdiff, ptrdiff_t)
SPLITC_C_ATOMIC_FAMILY(float, float)
SPLITC_C_ATOMIC_FAMILY(double, double)
