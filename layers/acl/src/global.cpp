// The global operations (seed §4, "Global Operations"), on the synchronous primitives, rooted at
// processor 0: the binomial-tree broadcast (log P phases; phase i sends to the processor whose
// number differs in bit i, highest first: 0 -> P/2 first), the tree reduce (the same tree in
// reverse: in phase i, those with bit i set send to the one with it clear, which combines), and
// binary-swap reduction (each phase halves the vector between partners that differ in bit i,
// exchanges halves and combines, so that every processor works in every phase; then a gather
// on 0). Both reductions combine in processor order, so user operators need not commute; the
// trees work at any P as they stand, and binary swap first folds processors 2k+1 < 2(P - P')
// into 2k (P' the largest power of two not above P).
#include "layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

namespace splitc::acl {
namespace {

constexpr std::int32_t bc_tag = 1, reduce_tag = 2, swap_tag = 3, gather_tag = 4;

void send_to(int node, std::int32_t tag, const void* buf, std::size_t len, const char* call) {
  const send_half h{node, tag, buf, len};
  rendezvous(nullptr, &h, context::global, call);
}

void receive_from(int node, std::int32_t tag, void* buf, std::size_t len, const char* call) {
  const receive_half r{node, tag, buf, len};
  rendezvous(&r, nullptr, context::global, call);
}

bool is_builtin(ACLMPL_op op);

/// Combine a partner's `in` into `mine` (n elements), in processor order: `mine_is_lower` says
/// whose operand goes on the left. A non-commutative operator on the higher side combines into
/// `in` and copies the result back.
void combine(ACLMPL_op op, bool mine_is_lower, char* mine, char* in, std::size_t n,
             std::size_t elem_size) {
  if (n == 0) return;
  if (mine_is_lower || is_builtin(op)) {
    op(mine, in, static_cast<int>(n));
    return;
  }
  op(in, mine, static_cast<int>(n));
  std::memcpy(mine, in, n * elem_size);
}

std::size_t checked_bytes(int count, int elem_size, ACLMPL_op op, const char* call) {
  if (count < 0) fail(call, fmt::format("count {} is negative", count));
  if (elem_size <= 0) fail(call, fmt::format("element size {} is not positive", elem_size));
  if (op == nullptr) fail(call, "the operator is null");
  const std::size_t bytes = static_cast<std::size_t>(count) * static_cast<std::size_t>(elem_size);
  if (bytes > static_cast<std::size_t>(INT_MAX))
    fail(call, fmt::format("{} elements of {} bytes exceed a message's length", count, elem_size));
  return bytes;
}

/// The element range [lo, hi) virtual processor `v` holds after the binary swap's phases.
void swap_range(int v, int phases, std::size_t count, std::size_t& lo, std::size_t& hi) {
  lo = 0;
  hi = count;
  for (int i = 0; i < phases; ++i) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if ((v >> i) & 1) lo = mid;
    else hi = mid;
  }
}

}  // namespace

}  // namespace splitc::acl

using namespace splitc::acl;

extern "C" {

int ACLMPL_bc(void* buf, int len) {
  const char* call = "ACLMPL_bc";
  check_length(len, call);
  st();
  const int me = splitc::myproc(), p = splitc::procs();
  const auto n = static_cast<std::size_t>(len);
  int top = 1;
  while (top < p) top <<= 1;
  int low = top;  // processor 0 sends in every phase
  if (me != 0) {
    low = me & -me;
    receive_from(me - low, bc_tag, buf, n, call);
  }
  for (int k = low / 2; k >= 1; k /= 2)
    if (me + k < p) send_to(me + k, bc_tag, buf, n, call);
  return 1;
}

int ACLMPL_reduce(void* buf, int count, int elem_size, ACLMPL_op op) {
  const char* call = "ACLMPL_reduce";
  const std::size_t bytes = checked_bytes(count, elem_size, op, call);
  st();
  const int me = splitc::myproc(), p = splitc::procs();
  std::vector<char> in(bytes);
  for (int bit = 1; bit < p; bit <<= 1) {
    if (me & bit) {
      send_to(me - bit, reduce_tag, buf, bytes, call);
      break;
    }
    if (me + bit < p) {
      receive_from(me + bit, reduce_tag, in.data(), bytes, call);
      if (count > 0) op(buf, in.data(), count);
    }
  }
  return 1;
}

int ACLMPL_reduce_swap(void* buf, int count, int elem_size, ACLMPL_op op) {
  const char* call = "ACLMPL_reduce_swap";
  const std::size_t bytes = checked_bytes(count, elem_size, op, call);
  st();
  const int me = splitc::myproc(), p = splitc::procs();
  const auto size = static_cast<std::size_t>(elem_size);
  char* data = static_cast<char*>(buf);
  std::vector<char> in(bytes);
  int p2 = 1, phases = 0;
  while (p2 * 2 <= p) {
    p2 *= 2;
    ++phases;
  }
  const int extra = p - p2;
  // Fold: the first 2 * extra processors pair up, the odd one giving its vector to the even.
  int v;
  if (me < 2 * extra) {
    if (me & 1) {
      send_to(me - 1, reduce_tag, data, bytes, call);
      return 1;
    }
    receive_from(me + 1, reduce_tag, in.data(), bytes, call);
    combine(op, true, data, in.data(), static_cast<std::size_t>(count), size);
    v = me / 2;
  } else {
    v = me - extra;
  }
  auto real = [&](int virt) { return virt < extra ? 2 * virt : virt + extra; };
  // Swap: in phase i, keep one half of the current range and give the partner the other.
  std::size_t lo = 0, hi = static_cast<std::size_t>(count);
  for (int i = 0; i < phases; ++i) {
    const int partner = v ^ (1 << i);
    const bool lower = (v & (1 << i)) == 0;
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::size_t keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
    const std::size_t give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
    const receive_half r{real(partner), swap_tag, in.data(), (keep_hi - keep_lo) * size};
    const send_half h{real(partner), swap_tag, data + give_lo * size, (give_hi - give_lo) * size};
    rendezvous(&r, &h, context::global, call);
    combine(op, lower, data + keep_lo * size, in.data(), keep_hi - keep_lo, size);
    lo = keep_lo;
    hi = keep_hi;
  }
  // Gather the pieces on 0.
  if (v != 0) {
    send_to(0, gather_tag, data + lo * size, (hi - lo) * size, call);
    return 1;
  }
  for (int w = 1; w < p2; ++w) {
    std::size_t wlo, whi;
    swap_range(w, phases, static_cast<std::size_t>(count), wlo, whi);
    receive_from(real(w), gather_tag, data + wlo * size, (whi - wlo) * size, call);
  }
  return 1;
}

}  // extern "C"

