// The T3D port's boundary (include/splitc/backends/t3d.hpp), written against
// the T3D SHMEM names of <mpp/shmem.h>: the emulation's header for t3d and
// t3d_sim, the OpenSHMEM shim's for shmem -- and, for shmem alone, OpenSHMEM's
// atomics (the native atomic members; the T3D had shmem_swap only).
#include <mpp/shmem.h>
#include <splitc/backends/t3d.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/failing_exit.hpp>
#include <splitc/port/segment.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "layer_start.hpp"

namespace splitc::backends::t3d {
namespace {

constexpr std::size_t barrier_words = 64;

std::size_t mailbox_bytes(int procs) {
  return static_cast<std::size_t>(procs) * t3d_backend::slots_per_pair * sizeof(mailbox_slot) +
         static_cast<std::size_t>(procs) * (sizeof(store_count) + sizeof(am_word)) +
         barrier_words * sizeof(am_word);
}
/// The shmalloc'd mailbox area: a cache line more than the mailboxes need, so that they can
/// start on one (the emulation's blocks do; OpenSHMEM's need not).
std::size_t mailbox_area_bytes(int procs) { return mailbox_bytes(procs) + alignof(store_count); }

std::uint64_t load_acquire(const am_word& w) noexcept {
  return __atomic_load_n(&w, __ATOMIC_ACQUIRE);
}

long* words(void* p) noexcept { return static_cast<long*>(p); }

/// Between start_pes and the layer's finalisation (read by the failing-exit path).
std::atomic<bool> layer_up{false};
void set_layer_up(bool up) noexcept { layer_up.store(up, std::memory_order_relaxed); }

}  // namespace

bool layer_is_up() noexcept { return layer_up.load(std::memory_order_relaxed); }

void t3d_backend::abort_job(int code) noexcept {
  if (layer_is_up()) shmem_global_exit(code);
}

t3d_backend::t3d_backend(start_arguments args) {
  const port::segment_geometry geometry = port::segment_from_environment();
  // The symmetric space must be sized before start_pes, when P is not yet
  // known: the segment plus room for the mailboxes.
  prepare_layer(args, geometry.size + mailbox_reserve);
  start_pes(0);
  set_layer_up(true);
  shmem_set_cache_inv();  // remote writes become visible to our loads (T3D; Brightwell §3.2)
  myproc_ = _my_pe();
  procs_ = _num_pes();
#if !defined(SPLITC_SIM_SUBSTRATE)  // on the engine, one process holds every PE
  // A process that leaves with a non-zero status while the layer is up ends
  // the whole job: otherwise its peers could wait for it forever.
  port::end_job_on_failing_exit(layer_is_up, abort_job, "SHMEM job (shmem_global_exit)");
  setenv(port::env::myproc.name, std::to_string(myproc_).c_str(), 1);
  setenv(port::env::procs.name, std::to_string(procs_).c_str(), 1);
  setenv(port::env::job.name, name, 0);
#endif

  // The segment first, so that it starts the symmetric heap: the same
  // address on every PE (checked below against PE 0's).
  const std::size_t size = segment_bytes(geometry.size, mailbox_bytes(procs_));
  void* seg = shmalloc(size);
  if (seg == nullptr) {
    port::fail("{}: shmalloc of the {}-byte segment failed (the symmetric heap is too small; "
                 "SPLITC_SEGMENT_SIZE sets the segment)",
                 name, size);
  }
  segment_base_ = reinterpret_cast<std::uintptr_t>(seg);
  segment_size_ = size;
  // The mailboxes start on a cache line: the same rounding of the same address on every PE.
  constexpr std::size_t line = alignof(store_count);
  const std::size_t area_bytes = mailbox_area_bytes(procs_);
  mailbox_area_ = shmalloc(area_bytes);
  if (mailbox_area_ == nullptr)
    port::fail("{}: shmalloc of {} bytes of mailboxes failed", name, area_bytes);
  std::memset(mailbox_area_, 0, area_bytes);
  const std::uintptr_t area = reinterpret_cast<std::uintptr_t>(mailbox_area_);
  slots_ = reinterpret_cast<mailbox_slot*>((area + line - 1) / line * line);
  // The slots fill whole cache lines (32 per pair), so the store counts that
  // follow them start on one too.
  static_assert(slots_per_pair * sizeof(mailbox_slot) % line == 0);
  stored_from_ = reinterpret_cast<store_count*>(slots_ + static_cast<std::size_t>(procs_) * slots_per_pair);
  credit_ = reinterpret_cast<am_word*>(stored_from_ + procs_);
  barrier_ = credit_ + procs_;
  // Our bases, in the barrier words' last two, for PE 0's check.
  barrier_[barrier_words - 2] = segment_base_;
  barrier_[barrier_words - 1] = reinterpret_cast<std::uintptr_t>(mailbox_area_);
  ::barrier();  // the layer's: nothing travels yet, so it need not poll
  long zero_bases[2];
  shmem_get(zero_bases, words(barrier_ + barrier_words - 2), 2, 0);
  // On the engine every PE's heap has its own address (docs/sim.md, "P segments, P
  // addresses"), and one place is the same offset in each, which is what SHMEM's symmetric
  // addresses then mean (t3d.hpp, symmetric()): compare PE 0's copies of our places.
  const auto on_zero = [](std::uintptr_t a) {
    return reinterpret_cast<std::uintptr_t>(port::same_place_on(0, reinterpret_cast<void*>(a)));
  };
  if (static_cast<std::uintptr_t>(zero_bases[0]) != on_zero(segment_base_) ||
      static_cast<std::uintptr_t>(zero_bases[1]) !=
          on_zero(reinterpret_cast<std::uintptr_t>(mailbox_area_))) {
    port::fail("{}: the symmetric heap is not at the same address on every PE (segment at {:#x} "
                 "here, {:#x} on PE 0); splitc's global pointers need one address",
                 name, segment_base_, static_cast<std::uintptr_t>(zero_bases[0]));
  }
  ::barrier();

  sent_.assign(static_cast<std::size_t>(procs_), 0);
  received_.assign(static_cast<std::size_t>(procs_), 0);
  credited_.assign(static_cast<std::size_t>(procs_), 0);
  stored_to_.assign(static_cast<std::size_t>(procs_), 0);
  stored_seen_.assign(static_cast<std::size_t>(procs_), 0);
  for (int d = 1; d < procs_; d *= 2) ++barrier_rounds_;
  if (barrier_rounds_ > static_cast<int>(barrier_words) - 2)
    port::fail("{}: too many PEs ({})", name, procs_);
  map_peers();
}

// The PEs whose segments the layer maps into this process (include/splitc/backends/t3d.hpp):
// OpenSHMEM's shmem_ptr, for the whole segment in one piece; the same switches as the network
// backends' same-host layer (SPLITC_SAME_HOST, SPLITC_SAME_HOST_MAX). The T3D's SHMEM maps none.
void t3d_backend::map_peers() {
  mapped_.assign(static_cast<std::size_t>(procs_), 0);
  mailboxes_mapped_.assign(static_cast<std::size_t>(procs_), 0);
#if defined(SPLITC_BACKEND_SHMEM)
  if (!port::env::same_host.get()) return;
  const long block = port::env::same_host_max.get();
  if (block < 0) {
    port::bad_env_value(port::env::same_host_max.name, *port::env::same_host_max.value(),
                        "is not a number of processors (0: no limit)");
  }
  std::string shared;
  for (proc_t q = 0; q < procs_; ++q) {
    if (q != myproc_ && block != 0 && q / block != myproc_ / block) continue;
    auto* first = static_cast<unsigned char*>(shmem_ptr(reinterpret_cast<void*>(segment_base_), q));
    auto* last = static_cast<unsigned char*>(
        shmem_ptr(reinterpret_cast<void*>(segment_base_ + segment_size_ - 1), q));
    if (first == nullptr || last != first + (segment_size_ - 1)) continue;
    if (q != myproc_) mapped_[static_cast<std::size_t>(q)] = reinterpret_cast<std::uintptr_t>(first);
    // Its mailboxes too, when the layer maps the whole area in one piece.
    const std::size_t area_bytes = mailbox_area_bytes(procs_);
    auto* boxes = static_cast<unsigned char*>(shmem_ptr(mailbox_area_, q));
    auto* boxes_end = static_cast<unsigned char*>(
        shmem_ptr(static_cast<unsigned char*>(mailbox_area_) + area_bytes - 1, q));
    if (q != myproc_ && boxes != nullptr && boxes_end == boxes + (area_bytes - 1))
      mailboxes_mapped_[static_cast<std::size_t>(q)] = reinterpret_cast<std::uintptr_t>(boxes);
    shared += (shared.empty() ? "" : " ") + std::to_string(q);
  }
  if (port::env::verbose.get()) {
    std::fprintf(stderr, "splitc: processor %d of %d: %s: shares memory with processors %s "
                 "(shmem_ptr maps their segments)\n", myproc_, procs_, name, shared.c_str());
  }
#endif
}

t3d_backend::~t3d_backend() = default;

// ---- one-sided transfers ------------------------------------------------------------

#if defined(SPLITC_SIM_SUBSTRATE)
void t3d_backend::layer_poll() { shmem_udcflush(); }
#endif

// A put on another counter than the last: the puts so far keep their counter.
void t3d_backend::note_other_counter(counter& done) {
  if (put_count_ != 0) other_puts_.emplace_back(put_counter_, put_count_);
  put_counter_ = &done;
  put_count_ = 0;
}

void t3d_backend::rma_put_other_counter(proc_t p, void* dst, const void* src, std::size_t len,
                                        counter& done) {
  note_other_counter(done);
  (void)rma_put(p, dst, src, len, done);
}

void t3d_backend::rma_get_after_puts(void* dst, proc_t p, const void* src, std::size_t len) {
  shmem_quiet();  // a get must not overtake this PE's earlier puts (quiet_earlier_puts)
  ++rma_operations_;
  shmem_getmem(dst, symmetric(src), len, p);
}

#if defined(SPLITC_BACKEND_SHMEM)
#if defined(OSHMEM_MAJOR_VERSION) && \
    OSHMEM_MAJOR_VERSION * 10000 + OSHMEM_MINOR_VERSION * 100 + OSHMEM_RELEASE_VERSION < 40105
const bool t3d_backend::native_atomics_32 = false;  // open-mpi/ompi#11257, fixed in 4.1.5
#else
const bool t3d_backend::native_atomics_32 = true;
#endif

namespace {
[[noreturn]] void undeclared_native_atomic(native_atomic_op op) {
  port::fail("t3d: native atomic operation {} is not among native_atomic_ops", static_cast<int>(op));
}
}  // namespace

std::uint64_t t3d_backend::native_atomic(proc_t p, void* target, native_atomic_op op,
                                         std::size_t size, std::uint64_t operand,
                                         std::uint64_t desired) {
  quiet_earlier_puts();  // as a get does (rma_get)
  ++native_atomic_operations_;
  if (size == 4) {
    auto* word = static_cast<unsigned*>(target);
    const auto value = static_cast<unsigned>(operand);
    unsigned old = 0;
    switch (op) {
      case native_atomic_op::fetch_add: old = shmem_uint_atomic_fetch_add(word, value, p); break;
      case native_atomic_op::swap: old = shmem_uint_atomic_swap(word, value, p); break;
      case native_atomic_op::compare_swap:
        old = shmem_uint_atomic_compare_swap(word, value, static_cast<unsigned>(desired), p);
        break;
      case native_atomic_op::load: old = shmem_uint_atomic_fetch(word, p); break;
      case native_atomic_op::store: shmem_uint_atomic_set(word, value, p); break;
      default: undeclared_native_atomic(op);  // fetch_and/or/xor: see t3d.hpp
    }
    return old;
  }
  auto* word = static_cast<unsigned long*>(target);
  const auto value = static_cast<unsigned long>(operand);
  unsigned long old = 0;
  switch (op) {
    case native_atomic_op::fetch_add: old = shmem_ulong_atomic_fetch_add(word, value, p); break;
    case native_atomic_op::swap: old = shmem_ulong_atomic_swap(word, value, p); break;
    case native_atomic_op::compare_swap:
      old = shmem_ulong_atomic_compare_swap(word, value, static_cast<unsigned long>(desired), p);
      break;
    case native_atomic_op::load: old = shmem_ulong_atomic_fetch(word, p); break;
    case native_atomic_op::store: shmem_ulong_atomic_set(word, value, p); break;
    default: undeclared_native_atomic(op);  // fetch_and/or/xor: see t3d.hpp
  }
  return old;
}
#endif

// Every put issued so far is complete at its target after shmem_quiet
// (complete_puts, in the header): the counters they hold go down -- the
// seed's "new implementation of counters", without acknowledgements.
void t3d_backend::complete_other_puts() {
  for (const auto& [c, n] : other_puts_) c->add_local(-n);
  other_puts_.clear();
}

// ---- active messages: puts into per-pair mailboxes ------------------------------------

am_status t3d_backend::send(proc_t p, bool is_request, am_kind kind, handler_id h,
                            const am_word* a, int n, const void* src, std::size_t len,
                            void* dst) {
  const std::size_t pi = static_cast<std::size_t>(p);
  const std::uint64_t message = sent_[pi];
  if (message - load_acquire(credit_[pi]) >= slots_per_pair) return am_status::no_resource;
  const bool direct = mailboxes_mapped_[pi] != 0;
  // Straight into p's slot where its mailboxes are mapped here, else staged for the put.
  mailbox_slot& out = direct ? *in_mapped_mailboxes(p, &inbox(myproc_, message)) : staging_;
  out.header = static_cast<am_word>(static_cast<std::uint16_t>(h)) |
               static_cast<am_word>(len) << 16 | static_cast<am_word>(kind) << 32 |
               static_cast<am_word>(is_request ? 1 : 0) << 40 | static_cast<am_word>(n) << 48;
  std::size_t body = 0;  // words of the body written
  if (kind == am_kind::long_msg) out.body[body++] = reinterpret_cast<std::uintptr_t>(dst);
  if (n != 0) {  // (no arguments: `a` may be null, which memcpy must not be given)
    std::memcpy(out.body + body, a, sizeof(am_word) * static_cast<std::size_t>(n));
    body += static_cast<std::size_t>(n);
  }
  if (len != 0) {
    std::memcpy(out.body + body, src, len);
    body += (len + 7) / 8;
  }
  // The record, then (ordered after it) the sequence word: Brightwell §5's
  // lesson, the flag written last.
  if (direct) {
    __atomic_store_n(&out.seq, static_cast<am_word>(message + 1), __ATOMIC_RELEASE);
  } else {
    mailbox_slot& target = inbox(myproc_, message);  // at p, the same address
    shmem_put(words(&target.header), words(&out.header), 1 + body, p);
    shmem_fence();
    const long seq = static_cast<long>(message + 1);
    shmem_put(words(&target.seq), &seq, 1, p);
  }
  sent_[pi] = message + 1;
  ++messages_sent_;
  return am_status::ok;
}

// What q has stored here since the last look (its running count only grows:
// successive counts are ordered by the fence before each).
void t3d_backend::take_stores(proc_t q) noexcept {
  const std::size_t qi = static_cast<std::size_t>(q);
  const std::int64_t total = __atomic_load_n(&stored_from_[qi].bytes, __ATOMIC_ACQUIRE);
  stored_arrived_ += total - stored_seen_[qi];
  stored_seen_[qi] = total;
}

int t3d_backend::receive(am_sink sink) {
  int ran = 0;
  for (proc_t q = 0; q < procs_; ++q) {
    const std::size_t qi = static_cast<std::size_t>(q);
    take_stores(q);
    for (;;) {
      const std::uint64_t message = received_[qi];
      mailbox_slot& s = inbox(q, message);
      if (load_acquire(s.seq) != message + 1) break;
      const auto kind = static_cast<am_kind>((s.header >> 32) & 0xff);
      am_message m{};
      m.source = q;
      const std::size_t handler = s.header & 0xffff;
      m.handler = static_cast<handler_id>(handler);
      m.kind = kind;
      m.is_request = ((s.header >> 40) & 1) != 0;
      m.nargs = static_cast<int>((s.header >> 48) & 0xff);
      m.length = (s.header >> 16) & 0xffff;
      const bool long_message = kind == am_kind::long_msg;
      m.args = s.body + (long_message ? 1 : 0);
      if (m.nargs > am_max_args || m.length > mailbox_slot::payload_bytes ||
          handler >= sink.handler_count) [[unlikely]] {
        port::fail("{}: a mailbox record from processor {} is not a splitc message (handler {}, "
                     "{} words, {} bytes)",
                     name, q, handler, m.nargs, m.length);
      }
      unsigned char* payload = reinterpret_cast<unsigned char*>(s.body + (long_message ? 1 : 0) + m.nargs);
      if (long_message) {
        void* dst = reinterpret_cast<void*>(static_cast<std::uintptr_t>(s.body[0]));
        if (m.length != 0) std::memcpy(dst, payload, m.length);
        m.payload = dst;
      } else if (kind == am_kind::medium_msg) {
        m.payload = payload;
      }
      // The slot stays ours until we report it consumed, after delivery.
      received_[qi] = message + 1;
      sink.deliver(sink.context, m);
      ++ran;
      if (received_[qi] - credited_[qi] >= slots_per_pair / 2) return_credit(q);
    }
  }
  return ran;
}

void t3d_backend::return_credit(proc_t source) {
  const std::size_t si = static_cast<std::size_t>(source);
  const long consumed = static_cast<long>(received_[si]);
  if (mailboxes_mapped_[si] != 0) {
    __atomic_store_n(in_mapped_mailboxes(source, &credit_[myproc_]), static_cast<am_word>(consumed),
                     __ATOMIC_RELEASE);
  } else {
    shmem_put(words(&credit_[myproc_]), &consumed, 1, source);
  }
  credited_[si] = received_[si];
}


// ---- barrier and the end ----------------------------------------------------------------

void t3d_backend::bootstrap_barrier(am_sink sink) {
  const long epoch = static_cast<long>(++barrier_epoch_);
  for (int k = 0; k < barrier_rounds_; ++k) {
    const proc_t to = (myproc_ + (proc_t{1} << k)) % procs_;
    shmem_put(words(&barrier_[k]), &epoch, 1, to);
    [[maybe_unused]] port::backoff wait;
    while (static_cast<long>(load_acquire(barrier_[k])) < epoch) {
      if (poll(sink) != 0) {
        wait.reset();
      } else {
        // A waiting PE must not hold back credit its peers wait for.
        for (proc_t q = 0; q < procs_; ++q)
          if (received_[static_cast<std::size_t>(q)] != credited_[static_cast<std::size_t>(q)])
            return_credit(q);
#if defined(SPLITC_SIM_SUBSTRATE)
        // The poll may have landed the put awaited: the engine's wait returns
        // only for a put that lands during it.
        if (static_cast<long>(load_acquire(barrier_[k])) >= epoch) break;
        wait_idle(sink, "the bootstrap barrier");  // lets the other processors run
#else
        wait.pause();
#endif
      }
    }
  }
  if (put_count_ != 0) complete_puts();
}

void t3d_backend::finish(int) {
  if (finished_) return;
  finished_ = true;
  if (put_count_ != 0) complete_puts();
  shmem_quiet();
  ::barrier();  // everybody is past the core's last bootstrap barrier: nothing is in flight
  set_layer_up(false);
  shmem_finalize();
}

static_assert(splitc::backend<t3d_backend>);

}  // namespace splitc::backends::t3d
