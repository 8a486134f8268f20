// The cmaml port's collectives on the CM-5 control network (cmmd.h): the
// core's native reductions, scans and small broadcasts (PORTING.md,
// has_native_reduce) mapped to CMMD_reduce_*, CMMD_scan_* and
// CMMD_bc_to_nodes. CMMD combines 32-bit integers, floats and doubles in one
// operation; 64-bit integers take several (cmaml.hpp: control_reduces).
#include <splitc/backends/cmaml.hpp>

#include <cmmd.h>

#include <cstdint>
#include <cstring>

namespace splitc::backends::cm5 {
namespace {

template <class T>
T bits_as(am_word w) {
  T v;
  std::memcpy(&v, &w, sizeof v);
  return v;
}
template <class T>
am_word as_bits(T v) {
  am_word w = 0;
  std::memcpy(&w, &v, sizeof v);
  return w;
}

CMMD_combiner_t int_combiner(native_op op) {
  switch (op) {
    case native_op::add: return CMMD_combiner_add;
    case native_op::max: return CMMD_combiner_max;
    case native_op::min: return CMMD_combiner_min;
    case native_op::bit_or: return CMMD_combiner_ior;
    case native_op::bit_and: return CMMD_combiner_and;
    case native_op::bit_xor: return CMMD_combiner_xor;
  }
  return CMMD_combiner_add;
}
CMMD_combiner_t uint_combiner(native_op op) {
  switch (op) {
    case native_op::add: return CMMD_combiner_uadd;
    case native_op::max: return CMMD_combiner_umax;
    case native_op::min: return CMMD_combiner_umin;
    default: return int_combiner(op);
  }
}
CMMD_combiner_t float_combiner(native_op op) {
  return op == native_op::add ? CMMD_combiner_fadd : int_combiner(op);
}
CMMD_combiner_t double_combiner(native_op op) {
  switch (op) {
    case native_op::add: return CMMD_combiner_dadd;
    case native_op::max: return CMMD_combiner_dmax;
    case native_op::min: return CMMD_combiner_dmin;
    default: return CMMD_combiner_dadd;
  }
}

/// One CMMD operation on an unsigned 32-bit word: a reduction or a scan.
std::uint32_t combine_uint(native_collective what, std::uint32_t v, CMMD_combiner_t c) {
  if (what == native_collective::reduce_to_all) return CMMD_reduce_uint(v, c);
  return CMMD_scan_uint(v, c, CMMD_upward, CMMD_none, 0, what == native_collective::scan);
}

/// 64-bit integers, in 32-bit operations.
std::uint64_t combine_64(native_collective what, bool is_signed, native_op op, std::uint64_t v) {
  if (op == native_op::add) {
    // Four 16-bit limbs: each sum fits 32 bits for up to 65536 processors, and
    // the carries are added back here (wrapping, as the core's add does).
    std::uint64_t sum = 0;
    for (int k = 0; k < 4; ++k) {
      const auto limb = static_cast<std::uint32_t>((v >> (16 * k)) & 0xffffu);
      sum += static_cast<std::uint64_t>(combine_uint(what, limb, CMMD_combiner_uadd)) << (16 * k);
    }
    return sum;
  }
  const auto hi = static_cast<std::uint32_t>(v >> 32), lo = static_cast<std::uint32_t>(v);
  if (op == native_op::bit_or || op == native_op::bit_and || op == native_op::bit_xor) {
    const CMMD_combiner_t c = int_combiner(op);
    return static_cast<std::uint64_t>(combine_uint(what, hi, c)) << 32 | combine_uint(what, lo, c);
  }
  // max / min (reductions only): the extreme high half, then the extreme low
  // half among the processors that have it.
  const bool is_max = op == native_op::max;
  std::uint32_t top;
  if (is_signed)
    top = static_cast<std::uint32_t>(
        CMMD_reduce_int(static_cast<int>(hi), is_max ? CMMD_combiner_max : CMMD_combiner_min));
  else
    top = CMMD_reduce_uint(hi, is_max ? CMMD_combiner_umax : CMMD_combiner_umin);
  const std::uint32_t neutral = is_max ? 0u : 0xffffffffu;
  const std::uint32_t low = CMMD_reduce_uint(hi == top ? lo : neutral,
                                             is_max ? CMMD_combiner_umax : CMMD_combiner_umin);
  return static_cast<std::uint64_t>(top) << 32 | low;
}

}  // namespace

am_word cmaml_layer::control_combine(native_collective what, native_element e, native_op op,
                                     am_word value) {
  const bool reduce = what == native_collective::reduce_to_all;
  const int inclusive = what == native_collective::scan;
  switch (e) {
    case native_element::int32: {
      const int v = bits_as<int>(value);
      return as_bits(reduce ? CMMD_reduce_int(v, int_combiner(op))
                            : CMMD_scan_int(v, int_combiner(op), CMMD_upward, CMMD_none, 0, inclusive));
    }
    case native_element::uint32:
      return as_bits(combine_uint(what, bits_as<unsigned>(value), uint_combiner(op)));
    case native_element::float32: {
      const float v = bits_as<float>(value);
      return as_bits(reduce ? CMMD_reduce_float(v, float_combiner(op))
                            : CMMD_scan_float(v, float_combiner(op), CMMD_upward, CMMD_none, 0, inclusive));
    }
    case native_element::float64: {
      const double v = bits_as<double>(value);
      return as_bits(reduce ? CMMD_reduce_double(v, double_combiner(op))
                            : CMMD_scan_double(v, double_combiner(op), CMMD_upward, CMMD_none, 0, inclusive));
    }
    case native_element::int64:
    case native_element::uint64:
      return combine_64(what, e == native_element::int64, op, value);
  }
  return value;
}

void cmaml_layer::control_broadcast(void* data, int len, bool is_root) {
  if (is_root)
    CMMD_bc_to_nodes(data, len);
  else
    CMMD_receive_bc_from_node(data, len);
}

}  // namespace splitc::backends::cm5
