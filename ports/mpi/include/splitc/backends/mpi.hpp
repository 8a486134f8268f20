// The mpi backend: splitc wherever MPI runs (Open MPI, MPICH; mpirun,
// mpiexec, srun, or `splitc-run --backend mpi`).
//
// MPI has no active messages, so this backend builds a small active-message
// layer on it, as the Libsplit-C report's NXAM did on the Paragon's NX
// (Luna 1994 §4.1.3, Appendix B for the SP-1's MPL):
//
//  * One kind of receive. Every process keeps a ring of receives pre-posted
//    from MPI_ANY_SOURCE, any tag, into fixed packet buffers. Receives that
//    match the same messages are matched in posting order, so poll() only
//    tests the oldest: one MPI_Test per idle poll. A completed packet holds
//    the handler index, kind, argument words and (for small payloads) the
//    payload; it is delivered to the core inside poll() and the buffer is
//    re-posted. A short message whose header fits in the MPI tag travels
//    as its argument words alone (a compact packet: an 8-byte message for
//    one word, where MPI is fastest). The ring is small (a few receives:
//    their requests and buffers stay in the cache); packets beyond it wait
//    in MPI as unexpected messages, and a send that must wait grows it.
//  * Credits. Each sender may have `credits` packets outstanding to a
//    receiver (at most (P-1)*(2*credits+reserve) packets in flight to it,
//    the largest the ring grows to). Consumed
//    credits travel back piggy-backed on any packet to the sender, or in an
//    explicit credit packet once half are owed. A sender without credit says
//    am_status::no_resource; the core queues and retries.
//  * Long messages without an extra copy (§4.2.3). Above the packet size the
//    header goes first and the data follows on a second communicator; the
//    receiver's poll posts the data receive *at the destination address*
//    as soon as it sees the header, so MPI delivers the data in place. Into
//    a peer's segment, large payloads may instead go by MPI_Put on an MPI-3
//    window over the segments, flushed before the header is sent. The
//    thresholds are measured (docs/mpi.md) and can be changed per process.
//  * No blocking MPI collectives (§4.3.3). The core's collectives run on
//    these active messages; the backend's own barrier (start-up, shut-down)
//    is a dissemination barrier of backend packets, so a process waiting in
//    it keeps serving requests (MPI_Ibarrier polled was 4.5x slower and went:
//    docs/mpi.md).
//  * Same host, no MPI (port/same_host.hpp). The segment is shared memory;
//    processes on one host map each other's, and direct_address gives the
//    core their load/store path. Messages between them go over the kit's
//    rings in that shared memory, as udp's do (SPLITC_SAME_HOST_MESSAGES=0:
//    over MPI's own shared-memory transport); poll looks at the rings first
//    and, while they deliver, calls MPI_Test on every 16th poll only
//    (docs/same_host.md).
//
// The backend works on its own duplicate of MPI_COMM_WORLD, so the program
// may make its own MPI calls between splitc operations (rules in
// ports/mpi/README.md). It initialises MPI unless the program already
// did, and finalises it only if it initialised it.
#pragma once

// This header does not include <mpi.h> (the MPI state is private to the
// backend's sources), so a program built against the backend needs MPI's
// libraries but not its headers, unless it makes MPI calls itself.
#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>
#include <splitc/port/launcher_check.hpp>
#include <splitc/port/same_host.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#ifndef SPLITC_MPI_MAX_LONG
/// Largest long payload in one message (the core's fragment size for bulk
/// transfers). Measured: see docs/mpi.md.
#define SPLITC_MPI_MAX_LONG (std::size_t{4} << 20)
#endif

