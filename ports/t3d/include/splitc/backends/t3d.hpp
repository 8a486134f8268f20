// The T3D port: splitc on Cray T3D SHMEM (<mpp/shmem.h>), one source for two
// layers (PORTING.md part 3, "T3D: SHMEM"; docs/ports.md "## T3D"):
//
//   t3d, t3d_sim  the T3D SHMEM emulation (emulations/t3d) on processes of
//                 this host (ports/t3d/src/t3d_launch.cpp) or on the sim
//                 engine (t3d_sim_layer.cpp);
//   shmem         OpenSHMEM (Debian's Open MPI oshmem, oshrun) through the
//                 thin shim ports/t3d/shim/mpp/shmem.h, which gives
//                 the T3D names on OpenSHMEM.
//
// How splitc maps onto a one-sided layer:
//  * Gets, puts and bulk transfers whose remote end lies in the spread
//    segment (symmetric: shmalloc'd at the same address on every PE) are
//    SHMEM gets and puts (shmem_getmem/shmem_putmem, byte-granular: later
//    SHMEM names, which the emulation provides beside the T3D's word forms)
//    through the boundary's RMA members, never active messages. Counters get
//    the implementation the seed foresaw (Luna 1994 §2.1): a get completes in
//    its call (shmem_get blocks); a put's counter is completed after
//    shmem_quiet by the next poll, or by rma_flush when sync() asks first,
//    not by an acknowledgement message. rma_put and rma_get are inline here
//    (the core inlines them into the program's put and get).
//  * Stores into the segment (store, bulk_store on the library's counter) are
//    signalling puts built from the T3D's calls (OpenSHMEM 1.4 has no
//    shmem_putmem_signal): the data, shmem_fence, then a put of this PE's
//    running byte count to the receiver into the receiver's word for this PE;
//    the receiver's poll adds what each word grew by to its store counter
//    (has_rma_store). No message, no handler, no copy at the receiver.
//  * On OpenSHMEM, the segments of PEs that the library maps into this
//    process (shmem_ptr: PEs on this host) are loaded and stored directly
//    (direct_address), as the network backends' same-host layer does and as
//    GASNet-EX's PSHM and UPC++'s local() do: a get or put to such a PE is a
//    load or store, a bulk transfer a memcpy, a store a copy plus an atomic
//    add to the receiver's byte counter, the collectives' mailboxes a copy.
//    The one-sided calls above serve the PEs it does not map (other hosts;
//    every PE with SPLITC_SAME_HOST=0). The T3D had no shmem_ptr (its
//    remote loads went through the annex, which its SHMEM did not expose),
//    so the emulation maps nothing.
//  * On OpenSHMEM, atomics on the segment's 64-bit words are the layer's own
//    (the native atomic members, below).
//  * Active messages (targets outside the segment, unaligned transfers, the
//    other atomics, the core's own protocols) are puts into per-pair mailboxes in
//    the MPICH-T3D manner (Brightwell 1996 §3-5): a ring of slots per
//    (sender, receiver) at the receiver; the record is put first, then
//    shmem_fence, then the slot's sequence word, written last; the receiver
//    polls the sequence words and returns credit with a put of its consumed
//    count into a word at the sender. On OpenSHMEM, to a PE whose mailboxes
//    shmem_ptr maps here, the record is written straight into its slot and the
//    sequence word stored with release order (the credit likewise): no staging
//    copy, no layer put, no fence.
//  * bootstrap_barrier is a dissemination barrier of puts that polls while
//    it waits (never the layer's blocking barrier()).
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>
#include <splitc/port/launcher_check.hpp>
#include <splitc/port/segment.hpp>
#include <splitc/port/segment_places.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(SPLITC_SIM_SUBSTRATE)
#include <splitc/port/on_sim.hpp>
#endif

