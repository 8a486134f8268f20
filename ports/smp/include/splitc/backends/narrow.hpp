// The narrow backends: smp's shared-memory transport seen through the
// boundary of layers unlike it, so that the core's reference implementations
// and optional members run under the whole test suite on this machine.
//
//   am4       a CM-5-shaped active-message layer: a handler plus four argument
//             words, no medium or long messages, no direct access, and delivery
//             that is not in send order (each poll delivers what arrived in a
//             shuffled order). Everything larger is composed by the core.
//   onesided  a SHMEM-shaped layer: one-sided put and get into the symmetric
//             segment (the RMA members), atomics of its own there (the native
//             atomic members), small medium messages (256 bytes), no long
//             messages, no direct access.
//
// They are test vehicles, not ports: each forwards to an smp_backend and
// withholds or adds members.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/cpu_atomic.hpp>
#include <splitc/backends/smp.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace splitc::backends::narrow {

/// What the two backends share: identity, short messages, barrier, segment.
class narrow_base {
 public:
  explicit narrow_base(start_arguments args) : smp_(args) {}

  proc_t myproc() const noexcept { return smp_.myproc(); }
  proc_t procs() const noexcept { return smp_.procs(); }
  am_status request_short(proc_t p, handler_id h, const am_word* a, int n) {
    return smp_.request_short(p, h, a, n);
  }
  am_status reply_short(const am_message& t, handler_id h, const am_word* a, int n) {
    return smp_.reply_short(t, h, a, n);
  }
  void bootstrap_barrier(am_sink sink) { smp_.bootstrap_barrier(sink); }
  segment_info segment() const noexcept { return smp_.segment(); }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code) { smp_.finish(code); }

 protected:
  smp::smp_backend smp_;
};

/// Four words, short messages only, unordered delivery.
class am4_backend : public narrow_base {
 public:
  static constexpr const char* name = "am4";
  static constexpr capabilities caps{
      .max_args = 4,
      .max_medium = 0,
      .max_long = 0,
      .ordered = false,
      .direct_access = false,
  };
  explicit am4_backend(start_arguments args)
      : narrow_base(args), shuffle_(0x5eed0000u + static_cast<unsigned>(myproc())) {}

  /// Drain what has arrived, then deliver it in a shuffled order.
  int poll(am_sink sink);

 private:
  struct held {
    am_message message;
    am_word args[am_max_args];
  };
  static void hold(void* self, const am_message& m);
  std::vector<held> arrived_;
  std::minstd_rand shuffle_;
};

/// One-sided put and get, small medium messages.
class onesided_backend : public narrow_base {
 public:
  static constexpr const char* name = "onesided";
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = 256,
      .max_long = 0,
      .ordered = true,
      .direct_access = false,
  };
  using narrow_base::narrow_base;

  am_status request_medium(proc_t p, handler_id h, const am_word* a, int n, const void* src,
                           std::size_t len) {
    return smp_.request_medium(p, h, a, n, src, len);
  }
  am_status reply_medium(const am_message& t, handler_id h, const am_word* a, int n,
                         const void* src, std::size_t len) {
    return smp_.reply_medium(t, h, a, n, src, len);
  }
  int poll(am_sink sink) { return smp_.poll(sink); }

  // RMA: the segment of every processor is mapped here (smp's cross mapping);
  // a transfer completes within the call.
  bool rma_reaches(proc_t p, const void* addr, std::size_t len) const noexcept {
    return smp_.direct_address(p, addr) != nullptr &&
           (len <= 1 || smp_.direct_address(p, static_cast<const char*>(addr) + len - 1) != nullptr);
  }
  am_status rma_put(proc_t p, void* dst, const void* src, std::size_t len, counter& done) {
    std::memcpy(smp_.direct_address(p, dst), src, len);
    done.add_local(-1);
    ++rma_operations_;
    return am_status::ok;
  }
  am_status rma_get(void* dst, proc_t p, const void* src, std::size_t len, counter& done) {
    std::memcpy(dst, smp_.direct_address(p, src), len);
    done.add_local(-1);
    ++rma_operations_;
    return am_status::ok;
  }
  /// One-sided operations so far (tests check that gets and puts took this path).
  std::size_t rma_operations() const noexcept { return rma_operations_; }

  // Native atomics on the segment (has_native_atomics): CPU atomics through
  // smp's cross mapping, standing in for a layer's (shmem_atomic_*) -- a layer
  // with the three required operations alone (no native_atomic_ops), so that
  // the core's compositions (load, store, and, or, xor, min, max, floating-point
  // add) are tested here; the shmem backend declares the rest.
  bool native_atomic_reaches(proc_t p, const void* addr, std::size_t size) const noexcept {
    return (size == 4 || size == 8) && reinterpret_cast<std::uintptr_t>(addr) % size == 0 &&
           rma_reaches(p, addr, size);
  }
  std::uint64_t native_atomic(proc_t p, void* target, native_atomic_op op, std::size_t size,
                              std::uint64_t operand, std::uint64_t desired) {
    ++native_atomic_operations_;
    void* word = smp_.direct_address(p, target);
    return size == 4 ? port::apply_atomic(static_cast<std::uint32_t*>(word), op,
                                            static_cast<std::uint32_t>(operand),
                                            static_cast<std::uint32_t>(desired))
                     : port::apply_atomic(static_cast<std::uint64_t*>(word), op, operand,
                                            desired);
  }
  /// Native atomics so far (tests check that atomics took this path).
  std::size_t native_atomic_operations() const noexcept { return native_atomic_operations_; }

 private:
  std::size_t rma_operations_ = 0;
  std::size_t native_atomic_operations_ = 0;
};

static_assert(backend<am4_backend> && !has_medium_messages<am4_backend> &&
              !has_long_messages<am4_backend> && !has_rma<am4_backend> &&
              !has_native_atomics<am4_backend>);
static_assert(backend<onesided_backend> && has_medium_messages<onesided_backend> &&
              !has_long_messages<onesided_backend> && has_rma<onesided_backend> &&
              has_native_atomics<onesided_backend>);

}  // namespace splitc::backends::narrow
