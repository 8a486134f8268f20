// Signalled puts (issue 42; OpenSHMEM 1.5's shmem_put_signal): a put of `len` bytes and then
// an update of a 64-bit signal word on the same processor -- set to a value or added to --
// such that a processor that sees the signal's new value (wait_until, splitc/memory_wait.hpp)
// sees the data. Blocking (put_signal: done at the target on return) and split-phase
// (put_signal_async: done once the counter is synced); the source may be reused once the call
// returns.
//
// Beside Split-C's store (`:-`, splitc::store): a store's receiver learns that bytes arrived
// by counting them -- store_sync(n) waits for n bytes from anyone, all_store_sync for every
// processor's -- and names no word; a signalled put names the word that tells its receiver,
// and the value, so a receiver can wait for one sender's data, or count senders, with
// wait_until on that word, and several streams into one processor stay apart.
//
// Paths: where the data and the signal word are local or mapped here (smp, the same-host
// layer, OpenSHMEM's mapped PEs), a copy, a release fence and the signal's atomic (the
// layer's own where it reaches the word); elsewhere one long message per piece of
// am_long_piece bytes, whose handler at the target applies the signal once every piece has
// landed there (then each piece is acknowledged), so a signalled put is one message and one
// acknowledgement for data up to a piece.
#pragma once

#include <splitc/atomic_operations.hpp>
#include <splitc/counter.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace splitc {

/// How a signalled put updates its signal word.
enum class signal_op : std::uint8_t { set, add };

namespace detail {

/// The message path (src/put_signal.cpp): `done` goes up by the pieces sent and down as each
/// is acknowledged, the last after the signal is applied.
void put_signal_am(context& c, proc_t p, void* dst, const void* src, std::size_t len,
                   std::uint64_t* signal, std::uint64_t value, signal_op op, counter& done);
[[gnu::cold, noreturn]] void bad_put_signal(context& c, proc_t data, proc_t signal,
                                            const char* what);

inline amo signal_amo(signal_op op) noexcept { return op == signal_op::set ? amo::store : amo::add; }

inline void put_signal_start(context& c, counter& done, global_ptr<void> dst, const void* src,
                             std::size_t len, global_ptr<std::uint64_t> signal,
                             std::uint64_t value, signal_op op, const char* what) {
  const proc_t p = dst.proc();
  if (signal.proc() != p) [[unlikely]] bad_put_signal(c, p, signal.proc(), what);
  void* to = nullptr;
  bool signal_here = true;
  if (p == c.myproc) {
    if (dst.address() == nullptr || signal.address() == nullptr) [[unlikely]] null_target(c, p, what);
    to = dst.address();
  } else {
    check_remote(c, p, dst.address(), what);
    check_remote(c, p, signal.address(), what);
    to = len == 0 ? dst.address() : direct(c, p, dst.address(), len);
    signal_here = direct(c, p, signal.address(), sizeof(std::uint64_t)) != nullptr;
  }
  if (to != nullptr && signal_here) {
    if (len != 0) std::memcpy(to, src, len);
    std::atomic_thread_fence(std::memory_order_release);  // the data before the signal
    std::uint64_t old = 0;
    (void)amo_here(c, signal, signal_amo(op), value, std::uint64_t{0}, old, what);
    return;
  }
  put_signal_am(c, p, dst.address(), src, len, signal.address(), value, op, done);
}

}  // namespace detail

/// Put `len` bytes from `src` to `dst`, then set the signal word to `value` or add `value` to
/// it (`op`); `dst` and `signal` on one processor. Returns once both are done at the target.
inline void put_signal(global_ptr<void> dst, const void* src, std::size_t len,
                       global_ptr<std::uint64_t> signal, std::uint64_t value, signal_op op) {
  auto& c = detail::ctx();
  counter done;
  detail::put_signal_start(c, done, dst, src, len, signal, value, op, "put_signal");
  detail::wait_until(c, "put_signal", [&] { return done.value() == 0; });
}

/// The same, split-phase: done (data and signal at the target) once `done` is synced; `src`
/// may be reused when the call returns.
inline void put_signal_async(counter& done, global_ptr<void> dst, const void* src,
                             std::size_t len, global_ptr<std::uint64_t> signal,
                             std::uint64_t value, signal_op op) {
  detail::put_signal_start(detail::ctx(), done, dst, src, len, signal, value, op,
                           "put_signal_async");
}

}  // namespace splitc