namespace splitc::backends::mpi {

namespace wire {
struct packet_header;
}

/// How a long payload travels (chosen per message by size and destination).
enum class long_protocol : std::uint8_t {
  automatic,   ///< by the thresholds in `tuning`
  inline_copy, ///< inside the packet when it fits, otherwise `staged`
  staged,      ///< copied to a staging buffer, sent asynchronously (one extra copy at the sender)
  rendezvous,  ///< data sent from the source as it is, received at the destination (no copy)
  rma,         ///< MPI_Put into the peer's segment + flush (destinations in the segment only)
  same_host,   ///< memcpy into the peer's segment through the same-host mapping (automatic's
               ///< choice for a peer on this host; docs/mpi.md)
};

/// The largest packet sent by a blocking MPI_Send (tuning::blocking_send_max).
inline constexpr std::size_t small_packet_max = 512;

/// Run-time tunables, read from the environment at start-up
/// (SPLITC_MPI_* variables, ports/mpi/README.md); a benchmark may change
/// them between phases on every process alike.
struct tuning {
  std::size_t packet_bytes = 4032;  ///< size of a pre-posted receive buffer (<= MPI eager limit)
  int credits = 32;                 ///< packets in flight per (sender, receiver) pair
  int reserve = 4;                  ///< extra buffers per peer for credit and barrier packets
  /// Receives kept posted (rounded up to a power of two; 0: one for every
  /// packet that can be in flight, (P-1)*(2*credits+reserve)). Packets
  /// beyond them wait in MPI as unexpected messages (the credits still bound
  /// them); a small ring keeps its requests and buffers in the cache
  /// (docs/mpi.md). It grows, up to that bound, when a send that waits finds
  /// it full of packets not yet delivered. Read at start-up only.
  int ring = 4;
  long_protocol long_mode = long_protocol::automatic;
  std::size_t rendezvous_min = 0;   ///< automatic: longs from this size by rendezvous, below staged
  /// A long request to a peer on this host whose destination is not in the peer's segment
  /// goes in pieces through the same-host rings (two copies) below this size, and by MPI
  /// (Open MPI's vader: one copy) from it (SPLITC_MPI_HOST_RING_LONG_MAX; SIZE_MAX, the
  /// default: always the rings); a long reply likewise below host_ring_reply_max
  /// (SPLITC_MPI_HOST_RING_REPLY_MAX; SIZE_MAX, the default: a reply that finds the ring
  /// full waits in the core's queue with its source lent). Measured, docs/mpi.md.
  std::size_t host_ring_long_max = SIZE_MAX;
  std::size_t host_ring_reply_max = SIZE_MAX;
  std::size_t rma_min = 0;          ///< automatic: longs into a peer's segment from this size by RMA (0: never)
  std::size_t stage_limit = 64 << 20;  ///< bytes of staged sends in flight, at most
  /// Packets up to this size (at most small_packet_max) go by a blocking
  /// MPI_Send (small, eager: it returns at once and needs no request);
  /// larger ones by MPI_Isend. 0: always MPI_Isend. Measured in docs/mpi.md.
  std::size_t blocking_send_max = 256;
  /// Short messages whose header fits in an MPI tag travel as their
  /// argument words alone (docs/mpi.md "Compact packets"); off when the
  /// MPI's MPI_TAG_UB is too small (2^25-1 needed; then it must stay off).
  /// Otherwise any process may change it at any time: receivers take both
  /// forms.
  bool compact = true;
};

/// Counters for tests and reports.
struct statistics {
  std::uint64_t packets_sent = 0, packets_received = 0;
  std::uint64_t inline_longs = 0, staged = 0, rendezvous = 0, rma_puts = 0;
  std::uint64_t same_host_copies = 0;  ///< long payloads copied into a same-host peer's segment
  std::uint64_t no_credit = 0, no_buffer = 0, credit_packets = 0;
  std::uint64_t send_waits = 0;  ///< rendezvous sends that had to wait for the receiver
  std::uint64_t sends_lent = 0;  ///< rendezvous sends from a lent source (zero copy): no wait
  std::uint64_t sends_tracked = 0;  ///< MPI sends not complete at once (reclaimed later)
  std::uint64_t ring_grown = 0;  ///< times a waiting send found the ring full and doubled it
  std::uint64_t compact_sent = 0;  ///< packets sent as argument words, header in the tag
  std::uint64_t native_atomics = 0;  ///< atomics applied by MPI_Fetch_and_op / MPI_Compare_and_swap
  std::uint64_t host_ring_messages = 0;  ///< messages sent over this host's rings, not MPI
};

class mpi_backend : public port::am_forwarding<mpi_backend> {
 public:
  friend class port::am_forwarding<mpi_backend>;
#if defined(SPLITC_BACKEND_MPICH)
  static constexpr const char* name = "mpich";
  // splitc-run-mpich runs MPICH's Hydra; a plain mpiexec.mpich or srun may start it too.
  static constexpr unsigned foreign_launchers = port::pmi | port::slurm;
#else
  static constexpr const char* name = "mpi";
  // splitc-run-mpi runs Open MPI's mpirun; a plain mpirun or srun may start it too.
  static constexpr unsigned foreign_launchers = port::open_mpi | port::slurm;
#endif
  static constexpr std::size_t max_medium_bytes = 128 * 1024;
  static constexpr std::size_t max_long_bytes = SPLITC_MPI_MAX_LONG;
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = max_medium_bytes,
      .max_long = max_long_bytes,
      // MPI's receives are non-overtaking, but a peer on this host gets messages over the
      // same-host rings and a medium one over a quarter of a ring by MPI: no order between them.
      .ordered = false,
      .direct_access = true,  // peers on this host (port/same_host.hpp); nullptr for the others
  };