// The layer calls the port's inlined one-sided paths make, as <mpp/shmem.h>
// declares them (the byte-granular names, the same in the emulation and in
// OpenSHMEM): declared here, so that a program built on this backend needs
// no layer header; t3d_backend.cpp includes the layer's own, and the compiler
// checks that the two agree.
extern "C" {
void shmem_putmem(void* target, const void* source, std::size_t bytes, int pe);
void shmem_getmem(void* target, const void* source, std::size_t bytes, int pe);
void shmem_quiet(void);
void shmem_fence(void);
}

namespace splitc::backends::t3d {

/// A sender's running count of bytes stored into this PE, alone on its cache
/// line: the sender writes it after every store and the receiver's polls read
/// it, so nothing else may share the line.
struct alignas(64) store_count {
  std::int64_t bytes;
};

/// One mailbox slot, on cache lines of its own: the sequence word, put last, then the record
/// -- the header and the body, packed: the destination (long messages only), the argument
/// words the message has, its payload. The receiver polls the sequence word; the line that
/// brings it brings the header and the first six body words with it, so a short message or a
/// collective's small one (three words and a signature) is one line to fetch, not three.
struct alignas(64) mailbox_slot {
  static constexpr std::size_t payload_bytes = 2048;
  static constexpr std::size_t body_words = 1 + am_max_args + payload_bytes / sizeof(am_word);
  am_word seq;     ///< 1 + the slot's message number on this pair; written last
  am_word header;  ///< handler | payload bytes << 16 | kind << 32 | request << 40 | nargs << 48
  am_word body[body_words];
};
static_assert(mailbox_slot::payload_bytes < (1u << 16), "the length has 16 bits of the header");

class t3d_backend : public port::am_forwarding<t3d_backend>
#if defined(SPLITC_SIM_SUBSTRATE)
    , public port::sim_members
#endif
{
 public:
  friend class port::am_forwarding<t3d_backend>;
#if defined(SPLITC_BACKEND_SHMEM)
  static constexpr const char* name = "shmem";
  // splitc-run-shmem runs Open MPI's oshrun (its mpirun); a plain oshrun or mpirun may too.
  static constexpr unsigned foreign_launchers = port::open_mpi;
#elif defined(SPLITC_SIM_SUBSTRATE)
  static constexpr const char* name = "t3d_sim";
#else
  static constexpr const char* name = "t3d";
#endif
  static constexpr int slots_per_pair = 32;
#if defined(SPLITC_BACKEND_SHMEM)
  static constexpr bool maps_peers = true;  ///< shmem_ptr (OpenSHMEM; not the T3D's SHMEM)
#else
  static constexpr bool maps_peers = false;
#endif
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = mailbox_slot::payload_bytes,
      .max_long = mailbox_slot::payload_bytes,
      .ordered = true,  // one ring per pair, read in sequence
      .direct_access = maps_peers,  // the PEs shmem_ptr maps; nullptr for the others
  };

  explicit t3d_backend(start_arguments args);
  t3d_backend(const t3d_backend&) = delete;
  t3d_backend& operator=(const t3d_backend&) = delete;
  ~t3d_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send.

  int poll(am_sink sink) {
#if defined(SPLITC_SIM_SUBSTRATE)
    layer_poll();  // the engine lands remote puts only when this processor calls in
#endif
    if (put_count_ != 0) complete_puts();
    return receive(sink);
  }
  void bootstrap_barrier(am_sink sink);
#if defined(SPLITC_SIM_SUBSTRATE)
  /// On the engine, remote puts land in this processor's memory only when it
  /// calls into the layer: every poll does (shmem_udcflush lands what has
  /// arrived, charges a poll and lets the others run). After a poll that
  /// left a wait's condition false, the processor sleeps in the engine until
  /// a put lands here: everything it can wait for -- a mailbox message, a
  /// credit return -- arrives as a put (a put's own counter is completed by
  /// the poll, after shmem_quiet). The engine reports a deadlock by name.
  void wait_idle(am_sink, const char* what) { layer_wait(what); }
#endif

