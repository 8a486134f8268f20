// The C interface (splitc.h), part 3: the global heap, atomic operations and
// atomic procedures with the seed's varargs calling convention (up to four
// integer-class words, like its four-word active messages).
#include <splitc.h>

#include <splitc/atomics.hpp>
#include <splitc/spread_heap.hpp>

#include <cstdarg>
#include <cstring>
#include <type_traits>

namespace {

using splitc::detail::context;

__globPtrType c_pointer(splitc::spread_ptr<void> p) { return {p.proc(), p.address()}; }
splitc::spread_ptr<void> cpp_spread(__globPtrType g) { return {g.proc, g.addr}; }
splitc::global_ptr<int> cpp_int(__globPtrType g) { return {g.proc, static_cast<int*>(g.addr)}; }

std::size_t count(int n, const char* what, const char* op) {
  if (n < 0) splitc::detail::fail("{}: negative {} {}", op, what, n);
  return static_cast<std::size_t>(n);
}

constexpr int max_words = 4;
using c_procedure = void (*)(void*, long, long, long, long);

/// Runs at the owner (named by offset like every atomic procedure).
/// Its result (one word) always fits a short reply (splitc::detail::atomic_runner).
std::size_t run_c_procedure(const splitc::detail::atomic_call& call, const void* packed,
                            void* small, void* /*large*/) {
  static_assert(sizeof(context::c_atomic_return) <= splitc::detail::procedure_small_result);
  long w[max_words];
  std::memcpy(w, packed, sizeof w);
  context& c = splitc::detail::running();
  c.c_atomic_return = 0;
  splitc::detail::function_at<c_procedure>(call.function)(call.target, w[0], w[1], w[2], w[3]);
  std::memcpy(small, &c.c_atomic_return, sizeof c.c_atomic_return);
  return sizeof c.c_atomic_return;
}

// The owner calls it through this type (src/atomics.cpp).
static_assert(std::is_same_v<decltype(&run_c_procedure), splitc::detail::atomic_runner>);

std::uint64_t call_procedure(splitc_atomic_fn fun, __globPtrType gptr, int nargs, va_list ap,
                             const char* op) {
  if (nargs < 0 || nargs > max_words)
    splitc::detail::fail("{}: {} arguments after the global pointer; it takes 0 to {}", op, nargs,
                         max_words);
  long w[max_words] = {};
  for (int i = 0; i < nargs; ++i) w[i] = va_arg(ap, long);
  context& c = splitc::detail::blocking_context(op);
  if (gptr.proc == c.myproc) {
    if (gptr.addr == nullptr) splitc::detail::null_target(c, gptr.proc, op);
    c.c_atomic_return = 0;
    reinterpret_cast<c_procedure>(fun)(gptr.addr, w[0], w[1], w[2], w[3]);
    return c.c_atomic_return;
  }
  splitc::detail::check_remote(c, gptr.proc, gptr.addr, op);
  std::uint64_t result = 0;
  splitc::counter done;
  done.add_local(1);
  const splitc::detail::atomic_call call{
      splitc::detail::function_offset(reinterpret_cast<const void*>(&run_c_procedure)),
      splitc::detail::function_offset(reinterpret_cast<const void*>(fun)), gptr.addr, &result,
      &done};
  splitc::detail::atomic_call_am(c, gptr.proc, call, w, sizeof w);
  splitc::detail::wait_until(c, op, [&] { return done.value() == 0; });
  return result;
}

}  // namespace

extern "C" {

__globPtrType all_spread_malloc(int count_, int object_size) {
  return c_pointer(splitc::all_spread_malloc(count(count_, "count", "all_spread_malloc"),
                                             count(object_size, "object size", "all_spread_malloc")));
}
void all_spread_free(__globPtrType sptr) { splitc::all_spread_free(cpp_spread(sptr)); }
__globPtrType spread_malloc(int count_, int object_size) {
  return c_pointer(
      splitc::spread_malloc(count(count_, "count", "spread_malloc"),
                            count(object_size, "object size", "spread_malloc")));
}
void spread_free(__globPtrType sptr) { splitc::spread_free(cpp_spread(sptr)); }

int exchange(__globPtrType loc, int val) { return splitc::exchange(cpp_int(loc), val); }
int test_and_set(__globPtrType loc) { return splitc::test_and_set(cpp_int(loc)); }
int cmp_and_swap(__globPtrType loc, int test_val, int new_val) {
  return splitc::cmp_and_swap(cpp_int(loc), test_val, new_val) == test_val;
}
int fetch_and_add(__globPtrType loc, int val) { return splitc::fetch_and_add(cpp_int(loc), val); }

void splitc_atomic_call(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...) {
  va_list ap;
  va_start(ap, nargs);
  call_procedure(fun, gptr, nargs, ap, "atomic");
  va_end(ap);
}
int splitc_atomic_call_i(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...) {
  va_list ap;
  va_start(ap, nargs);
  const std::uint64_t bits = call_procedure(fun, gptr, nargs, ap, "atomic_i");
  va_end(ap);
  int value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
double splitc_atomic_call_d(splitc_atomic_fn fun, __globPtrType gptr, int nargs, ...) {
  va_list ap;
  va_start(ap, nargs);
  const std::uint64_t bits = call_procedure(fun, gptr, nargs, ap, "atomic_d");
  va_end(ap);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}
void atomic_return_i(int val) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &val, sizeof val);
  splitc::detail::ctx().c_atomic_return = bits;
}
void atomic_return_d(double val) {
  std::memcpy(&splitc::detail::ctx().c_atomic_return, &val, sizeof val);
}

}  // extern "C"
