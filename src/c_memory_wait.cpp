// The C interface (splitc.h) to waiting on memory (splitc/memory_wait.hpp): OpenSHMEM's
// wait_until / test family, one set of functions per word type (splitc_int_wait_until, ...).
#include <splitc.h>

#include <splitc/memory_wait.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace {

using splitc::cmp;

cmp cmp_of(int c, const char* what) {
  if (c < SPLITC_CMP_EQ || c > SPLITC_CMP_LE) [[unlikely]]
    splitc::detail::bad_wait(what, "the comparison is not one of SPLITC_CMP_EQ .. SPLITC_CMP_LE");
  return static_cast<cmp>(c);
}

static_assert(static_cast<int>(cmp::eq) == SPLITC_CMP_EQ && static_cast<int>(cmp::ne) == SPLITC_CMP_NE &&
              static_cast<int>(cmp::gt) == SPLITC_CMP_GT && static_cast<int>(cmp::ge) == SPLITC_CMP_GE &&
              static_cast<int>(cmp::lt) == SPLITC_CMP_LT && static_cast<int>(cmp::le) == SPLITC_CMP_LE);
static_assert(splitc::no_index == SPLITC_NO_INDEX);

template <class T>
std::span<T> words(T* ivars, std::size_t n) {
  return {ivars, n};
}
std::span<const int> statuses(const int* status, std::size_t n) {
  return status == nullptr ? std::span<const int>{} : std::span<const int>{status, n};
}
std::span<std::size_t> index_room(std::size_t* indices, std::size_t n) { return {indices, n}; }

}  // namespace

#define SPLITC_C_WAIT_FAMILY(NAME, T)                                                              \
  extern "C" void splitc_##NAME##_wait_until(T* ivar, int c, T value) {                            \
    splitc::wait_until(ivar, cmp_of(c, "splitc_" #NAME "_wait_until"), value);                     \
  }                                                                                                \
  extern "C" int splitc_##NAME##_test(T* ivar, int c, T value) {                                   \
    return splitc::test(ivar, cmp_of(c, "splitc_" #NAME "_test"), value) ? 1 : 0;                  \
  }                                                                                                \
  extern "C" void splitc_##NAME##_wait_until_all(T* ivars, size_t n, const int* status, int c,     \
                                                  T value) {                                       \
    splitc::wait_until_all(words(ivars, n), cmp_of(c, "splitc_" #NAME "_wait_until_all"), value,   \
                           statuses(status, n));                                                   \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_wait_until_any(T* ivars, size_t n, const int* status, int c,   \
                                                    T value) {                                     \
    return splitc::wait_until_any(words(ivars, n), cmp_of(c, "splitc_" #NAME "_wait_until_any"),   \
                                  value, statuses(status, n));                                     \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_wait_until_some(T* ivars, size_t n, size_t* indices,           \
                                                     const int* status, int c, T value) {          \
    return splitc::wait_until_some(words(ivars, n), index_room(indices, n),                        \
                                   cmp_of(c, "splitc_" #NAME "_wait_until_some"), value,           \
                                   statuses(status, n));                                           \
  }                                                                                                \
  extern "C" void splitc_##NAME##_wait_until_all_vector(T* ivars, size_t n, const int* status,     \
                                                         int c, const T* values) {                 \
    splitc::wait_until_all_vector(words(ivars, n),                                                 \
                                  cmp_of(c, "splitc_" #NAME "_wait_until_all_vector"),             \
                                  std::span<const T>(values, n), statuses(status, n));             \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_wait_until_any_vector(T* ivars, size_t n, const int* status,   \
                                                           int c, const T* values) {               \
    return splitc::wait_until_any_vector(words(ivars, n),                                          \
                                         cmp_of(c, "splitc_" #NAME "_wait_until_any_vector"),      \
                                         std::span<const T>(values, n), statuses(status, n));      \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_wait_until_some_vector(T* ivars, size_t n, size_t* indices,    \
                                                            const int* status, int c,              \
                                                            const T* values) {                     \
    return splitc::wait_until_some_vector(words(ivars, n), index_room(indices, n),                 \
                                          cmp_of(c, "splitc_" #NAME "_wait_until_some_vector"),    \
                                          std::span<const T>(values, n), statuses(status, n));     \
  }                                                                                                \
  extern "C" int splitc_##NAME##_test_all(T* ivars, size_t n, const int* status, int c, T value) { \
    return splitc::test_all(words(ivars, n), cmp_of(c, "splitc_" #NAME "_test_all"), value,       \
                            statuses(status, n))                                                   \
               ? 1                                                                                 \
               : 0;                                                                                \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_test_any(T* ivars, size_t n, const int* status, int c,         \
                                              T value) {                                           \
    return splitc::test_any(words(ivars, n), cmp_of(c, "splitc_" #NAME "_test_any"), value,        \
                            statuses(status, n));                                                  \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_test_some(T* ivars, size_t n, size_t* indices,                 \
                                               const int* status, int c, T value) {                \
    return splitc::test_some(words(ivars, n), index_room(indices, n),                              \
                             cmp_of(c, "splitc_" #NAME "_test_some"), value, statuses(status, n)); \
  }                                                                                                \
  extern "C" int splitc_##NAME##_test_all_vector(T* ivars, size_t n, const int* status, int c,     \
                                                  const T* values) {                               \
    return splitc::test_all_vector(words(ivars, n), cmp_of(c, "splitc_" #NAME "_test_all_vector"), \
                                   std::span<const T>(values, n), statuses(status, n))             \
               ? 1                                                                                 \
               : 0;                                                                                \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_test_any_vector(T* ivars, size_t n, const int* status, int c,  \
                                                     const T* values) {                            \
    return splitc::test_any_vector(words(ivars, n),                                                \
                                   cmp_of(c, "splitc_" #NAME "_test_any_vector"),                  \
                                   std::span<const T>(values, n), statuses(status, n));            \
  }                                                                                                \
  extern "C" size_t splitc_##NAME##_test_some_vector(T* ivars, size_t n, size_t* indices,          \
                                                      const int* status, int c, const T* values) { \
    return splitc::test_some_vector(words(ivars, n), index_room(indices, n),                       \
                                    cmp_of(c, "splitc_" #NAME "_test_some_vector"),                \
                                    std::span<const T>(values, n), statuses(status, n));           \
  }

SPLITC_C_WAIT_FAMILY(int, int)
SPLITC_C_WAIT_FAMILY(long, long)
SPLITC_C_WAIT_FAMILY(longlong, long long)
SPLITC_C_WAIT_FAMILY(uint, unsigned int)
SPLITC_C_WAIT_FAMILY(ulong, unsigned long)
SPLITC_C_WAIT_FAMILY(ulonglong, unsigned long long)
SPLITC_C_WAIT_FAMILY(int32, int32_t)
SPLITC_C_WAIT_FAMILY(int64, int64_t)
SPLITC_C_WAIT_FAMILY(uint32, uint32_t)
SPLITC_C_WAIT_FAMILY(uint64, uint64_t)
SPLITC_C_WAIT_FAMILY(size, size_t)
SPLITC_C_WAIT_FAMILY(ptrdiff, ptrdiff_t)