  segment_info segment() const noexcept {
    return {reinterpret_cast<void*>(segment_base_), segment_size_};
  }
  /// Where this process loads and stores `addr` of PE p: inside p's segment
  /// when the layer maps p here (maps_peers), else nullptr.
  void* direct_address([[maybe_unused]] proc_t p, [[maybe_unused]] const void* addr) const noexcept {
    if constexpr (maps_peers) {
      const std::uintptr_t off = reinterpret_cast<std::uintptr_t>(addr) - segment_base_;
      if (off >= segment_size_) return nullptr;
      const std::uintptr_t peer = mapped_[static_cast<std::size_t>(p)];
      return peer == 0 ? nullptr : reinterpret_cast<void*>(peer + off);
    } else {
      return nullptr;
    }
  }
  /// direct_address of the range [addr, addr + len), with one range check (has_direct_range).
  /// Always inlined, as the core's direct_in is: it is a mapped get's or read's whole cost
  /// (docs/ports.md, "The RMA members' calls last").
  [[gnu::always_inline]] void* direct_range([[maybe_unused]] proc_t p, [[maybe_unused]] const void* addr,
                     [[maybe_unused]] std::size_t len) const noexcept {
    if constexpr (maps_peers) {
      return port::range_in_peer(segment_base_, segment_size_,
                                 mapped_[static_cast<std::size_t>(p)], addr, len);
    } else {
      return nullptr;
    }
  }
  void finish(int code);

  // ---- RMA members (PORTING.md 1.1, has_rma) ----------------------------------------