// ---- the built-in operators -----------------------------------------------------------------

namespace {

template <class T, class F>
void apply(void* inout, const void* in, int count, F f) {
  T* a = static_cast<T*>(inout);
  const T* b = static_cast<const T*>(in);
  for (int k = 0; k < count; ++k) a[k] = f(a[k], b[k]);
}

using uint = unsigned int;
using ulong = unsigned long;

}  // namespace

// One function per operator and type (written out: `and` is an operator token in C++).
#define ACL_OP(function, type, expr)                                                 \
  extern "C" void function(void* inout, const void* in, int count) {               \
    apply<type>(inout, in, count, [](type a, type b) -> type { return expr; });    \
  }
ACL_OP(ACLMPL_op_add_int, int, a + b)
ACL_OP(ACLMPL_op_max_int, int, a < b ? b : a)
ACL_OP(ACLMPL_op_min_int, int, b < a ? b : a)
ACL_OP(ACLMPL_op_add_uint, uint, a + b)
ACL_OP(ACLMPL_op_max_uint, uint, a < b ? b : a)
ACL_OP(ACLMPL_op_min_uint, uint, b < a ? b : a)
ACL_OP(ACLMPL_op_add_long, long, a + b)
ACL_OP(ACLMPL_op_max_long, long, a < b ? b : a)
ACL_OP(ACLMPL_op_min_long, long, b < a ? b : a)
ACL_OP(ACLMPL_op_add_ulong, ulong, a + b)
ACL_OP(ACLMPL_op_max_ulong, ulong, a < b ? b : a)
ACL_OP(ACLMPL_op_min_ulong, ulong, b < a ? b : a)
ACL_OP(ACLMPL_op_add_float, float, a + b)
ACL_OP(ACLMPL_op_max_float, float, a < b ? b : a)
ACL_OP(ACLMPL_op_min_float, float, b < a ? b : a)
ACL_OP(ACLMPL_op_add_double, double, a + b)
ACL_OP(ACLMPL_op_max_double, double, a < b ? b : a)
ACL_OP(ACLMPL_op_min_double, double, b < a ? b : a)
ACL_OP(ACLMPL_op_ior_int, int, a | b)
ACL_OP(ACLMPL_op_and_int, int, a & b)
ACL_OP(ACLMPL_op_xor_int, int, a ^ b)
ACL_OP(ACLMPL_op_ior_uint, uint, a | b)
ACL_OP(ACLMPL_op_and_uint, uint, a & b)
ACL_OP(ACLMPL_op_xor_uint, uint, a ^ b)
ACL_OP(ACLMPL_op_ior_long, long, a | b)
ACL_OP(ACLMPL_op_and_long, long, a & b)
ACL_OP(ACLMPL_op_xor_long, long, a ^ b)
ACL_OP(ACLMPL_op_ior_ulong, ulong, a | b)
ACL_OP(ACLMPL_op_and_ulong, ulong, a & b)
ACL_OP(ACLMPL_op_xor_ulong, ulong, a ^ b)
#undef ACL_OP

namespace splitc::acl {
namespace {

const ACLMPL_op builtins[] = {
    ACLMPL_op_add_int,
    ACLMPL_op_max_int,
    ACLMPL_op_min_int,
    ACLMPL_op_add_uint,
    ACLMPL_op_max_uint,
    ACLMPL_op_min_uint,
    ACLMPL_op_add_long,
    ACLMPL_op_max_long,
    ACLMPL_op_min_long,
    ACLMPL_op_add_ulong,
    ACLMPL_op_max_ulong,
    ACLMPL_op_min_ulong,
    ACLMPL_op_add_float,
    ACLMPL_op_max_float,
    ACLMPL_op_min_float,
    ACLMPL_op_add_double,
    ACLMPL_op_max_double,
    ACLMPL_op_min_double,
    ACLMPL_op_ior_int,
    ACLMPL_op_and_int,
    ACLMPL_op_xor_int,
    ACLMPL_op_ior_uint,
    ACLMPL_op_and_uint,
    ACLMPL_op_xor_uint,
    ACLMPL_op_ior_long,
    ACLMPL_op_and_long,
    ACLMPL_op_xor_long,
    ACLMPL_op_ior_ulong,
    ACLMPL_op_and_ulong,
    ACLMPL_op_xor_ulong,
};

bool is_builtin(ACLMPL_op op) {
  return std::find(std::begin(builtins), std::end(builtins), op) != std::end(builtins);
}

}  // namespace
}  // namespace splitc::acl
