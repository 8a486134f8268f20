// The C interface (splitc.h) to signalled puts (splitc/put_signal.hpp): splitc_put_signal and
// splitc_put_signal_ctr, the operation as SPLITC_SIGNAL_SET or SPLITC_SIGNAL_ADD.
#include <splitc.h>

#include "c_arguments.hpp"

#include <splitc/put_signal.hpp>

namespace {

splitc::signal_op signal_op_of(int op, const char* what) {
  if (op != SPLITC_SIGNAL_SET && op != SPLITC_SIGNAL_ADD) [[unlikely]]
    splitc::detail::fail("{}: the signal operation {} is neither SPLITC_SIGNAL_SET nor "
                         "SPLITC_SIGNAL_ADD",
                         what, op);
  return op == SPLITC_SIGNAL_SET ? splitc::signal_op::set : splitc::signal_op::add;
}
splitc::global_ptr<std::uint64_t> signal_word(__globPtrType g) {
  return {g.proc, static_cast<std::uint64_t*>(g.addr)};
}

}  // namespace

extern "C" void splitc_put_signal(__globPtrType dst, const void* src, size_t n,
                                  __globPtrType signal, uint64_t value, int sig_op) {
  splitc::put_signal({dst.proc, dst.addr}, src, n, signal_word(signal), value,
                     signal_op_of(sig_op, "splitc_put_signal"));
}

extern "C" void splitc_put_signal_ctr(__globPtrType dst, const void* src, size_t n,
                                      __globPtrType signal, uint64_t value, int sig_op,
                                      splitc_counter_t* ctr) {
  splitc::counter& done = splitc::c_arguments::or_library(splitc::detail::ctx(), ctr);
  splitc::put_signal_async(done, {dst.proc, dst.addr}, src, n, signal_word(signal), value,
                           signal_op_of(sig_op, "splitc_put_signal_ctr"));
}