  /// SHMEM names a peer's memory by this PE's copy of the place: the address itself, or on
  /// the engine (where the core's address is the peer's copy, segments lying apart) the same
  /// offset in this PE's segment (port/segment_places.hpp).
  void* symmetric(const void* addr) const noexcept { return port::same_place_on(myproc_, addr); }
  /// The remote end is in the symmetric segment: direct_range's test (the same formula, so
  /// that where the core asked direct_range first the compiler answers this from it -- on
  /// OpenSHMEM, where symmetric() is the address itself; not on the engine).
  bool rma_reaches(proc_t, const void* addr, std::size_t len) const noexcept {
    std::uintptr_t off;
    return port::range_in_segment(segment_base_, segment_size_, symmetric(addr), len, off);
  }
  // The core inlines these into the program's get and put: the common case has the counts
  // first and the layer's call last, the rare ones (another counter, earlier puts to quiet)
  // are calls of their own, so that nothing is live across a call and the program's get or
  // put saves one register where it saved four (docs/ports.md, "The RMA members' calls last").
  // The layer never calls back into this PE's poll, which alone reads the counts.
  am_status rma_put(proc_t p, void* dst, const void* src, std::size_t len, counter& done) {
    // Completed after shmem_quiet, by the next poll or by rma_flush: one
    // counter is the common case (sync's), others wait in a list.
    if (put_counter_ != &done) [[unlikely]] {
      rma_put_other_counter(p, dst, src, len, done);
      return am_status::ok;
    }
    ++put_count_;
    ++rma_operations_;
    shmem_putmem(symmetric(dst), src, len, p);
    return am_status::ok;
  }
  am_status rma_get(void* dst, proc_t p, const void* src, std::size_t len, counter&) {
    if (put_count_ != 0) [[unlikely]] {
      rma_get_after_puts(dst, p, src, len);
      return am_status::ok;
    }
    ++rma_operations_;
    shmem_getmem(dst, symmetric(src), len, p);
    return am_status::ok;
  }
  /// A get is done when shmem_getmem returns: its counter is left alone.
  static constexpr bool rma_get_completes = true;
  /// A store (has_rma_store): the data, then -- ordered after it by
  /// shmem_fence -- this PE's running count of bytes stored into p, put into
  /// p's word for this PE (Brightwell §5: the flag written last).
  am_status rma_store(proc_t p, void* dst, const void* src, std::size_t len) {
    shmem_putmem(symmetric(dst), src, len, p);
    shmem_fence();
    std::int64_t& total = stored_to_[static_cast<std::size_t>(p)];
    total += static_cast<std::int64_t>(len);
    shmem_putmem(&stored_from_[myproc_].bytes, &total, sizeof total, p);
    ++rma_operations_;
    return am_status::ok;
  }
  /// Bytes stored here since the last call (the polls add up what the
  /// senders' words grew by).
  std::int64_t rma_stored_bytes() noexcept { return std::exchange(stored_arrived_, 0); }
  /// The puts so far completed (shmem_quiet), their counters too: what sync()
  /// asks before it polls (has_rma_flush).
  void rma_flush() {
    if (put_count_ != 0) complete_puts();
  }

#if defined(SPLITC_BACKEND_SHMEM)
  // ---- native atomics (PORTING.md 1.1, has_native_atomics) ---------------------------
  // OpenSHMEM's fetch-add, swap, compare-swap, fetch and set on 64-bit words of
  // the symmetric segment (and, or, xor, min, max and floating-point add the
  // core composes of fetch and compare-swap), and on 32-bit ones where
  // the library's are sound (not Open MPI's before 4.1.5: its 32-bit
  // compare-swap writes 8 bytes into a 4-byte result, open-mpi/ompi#11257). Not on the T3D: its SHMEM has
  // shmem_swap alone, and a fetch-add under shmem_set_lock would take three
  // round trips where the active message to the owner takes one
  // (docs/ports.md "## T3D").
  bool native_atomic_reaches(proc_t p, const void* addr, std::size_t size) const noexcept {
    return (size == 8 || (size == 4 && native_atomics_32)) &&
           reinterpret_cast<std::uintptr_t>(addr) % size == 0 && rma_reaches(p, addr, size);
  }
  /// Whether 32-bit words are native too (the layer's version decides: t3d_backend.cpp).
  static const bool native_atomics_32;
  /// OpenSHMEM's fetch and set besides the three every layer has. Not its fetching bitwise
  /// atomics: Open MPI 4.1.4's lose updates (two PEs' shmem_ulong_atomic_fetch_or of bits 0
  /// and 1 into one word leave 0x2; shmem_ulong_atomic_fetch_and(4) of 5 leaves 5), so the
  /// core composes and, or, xor of fetch and compare-swap, which are sound.
  static constexpr unsigned native_atomic_ops =
      native_atomic_bit(native_atomic_op::load) | native_atomic_bit(native_atomic_op::store);
  std::uint64_t native_atomic(proc_t p, void* target, native_atomic_op op, std::size_t size,
                              std::uint64_t operand, std::uint64_t desired);
  /// Native atomics so far (tests check that atomics took this path).
  std::uint64_t native_atomic_operations() const noexcept { return native_atomic_operations_; }
#endif

  /// End the job from the core's fatal-error path (the layer's global exit).
  static void abort_job(int code) noexcept;

  /// Counts for tests: one-sided transfers and mailbox messages sent.
  std::uint64_t rma_operations() const noexcept { return rma_operations_; }
  std::uint64_t messages_sent() const noexcept { return messages_sent_; }

