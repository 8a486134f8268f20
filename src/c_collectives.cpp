// The C interface (splitc.h), part 2: the seed's named collectives, each an
// instance of the C++ templates in collectives.hpp (the reductions and scans through
// c_reductions.hpp: one instance per element size).
#include <splitc.h>

#include <splitc/collectives.hpp>

#include "c_reductions.hpp"

namespace {
namespace ops = splitc::ops;
namespace cr = splitc::c_reductions;
using kind = splitc::detail::collective_kind;

/// The world's group for a reduction or scan of the C++ call `what`, with its typed signature.
template <kind K, class T, class Op>
splitc::detail::collective_group world(const char* what) {
  return splitc::detail::world_group(what, cr::signature<K, T, Op>);
}
}  // namespace

// The reductions and scans: one instance of each algorithm per element size (c_reductions.hpp).
#define SPLITC_DEFINE_(NAME, T, OP)                                                      \
  T all_reduce_to_one_##NAME(T val) {                                                    \
    cr::reduce_to_one<T, OP>(world<kind::reduce_to_one, T, OP>("reduce_to_one"), &val, 1); \
    return val;                                                                          \
  }                                                                                      \
  T all_reduce_to_all_##NAME(T val) {                                                    \
    cr::reduce_to_all<T, OP>(world<kind::reduce_to_all, T, OP>("reduce_to_all"), &val, 1); \
    return val;                                                                          \
  }                                                                                      \
  T all_scan_##NAME(T val) {                                                             \
    cr::scan<T, OP>(world<kind::scan, T, OP>("scan"), &val, 1);                          \
    return val;                                                                          \
  }

extern "C" {

SPLITC_DEFINE_(add, int, ops::add)
SPLITC_DEFINE_(uadd, unsigned, ops::add)
SPLITC_DEFINE_(fadd, float, ops::add)
SPLITC_DEFINE_(dadd, double, ops::add)
SPLITC_DEFINE_(lladd, long long, ops::add)
SPLITC_DEFINE_(mult, int, ops::mult)
SPLITC_DEFINE_(umult, unsigned, ops::mult)
SPLITC_DEFINE_(fmult, float, ops::mult)
SPLITC_DEFINE_(dmult, double, ops::mult)
SPLITC_DEFINE_(llmult, long long, ops::mult)
SPLITC_DEFINE_(max, int, ops::max)
SPLITC_DEFINE_(umax, unsigned, ops::max)
SPLITC_DEFINE_(fmax, float, ops::max)
SPLITC_DEFINE_(dmax, double, ops::max)
SPLITC_DEFINE_(llmax, long long, ops::max)
SPLITC_DEFINE_(min, int, ops::min)
SPLITC_DEFINE_(umin, unsigned, ops::min)
SPLITC_DEFINE_(fmin, float, ops::min)
SPLITC_DEFINE_(dmin, double, ops::min)
SPLITC_DEFINE_(llmin, long long, ops::min)
SPLITC_DEFINE_(or, int, ops::bit_or)
SPLITC_DEFINE_(uor, unsigned, ops::bit_or)
SPLITC_DEFINE_(llor, long long, ops::bit_or)
SPLITC_DEFINE_(xor, int, ops::bit_xor)
SPLITC_DEFINE_(uxor, unsigned, ops::bit_xor)
SPLITC_DEFINE_(llxor, long long, ops::bit_xor)
SPLITC_DEFINE_(and, int, ops::bit_and)
SPLITC_DEFINE_(uand, unsigned, ops::bit_and)
SPLITC_DEFINE_(lland, long long, ops::bit_and)

// The seed's typos, as aliases of what they meant.
float all_reduce_to_one_fmull(float val) { return all_reduce_to_one_fmult(val); }
float all_reduce_to_all_fmull(float val) { return all_reduce_to_all_fmult(val); }
float all_scan_fmull(float val) { return all_scan_fmult(val); }
unsigned int all_scan_ymax(unsigned int val) { return all_scan_umax(val); }

int all_bcast(int val) { return splitc::broadcast(val, 0); }
int all_bcast_i(int val) { return splitc::broadcast(val, 0); }
unsigned int all_bcast_u(unsigned int val) { return splitc::broadcast(val, 0); }
float all_bcast_f(float val) { return splitc::broadcast(val, 0); }
double all_bcast_d(double val) { return splitc::broadcast(val, 0); }
long long all_bcast_ll(long long val) { return splitc::broadcast(val, 0); }

}  // extern "C"