  explicit mpi_backend(start_arguments args);
  mpi_backend(const mpi_backend&) = delete;
  mpi_backend& operator=(const mpi_backend&) = delete;
  ~mpi_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send and send_short.

  // ---- zero-copy long messages (PORTING.md 1.1, has_zero_copy_long) ----------------
  // A payload that goes by rendezvous is sent from `src` as it is and counted free
  // by the poll that sees its MPI send complete, instead of waiting for the
  // receiver inside the call (a handler's bulk_get reply waited there before).
  am_status request_long_zero_copy(proc_t p, handler_id h, const am_word* a, int n,
                                   const void* src, std::size_t len, void* dst,
                                   counter& source_free) {
    return send_zero_copy(p, true, h, a, n, src, len, dst, source_free);
  }
  am_status reply_long_zero_copy(const am_message& t, handler_id h, const am_word* a, int n,
                                 const void* src, std::size_t len, void* dst,
                                 counter& source_free) {
    return send_zero_copy(t.source, false, h, a, n, src, len, dst, source_free);
  }

  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);

  segment_info segment() const noexcept {
    return {reinterpret_cast<void*>(segment_base_), segment_size_};
  }
  void* direct_address(proc_t p, const void* local) const noexcept {
    return same_host_.address(p, local);
  }
  /// direct_address of the range [local, local + len), with one range check (has_direct_range).
  [[gnu::always_inline]] void* direct_range(proc_t p, const void* local,
                                            std::size_t len) const noexcept {
    return same_host_.range(p, local, len);
  }
  std::span<const proc_t> host_members() const noexcept { return same_host_.members(); }
  /// A collective's long piece read from a peer of this host's memory (has_peer_read: the
  /// same-host layer's one copy, SPLITC_SAME_HOST_COLLECTIVE_ONE_COPY_MIN; 0 for other hosts).
  bool peer_read(proc_t p, const void* src, void* dst, std::size_t len) noexcept {
    return same_host_.peer_read(p, src, dst, len);
  }
  std::size_t peer_read_min(proc_t p) const noexcept { return same_host_.peer_read_min(p); }
  /// Bytes collectives' receivers read from their senders' memory so far (tests check the path).
  std::size_t peer_read_bytes() const noexcept { return same_host_.peer_read_bytes(); }

  // ---- native atomics (PORTING.md 1.1, has_native_atomics) -------------------------
  // With SPLITC_MPI_ATOMICS=mpi: MPI-3's MPI_Fetch_and_op and MPI_Compare_and_swap on
  // the window over the segments, flushed at once, for *every* processor's atomics on
  // aligned words of the segments (the owner's and mapped peers' too: MPI's atomics
  // need not be atomic with respect to the CPU's) -- for networks whose MPI carries
  // atomics in hardware. Not the default: on this machine's Open MPI 4.1.4 they were
  // 2.1x slower than an active message to the owner (osc ucx, osc pt2pt), or 0.75x but
  // crashing on a compare-and-swap to the process itself (osc rdma over vader's
  // emulated atomics): docs/mpi.md "Atomics". Decided at start-up, the same in every
  // process; otherwise CPU atomics where the word is mapped, active messages elsewhere.
  bool native_atomic_reaches(proc_t, const void* addr, std::size_t size) const noexcept {
    return native_atomics_ && reinterpret_cast<std::uintptr_t>(addr) % size == 0 &&
           in_segment(addr, size);
  }
  /// MPI_BAND, MPI_BOR, MPI_BXOR and MPI_NO_OP besides MPI_SUM, MPI_REPLACE and
  /// MPI_Compare_and_swap (a store is a swap: one operation fewer to mix on a word).
  static constexpr unsigned native_atomic_ops =
      native_atomic_bit(native_atomic_op::fetch_and) | native_atomic_bit(native_atomic_op::fetch_or) |
      native_atomic_bit(native_atomic_op::fetch_xor) | native_atomic_bit(native_atomic_op::load);
  std::uint64_t native_atomic(proc_t p, void* target, native_atomic_op op, std::size_t size,
                              std::uint64_t operand, std::uint64_t desired);
  /// Whether atomics on segment words take MPI's (SPLITC_MPI_ATOMICS=mpi).
  bool native_atomics() const noexcept { return native_atomics_; }
  /// Native atomics so far, as the t3d port counts them (tests check the path was taken).
  std::uint64_t native_atomic_operations() const noexcept { return stats_.native_atomics; }

  void finish(int code);

  // ---- beyond the boundary --------------------------------------------------

  /// The backend's private communicator (a duplicate of MPI_COMM_WORLD), as
  /// a Fortran handle: MPI_Comm_f2c(communicator_fortran()).
  int communicator_fortran() const noexcept;
  /// True when MPI-3 RMA on the segments is available (window created).
  bool has_window() const noexcept { return has_window_; }
  /// "Open MPI v4.1.4, ..." as MPI_Get_library_version says.
  const std::string& library_version() const noexcept { return library_; }
  tuning& tune() noexcept { return tuning_; }
  const statistics& stats() const noexcept { return stats_; }
  /// End the whole job from a fatal error: MPI_Abort when MPI is up.
  /// (Meant for the core's fatal-error path; see ports/mpi/README.md.)
  static void abort_job(int code) noexcept;
  /// Has the program initialised MPI before splitc::init? (Then init must not fork.)
  static bool layer_initialized() noexcept;

 private:
  struct recv_slot;  // a pre-posted receive (src/mpi_backend.cpp)
  struct mpi_state;  // everything of MPI's own types
  struct in_flight {
    unsigned char* buffer;  ///< a packet buffer to give back, or nullptr
    void* staging;          ///< a staged payload to free, or nullptr
    std::size_t staged_bytes;
    counter* source_free;   ///< a zero-copy send's counter to count down, or nullptr
  };
  struct loop_message {  ///< a message to ourselves, delivered by poll
    bool is_request;
    am_kind kind;
    handler_id handler;
    int nargs;
    am_word args[am_max_args];
    std::vector<unsigned char> payload;
    void* dst;
    std::size_t length;
  };

  am_status send(proc_t p, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);
  am_status send_short(proc_t p, bool is_request, handler_id h, const am_word* a, int n);
  am_status send_self(bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                      const void* src, std::size_t len, void* dst);
  bool send_control(proc_t p, std::uint8_t type, std::uint64_t value);
  void transmit(proc_t p, unsigned char* packet, std::size_t bytes);
  unsigned char* take_buffer();
  void track(void* request, unsigned char* buffer, void* staging, std::size_t staged,
             counter* source_free = nullptr);
  static std::size_t stage_capacity(std::size_t len) noexcept;
  void* stage_take(std::size_t len);
  void stage_give(void* p, std::size_t capacity);
  void reclaim_sends();
  void wait_request(void* request);
  bool in_segment(const void* dst, std::size_t len) const noexcept;
  bool rma_target(proc_t p, const void* dst, std::size_t len) const noexcept;
  /// dst..dst+len lies in the segment of p, which this process maps (same host).
  bool same_host_target(proc_t p, const void* dst, std::size_t len) const noexcept;

  recv_slot& slot_at(std::uint64_t seq) noexcept;
  bool advance_scan();
  void landed(recv_slot& s, const void* status);  // status: the receive's MPI_Status
  void arrived(recv_slot& s);
  int deliver_at_head(const am_message& m, int credits, am_sink sink);
  void owe_credit(proc_t source);
  bool header_ok(const wire::packet_header& h) const noexcept;
  [[noreturn, gnu::cold]] void bad_packet(const void* header) const;
  int poll_mpi(am_sink sink);
  int poll_rings_and_mpi(am_sink sink);
  int poll_mpi_unless_yields_slow(am_sink sink);
  int poll_full(am_sink sink);
  void look_ahead();
  bool grow_ring();
  void open_slot(recv_slot& s);
  void preprocess(recv_slot& s);
  void retire(recv_slot& s, am_sink* sink);
  void repost(recv_slot& s);
  void flush_reposts();
  int deliver_loopback(am_sink sink);
  void flush_owed_credits();
  void barrier_dissemination(am_sink sink);
  void quiesce();
  void check(int rc, const char* what) const {
    if (rc != 0) [[unlikely]] mpi_failed(rc, what);  // MPI_SUCCESS is 0
  }
  [[noreturn, gnu::cold]] static void mpi_failed(int rc, const char* what);
  /// The general send; `source_free` (zero-copy sends) is counted down once `src`
  /// is no longer read: at once, or when a rendezvous payload's send completes.
  am_status send_packet(proc_t p, bool is_request, am_kind kind, handler_id h, const am_word* a,
                        int n, const void* src, std::size_t len, void* dst,
                        counter* source_free = nullptr);
  am_status send_zero_copy(proc_t p, bool is_request, handler_id h, const am_word* a, int n,
                           const void* src, std::size_t len, void* dst, counter& source_free);
  /// A message to a peer on this host (same_host_.carries(p)) over its ring: its status, or
  /// nothing for a medium message over a quarter of a ring (then it goes by MPI).
  std::optional<am_status> send_on_host_ring(proc_t p, bool is_request, am_kind kind, handler_id h,
                                             const am_word* a, int n, const void* src,
                                             std::size_t len, void* dst);

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  bool owns_mpi_ = false;
  bool finished_ = false;
  std::unique_ptr<mpi_state> m_;
  bool has_window_ = false;
  bool native_atomics_ = false;  ///< atomics on segment words by MPI's (native_atomic_reaches)
  std::string library_;
  std::uintptr_t segment_base_ = 0;
  std::size_t segment_size_ = 0;
  port::same_host same_host_;  ///< the segments of the processes on this host
  tuning tuning_;
  statistics stats_;

  // Receiving: a ring of pre-posted packet receives.
  recv_slot** ring_ = nullptr;   ///< the ring's slots by seq & slot_mask_ (m_->slots)
  std::uint64_t slot_mask_ = 0;  ///< ring size - 1 (a power of two)
  std::size_t ring_limit_ = 0;   ///< the ring grows up to this many receives
  std::uint64_t head_ = 0;  ///< next packet to deliver
  std::uint64_t scan_ = 0;  ///< next packet to examine (head_ <= scan_ < reposted_ + slots)
  std::uint64_t reposted_ = 0;  ///< packets before this have their receive posted again
  bool busy_ = true;  ///< poll has more to do than test the next receive (loopback, sends, credits)
  // While this host's rings deliver (a delivery within host_ring_recent_polls polls), poll
  // tests MPI on every mpi_test_every-th poll only: an MPI_Test costs more than a look at the
  // rings and would sit in every round trip between processes of the host. On an
  // oversubscribed host whose rings carry every other processor, MPI is tested after a growing
  // gap while yields are slow (poll_mpi_unless_yields_slow: mpi_test_gap_ns_).
  static constexpr std::uint32_t host_ring_recent_polls = 256, mpi_test_every = 16;
  std::uint32_t polls_since_ring_ = host_ring_recent_polls;
  bool rings_carry_all_ = false;  ///< the rings carry every other processor's messages
  static constexpr std::uint64_t mpi_test_gap_min_ns = 1000000, mpi_test_gap_max_ns = 16000000;
  std::uint64_t mpi_test_gap_ns_ = 0;
  std::uint64_t last_mpi_test_ns_ = 0;
  std::uint32_t poll_count_ = 0;

  // Sending: packet buffers, requests in flight, credits.
  std::vector<unsigned char*> free_buffers_;
  std::vector<unsigned char*> all_buffers_;
  std::vector<in_flight> send_meta_;
  std::size_t staged_bytes_ = 0;  ///< capacity of staging buffers in flight
  std::vector<std::vector<void*>> stage_pool_;  ///< free staging buffers by log2 capacity
  std::size_t pooled_bytes_ = 0;
  std::vector<int> credits_;  ///< packets we may still send to each processor
  std::vector<int> owed_;     ///< credits we owe each processor
  bool credits_owed_ = false;
  int credit_threshold_ = 1;  ///< owed credits that make an explicit credit packet

  std::deque<loop_message> loopback_;
  std::vector<std::uint64_t> barrier_tokens_;  ///< dissemination tokens received, per round
  std::uint64_t barrier_epoch_ = 0;
  int in_send_wait_ = 0;
};

/// MPI tags on the backend's communicators: packets with a header (compact
/// packets use tags from 2^24 up, src/packet.hpp) and, on the second
/// communicator, payloads sent apart from their packet.
inline constexpr int packet_tag = 1;
inline constexpr int data_tag = 2;

static_assert(has_native_atomics<mpi_backend>);

}  // namespace splitc::backends::mpi