 private:
  am_status send(proc_t p, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);
  int receive(am_sink sink);
  void take_stores(proc_t q) noexcept;
  void note_other_counter(counter& done);
  /// rma_put and rma_get where they are not the common case (t3d_backend.cpp).
  [[gnu::noinline]] void rma_put_other_counter(proc_t p, void* dst, const void* src,
                                               std::size_t len, counter& done);
  [[gnu::noinline]] void rma_get_after_puts(void* dst, proc_t p, const void* src, std::size_t len);
  /// This PE's earlier puts first: a get or an atomic must not overtake them
  /// (SHMEM orders neither; splitc's program order needs it). Their counters
  /// wait for the next poll.
  void quiet_earlier_puts() {
    if (put_count_ != 0) [[unlikely]] shmem_quiet();
  }
  void complete_puts() {
    shmem_quiet();
    put_counter_->add_local(-put_count_);
    put_count_ = 0;
    if (!other_puts_.empty()) [[unlikely]] complete_other_puts();
  }
#if defined(SPLITC_SIM_SUBSTRATE)
  static void layer_poll();
  static void layer_wait(const char* what);
#endif
  void complete_other_puts();
  void return_credit(proc_t source);
  void map_peers();
  mailbox_slot& inbox(proc_t sender, std::uint64_t message) const noexcept {
    return slots_[static_cast<std::size_t>(sender) * slots_per_pair +
                  static_cast<std::size_t>(message % slots_per_pair)];
  }

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  std::uintptr_t segment_base_ = 0;
  std::size_t segment_size_ = 0;
  /// Where each PE's segment is mapped here (shmem_ptr), 0 where it is not.
  std::vector<std::uintptr_t> mapped_;
  /// Where each PE's mailbox area is mapped here (shmem_ptr), 0 where it is not.
  std::vector<std::uintptr_t> mailboxes_mapped_;
  /// `mine`, a place in this PE's mailbox area, in p's as mapped here (p's mailboxes mapped).
  template <class T>
  T* in_mapped_mailboxes(proc_t p, T* mine) const noexcept {
    return reinterpret_cast<T*>(mailboxes_mapped_[static_cast<std::size_t>(p)] +
                                (reinterpret_cast<std::uintptr_t>(mine) -
                                 reinterpret_cast<std::uintptr_t>(mailbox_area_)));
  }
  // The symmetric mailbox area (shmalloc'd): slots_[sender * slots_per_pair + i]
  // are this PE's inboxes; credit_[r] is how many of our messages r has
  // consumed (put here by r); stored_from_[s] is how many bytes s has stored
  // here (put by s after the data); barrier_[k] is round k's arrival epoch.
  mailbox_slot* slots_ = nullptr;
  am_word* credit_ = nullptr;
  store_count* stored_from_ = nullptr;
  am_word* barrier_ = nullptr;
  void* mailbox_area_ = nullptr;
  std::vector<std::uint64_t> sent_;      ///< messages sent to each PE
  std::vector<std::uint64_t> received_;  ///< messages delivered from each PE
  std::vector<std::uint64_t> credited_;  ///< received_ last reported to each PE
  std::vector<std::int64_t> stored_to_;    ///< bytes stored into each PE (sent)
  std::vector<std::int64_t> stored_seen_;  ///< stored_from_[s] as last taken
  std::int64_t stored_arrived_ = 0;        ///< taken, not yet asked for by the core
  // Puts completed by the next shmem_quiet: put_count_ of them on
  // put_counter_, and one entry per put on other counters before it. Every put counts on
  // put_counter_ last (note_other_counter, then ++put_count_), so put_count_ == 0 means that
  // no put is outstanding at all: what poll, rma_flush and a get test.
  counter* put_counter_ = nullptr;
  std::int64_t put_count_ = 0;
  std::vector<std::pair<counter*, std::int64_t>> other_puts_;
  mailbox_slot staging_{};               ///< the record being sent
  std::uint64_t barrier_epoch_ = 0;
  int barrier_rounds_ = 0;
  std::uint64_t rma_operations_ = 0, messages_sent_ = 0, native_atomic_operations_ = 0;
  bool finished_ = false;
};

static_assert(backend<t3d_backend> && has_rma<t3d_backend> && has_rma_flush<t3d_backend> &&
              has_rma_store<t3d_backend> &&
              has_rma_get_in_call<t3d_backend> && has_medium_messages<t3d_backend> &&
              has_long_messages<t3d_backend>);
#if defined(SPLITC_BACKEND_SHMEM)
static_assert(has_native_atomics<t3d_backend>);
#else
static_assert(!has_native_atomics<t3d_backend>);
#endif

}  // namespace splitc::backends::t3d
