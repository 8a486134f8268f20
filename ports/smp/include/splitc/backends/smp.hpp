// The smp backend: P processes on one host.
//
// One memfd per job (made by the launcher, inherited by every process) holds
// a control area (job header, barrier flags, the
// message rings) and one segment per processor. Each process maps its own
// segment at the same fixed virtual address (so the spread heap is
// symmetric) and the whole array of segments right after it, so the object
// at local address `a` on processor q is at `a + (q + 1) * segment_size`:
// a remote access to the spread heap is a load or store plus one add.
// memfd memory does not count against /dev/shm.
//
// Active messages travel over lock-free rings (port/shm_ring.hpp, records
// written and read by port/ring_messages.hpp), one per ordered pair and
// network; they serve every target outside the segments and every operation
// that needs the owner to act. With SPLITC_SMP_ONE_COPY_MIN set, a long message of at
// least that many bytes into a peer's memory outside the segments (malloc'd, static) is
// written into place by the kernel (port/cross_memory.hpp: one copy, where the ring makes
// two) and only its notification travels on the ring (off by default: slower here). A
// collective's long stream is read by its receiver straight from the sender's memory into
// its destination (peer_read: one copy, where staging makes two), from
// SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN bytes (8 KiB by default: every staged piece).
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>
#include <splitc/port/cross_memory.hpp>
#include <splitc/port/ring_messages.hpp>
#include <splitc/port/segment.hpp>

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace splitc::backends::smp {

using port::ring_consumer;
using port::ring_producer;
using port::cell_bytes;
using port::ring_shared;
using port::record_long;
using port::record_medium;
using port::record_short;

/// Layout of the job's shared memory; computed identically by every process.
struct job_layout {
  int procs = 1;
  std::size_t segment_size = 0;
  std::size_t ring_bytes = 0;

  static constexpr std::size_t header_bytes = 4096;

  std::size_t barrier_offset() const noexcept { return header_bytes; }
  /// Each process's pid (pid_t), written by itself at start-up (cross-memory copies).
  std::size_t pids_offset() const noexcept {
    return barrier_offset() + 64 * static_cast<std::size_t>(procs + 1);
  }
  std::size_t rings_offset() const noexcept {
    return round_up(pids_offset() + sizeof(pid_t) * static_cast<std::size_t>(procs), 4096);
  }
  std::size_t ring_stride() const noexcept { return sizeof(ring_shared) + ring_bytes; }
  /// network 0 carries requests, 1 replies.
  std::size_t ring_offset(int network, int from, int to) const noexcept {
    const auto index = (static_cast<std::size_t>(network) * procs + to) * procs + from;
    return rings_offset() + index * ring_stride();
  }
  std::size_t control_bytes() const noexcept {
    return round_up(rings_offset() + 2 * static_cast<std::size_t>(procs) * procs * ring_stride(),
                    1 << 21);
  }
  std::size_t segment_offset(int proc) const noexcept {
    return control_bytes() + static_cast<std::size_t>(proc) * segment_size;
  }
  std::size_t total_bytes() const noexcept { return segment_offset(procs); }

  static constexpr std::size_t round_up(std::size_t n, std::size_t to) noexcept {
    return (n + to - 1) / to * to;
  }
};

/// The first bytes of the job's memfd.
struct job_header {
  std::uint64_t magic;
  std::uint64_t version;
  std::uint64_t procs;
  std::uint64_t segment_size;
  std::uint64_t ring_bytes;
  std::uint64_t segment_base;
};
inline constexpr std::uint64_t job_magic = 0x73706c6974632d31ULL;  // "splitc-1"

/// Create the shared memory of a job of `procs` processes; returns the memfd.
/// Reads SPLITC_SEGMENT_SIZE, SPLITC_SMP_RING_BYTES and SPLITC_SEGMENT_BASE.
int create_job_memory(int procs);

class smp_backend : public port::am_forwarding<smp_backend> {
 public:
  static constexpr const char* name = "smp";
  static constexpr std::size_t max_payload = 128 * 1024;
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = max_payload,
      .max_long = max_payload,
      .ordered = true,
      .direct_access = true,
  };

  explicit smp_backend(start_arguments args);
  smp_backend(const smp_backend&) = delete;
  smp_backend& operator=(const smp_backend&) = delete;
  ~smp_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from this send (the kind and
  // direction are constants there, so each folds to its ring's send).
  [[gnu::always_inline]] am_status send(proc_t p, bool is_request, am_kind kind, handler_id h,
                                        const am_word* a, int n, const void* src,
                                        std::size_t len, void* dst) {
    ring_producer& ring = is_request ? requests_[p] : replies_[p];
    switch (kind) {
      case am_kind::short_msg: return send(ring, h, a, n, record_short, nullptr, 0, nullptr);
      case am_kind::medium_msg: return send(ring, h, a, n, record_medium, src, len, nullptr);
      case am_kind::long_msg: break;
    }
    return send_long(ring, (is_request ? request_copies_through_ : reply_copies_through_)[static_cast<std::size_t>(p)],
                     p,
                     h, a, n, src, len, dst);
  }

  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);

  segment_info segment() const noexcept {
    return {reinterpret_cast<void*>(segment_base_), segment_size_};
  }

  void* direct_address(proc_t p, const void* local) const noexcept {
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(local) - segment_base_;
    if (offset >= segment_size_) return nullptr;
    return reinterpret_cast<void*>(segment_base_ + (static_cast<std::uintptr_t>(p) + 1) * segment_size_ +
                                   offset);
  }
  /// direct_address of the range [local, local + len), with one range check (has_direct_range).
  /// Always inlined, as the core's direct_in is.
  [[gnu::always_inline]] void* direct_range(proc_t p, const void* local, std::size_t len) const noexcept {
    std::uintptr_t offset;
    if (!port::range_in_segment(segment_base_, segment_size_, local, len, offset)) return nullptr;
    return reinterpret_cast<void*>(segment_base_ + (static_cast<std::uintptr_t>(p) + 1) * segment_size_ +
                                   offset);
  }

  void finish(int code);

  /// Bytes long messages carried by one cross-memory copy so far (tests check the path).
  std::size_t one_copy_bytes() const noexcept { return cross_memory_.bytes_written(); }
  /// The smallest long message that goes by one cross-memory copy (SPLITC_SMP_ONE_COPY_MIN;
  /// SIZE_MAX: none does).
  std::size_t one_copy_min_bytes() const noexcept { return one_copy_min_; }

  /// A collective's piece read from processor p's memory (has_peer_read).
  bool peer_read(proc_t p, const void* src, void* dst, std::size_t len) noexcept {
    return p != myproc_ && cross_memory_.read(__atomic_load_n(&pids_[p], __ATOMIC_ACQUIRE), src, len, dst);
  }
  /// SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN; 0 once the kernel has refused a cross-memory copy.
  std::size_t peer_read_min(proc_t) const noexcept { return cross_memory_.usable() ? peer_read_min_ : 0; }
  /// Bytes collectives' receivers read from their senders' memory so far (tests check the path).
  std::size_t peer_read_bytes() const noexcept { return cross_memory_.bytes_read(); }

 private:
  [[gnu::always_inline]] am_status send(ring_producer& ring, handler_id h, const am_word* a, int n,
                                        std::uint8_t kind, const void* src, std::size_t len,
                                        void* dst) {
    return port::ring_send(ring, h, a, n, kind, src, len, dst);
  }

  // A long message into a peer's segment is copied straight to its mapped
  // destination; only the notification travels through the ring. So is a large one into
  // its other memory, by the kernel (one_copy).
  // `copied_through`: where the last long message to p on this ring whose payload the ring
  // carries ends; a copy by the kernel goes only once the receiver has taken it, lest that
  // earlier payload land later.
  am_status send_long(ring_producer& ring, std::uint64_t& copied_through, proc_t p, handler_id h,
                      const am_word* a, int n, const void* src, std::size_t len, void* dst) {
    if (void* mapped = direct_address(p, dst); mapped != nullptr && len != 0 &&
                                               direct_address(p, static_cast<char*>(dst) + len - 1))
      return port::ring_send_in_place(ring, h, a, n, src, len, dst, mapped);
    if (len >= one_copy_min_ && one_copy(ring, copied_through, p, src, len, dst))
      return port::ring_send_in_place(ring, h, a, n, src, len, dst, nullptr);
    const am_status s = send(ring, h, a, n, record_long, src, len, dst);
    if (s == am_status::ok) copied_through = ring.position();
    return s;
  }
  /// The payload written into p's memory at dst by the kernel; false if not (the ring then
  /// carries it).
  bool one_copy(ring_producer& ring, std::uint64_t copied_through, proc_t p, const void* src,
                std::size_t len, void* dst);

  void wait_flag(const std::atomic<std::uint64_t>& flag, std::uint64_t at_least, am_sink sink);

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  int fd_ = -1;
  job_layout layout_;
  unsigned char* control_ = nullptr;
  std::uintptr_t segment_base_ = 0;
  std::size_t segment_size_ = 0;
  std::vector<ring_producer> requests_, replies_;          // indexed by destination
  std::vector<ring_consumer> in_requests_, in_replies_;    // indexed by source
  std::vector<std::uint64_t> request_copies_through_, reply_copies_through_;  // by destination
  const pid_t* pids_ = nullptr;  ///< in the control area, by processor
  port::cross_memory cross_memory_;
  std::size_t one_copy_min_ = SIZE_MAX;  ///< SPLITC_SMP_ONE_COPY_MIN (0 there: SIZE_MAX)
  std::size_t peer_read_min_ = 0;        ///< SPLITC_SMP_COLLECTIVE_ONE_COPY_MIN
  std::uint64_t barrier_epoch_ = 0;
};

}  // namespace splitc::backends::smp
