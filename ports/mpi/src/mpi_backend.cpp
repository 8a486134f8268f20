// The mpi backend: active messages over MPI (see the header for the design).
#include <mpi.h>
#include <splitc/backends/mpi.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/failing_exit.hpp>
#include <splitc/port/segment.hpp>

#include "packet.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

namespace splitc::backends::mpi {
namespace {

using wire::packet_header;

/// Up to am_max_args argument words, by plain moves (a loop becomes `rep
/// movsq` here, whose start-up costs more than the copy).
[[gnu::always_inline]] inline void copy_words(am_word* to, const am_word* from, int n) noexcept {
  switch (n) {
    case 8: to[7] = from[7]; [[fallthrough]];
    case 7: to[6] = from[6]; [[fallthrough]];
    case 6: to[5] = from[5]; [[fallthrough]];
    case 5: to[4] = from[4]; [[fallthrough]];
    case 4: to[3] = from[3]; [[fallthrough]];
    case 3: to[2] = from[2]; [[fallthrough]];
    case 2: to[1] = from[1]; [[fallthrough]];
    case 1: to[0] = from[0]; [[fallthrough]];
    default: break;
  }
}

constexpr std::size_t round_up(std::size_t n, std::size_t to) noexcept {
  return (n + to - 1) / to * to;
}

namespace env = port::env;

void read_tuning(tuning& t, int procs) {
  t.packet_bytes = env::mpi_packet_bytes.get(t.packet_bytes);
  const std::size_t smallest = wire::prefix_bytes(am_kind::long_msg, am_max_args) + 64;
  if (t.packet_bytes < smallest || t.packet_bytes > (std::size_t{1} << 20)) {
    port::fail("SPLITC_MPI_PACKET_BYTES={} must be between {} and 1M", t.packet_bytes, smallest);
  }
  t.packet_bytes = round_up(t.packet_bytes, 64);
  // Fewer credits per peer in large jobs, so the ring stays a few MiB.
  const long peers = std::max(1, procs - 1);
  const long fair = std::clamp(2048L / peers, 4L, static_cast<long>(t.credits));
  t.credits = static_cast<int>(env::mpi_credits.get(fair));
  if (t.credits < 1) port::fail("SPLITC_MPI_CREDITS must be at least 1");
  t.ring = static_cast<int>(env::mpi_ring.get(t.ring));
  if (t.ring < 0 || t.ring > (1 << 20)) port::fail("SPLITC_MPI_RING must be between 0 and 1M");
  const std::string_view mode = env::mpi_long.get();
  if (mode == "auto") t.long_mode = long_protocol::automatic;
  else if (mode == "inline" || mode == "staged") t.long_mode = long_protocol::staged;
  else if (mode == "rendezvous") t.long_mode = long_protocol::rendezvous;
  else t.long_mode = long_protocol::rma;
  // Measured defaults (docs/mpi.md): a staged copy never pays above the
  // packet size, so long payloads go by rendezvous; into a peer's segment,
  // by MPI_Put with Open MPI. Not with Debian's MPICH 4.0.2: it loses puts
  // from some origin buffers (docs/mpi.md), and its RMA is slower here.
  t.rendezvous_min = env::mpi_rendezvous_min.get(t.rendezvous_min);
#if defined(OPEN_MPI)
  t.rma_min = env::mpi_rma_min.get(1);
#else
  t.rma_min = env::mpi_rma_min.get(0);
#endif
  t.stage_limit = env::mpi_stage_limit.get(t.stage_limit);
  if (t.stage_limit < mpi_backend::max_long_bytes) t.stage_limit = mpi_backend::max_long_bytes;
  // 0: no limit, everything through the same-host rings.
  t.host_ring_long_max = env::mpi_host_ring_long_max.get(0);
  if (t.host_ring_long_max == 0) t.host_ring_long_max = SIZE_MAX;
  t.host_ring_reply_max = env::mpi_host_ring_reply_max.get(0);
  if (t.host_ring_reply_max == 0) t.host_ring_reply_max = SIZE_MAX;
  t.blocking_send_max = std::min(env::mpi_blocking_send_max.get(t.blocking_send_max), small_packet_max);
  t.compact = env::mpi_compact.get(t.compact);
}

/// Job size as the MPI launcher announces it (before MPI_Init), or 0.
long launcher_job_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS",
                           "SLURM_NTASKS"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return std::atol(v);
  }
  return 0;
}

// Split-C's global data segment assumes static data at the same address on
// every processor. splitc-run (and the smp launcher) turn address-space
// randomisation off for the job; under a plain mpirun this process turns it
// off for itself by re-executing, before MPI is initialised. Code before
// splitc::init therefore runs twice in that case; SPLITC_KEEP_ASLR=1 skips
// this (static data then differs in address between processors; the spread
// heap does not).
void reexec_without_aslr(start_arguments args) {
  if (launcher_job_size() <= 1 || args.argv == nullptr) return;
  port::reexec_without_randomisation(*args.argv);
}

// A launcher that ends the job at once may drop what the failing process
// wrote last (seen with MPICH's hydra): give it a moment to forward it.
void give_launcher_the_output() {
  timespec t{0, 50 * 1000 * 1000};
  nanosleep(&t, nullptr);
}

bool mpi_is_up() noexcept {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized != 0 && finalized == 0;
}

// A message on the backend's communicators that is not the backend's
// (a program holding the communicator could send one): a clear error
// rather than a handler run with its bytes.
[[noreturn, gnu::cold]] void foreign_message(const MPI_Status& st, int me) {
  int count = -1;
  MPI_Get_count(&st, MPI_BYTE, &count);
  port::fail(
      "mpi: processor {} received a message on the backend's communicator that is not a valid "
      "splitc packet (from processor {}, tag {}, {} bytes); only the backend may send on its "
      "communicator",
      me, st.MPI_SOURCE, st.MPI_TAG, count);
}

/// Is this compact packet well formed: its tag's fields in range, its
/// length the argument words the tag announces, not from ourselves?
[[gnu::always_inline]] inline bool compact_packet_ok(const MPI_Status& st, int me) noexcept {
  if (!wire::compact_tag_ok(st.MPI_TAG) || st.MPI_SOURCE == me) [[unlikely]]
    return false;
  int count = -1;
  MPI_Get_count(&st, MPI_BYTE, &count);
  return count == 8 * wire::compact_nargs(st.MPI_TAG);
}

}  // namespace

struct mpi_backend::recv_slot {
  unsigned char* buffer = nullptr;         ///< receives land at buffer + header_room
  unsigned char* packet = nullptr;         ///< the arrived packet's header (see landed)
  MPI_Request request = MPI_REQUEST_NULL;  ///< the pre-posted packet receive
  bool active = false;                     ///< its receive is posted (persistent: started)
  MPI_Request data = MPI_REQUEST_NULL;     ///< its payload, when it travels separately
  void* data_buffer = nullptr;             ///< medium payload received separately (owned)
  int source = -1;
};

struct mpi_backend::mpi_state {
  MPI_Comm comm = MPI_COMM_NULL;       ///< packets (any tag: packet_tag or compact)
  MPI_Comm data_comm = MPI_COMM_NULL;  ///< payloads that travel apart from their packet
  MPI_Win window = MPI_WIN_NULL;
  std::deque<recv_slot> storage;  ///< the slots themselves (stable addresses)
  std::vector<recv_slot*> slots;  ///< the ring: slot of seq is slots[seq & slot_mask_]
  std::vector<unsigned char*> buffers;  ///< receive buffers, freed at the end
  std::vector<MPI_Request> send_requests;
};

[[gnu::always_inline]] inline mpi_backend::recv_slot& mpi_backend::slot_at(
    std::uint64_t seq) noexcept {
  return *ring_[seq & slot_mask_];
}

int mpi_backend::communicator_fortran() const noexcept {
  return static_cast<int>(MPI_Comm_c2f(m_->comm));
}

bool mpi_backend::layer_initialized() noexcept {
  int initialized = 0;
  MPI_Initialized(&initialized);
  return initialized != 0;
}

void mpi_backend::abort_job(int code) noexcept {
  if (!mpi_is_up()) return;
  give_launcher_the_output();
  MPI_Abort(MPI_COMM_WORLD, code);
}

void mpi_backend::mpi_failed(int rc, const char* what) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int n = 0;
  MPI_Error_string(rc, text, &n);
  port::fail("mpi: {} failed: {}", what, std::string_view(text, static_cast<std::size_t>(n)));
}

mpi_backend::mpi_backend(start_arguments args) : m_(std::make_unique<mpi_state>()) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (finalized != 0) {
    port::fail("mpi: MPI was finalized before splitc::init; initialise splitc first and call "
                 "MPI_Finalize after splitc::finalize");
  }
  if (initialized == 0) reexec_without_aslr(args);

  // The symmetric segment: the same address in every process. Its shared memory also holds
  // this process's rings for messages from peers on this host, two per processor of the job:
  // as many as the launcher says (checked against MPI's count below).
  const port::segment_geometry segment = port::segment_from_environment();
  int ring_procs = 1;
  if (initialized != 0) MPI_Comm_size(MPI_COMM_WORLD, &ring_procs);
  else ring_procs = static_cast<int>(std::max(1L, launcher_job_size()));
  auto* base = same_host_.map_segment(name, segment, ring_procs, true);
  segment_base_ = segment.base;
  segment_size_ = segment.size;

  // Transparent huge pages for the segment where the kernel offers them on
  // request (SPLITC_MPI_HUGEPAGES=0 to leave it to the default).
  if (env::mpi_hugepages.get()) madvise(base, segment_size_, MADV_HUGEPAGE);

  if (initialized == 0) {
    int provided = 0;
    if (MPI_Init_thread(args.argc, args.argv, MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
      port::fail("mpi: MPI_Init_thread failed");
    owns_mpi_ = true;
  }
  // A process that leaves with a non-zero status while MPI is up ends the
  // whole job: otherwise its peers could wait for it forever.
  port::end_job_on_failing_exit(mpi_is_up, abort_job, "MPI job (MPI_Abort)");
  check(MPI_Comm_dup(MPI_COMM_WORLD, &m_->comm), "MPI_Comm_dup");
  check(MPI_Comm_set_errhandler(m_->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_dup(m_->comm, &m_->data_comm), "MPI_Comm_dup");
  int rank = 0, size = 1;
  check(MPI_Comm_rank(m_->comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(m_->comm, &size), "MPI_Comm_size");
  if (size == 1 && launcher_job_size() > 1) {
    // Another MPI's launcher: each process would be a job of its own.
    port::fail("mpi: the launcher started {} processes but {} sees a job of one: this program was "
                 "started by another MPI's launcher; start it with splitc-run --backend {}",
                 launcher_job_size(), name, name);
  }
  if (ring_procs > 1 && ring_procs != size) {
    port::fail("mpi: the launcher announced {} processes but MPI_COMM_WORLD has {}: the same-host "
               "message rings were made for the launcher's count; SPLITC_SAME_HOST_MESSAGES=0 "
               "keeps messages on MPI", ring_procs, size);
  }
  myproc_ = rank;
  procs_ = size;
  // The environment every splitc process has (as under splitc-run), for the
  // program and for error messages; SPLITC_JOB also keeps a child of this
  // process from launching a job of its own.
  setenv(env::myproc.name, std::to_string(rank).c_str(), 1);
  setenv(env::procs.name, std::to_string(size).c_str(), 1);
  setenv(env::job.name, "mpi", 0);
  {
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int n = 0;
    MPI_Get_library_version(version, &n);
    library_.assign(version, static_cast<std::size_t>(n));
    while (!library_.empty() && (library_.back() == '\n' || library_.back() == ' '))
      library_.pop_back();
    if (auto nl = library_.find('\n'); nl != std::string::npos) library_.resize(nl);
  }
  {
    // The processes on this host: a job number rank 0 draws, then the segments.
    std::uint64_t job = 0;
    if (rank == 0) {
      std::random_device entropy;
      job = (std::uint64_t{entropy()} << 32) ^ entropy() ^ static_cast<std::uint64_t>(getpid());
    }
    check(MPI_Bcast(&job, 1, MPI_UINT64_T, 0, m_->comm), "MPI_Bcast");
    same_host_.connect(name, myproc_, procs_, job,
                       {m_.get(),
                        [](void* state) {
                          auto* m = static_cast<mpi_state*>(state);
                          if (const int rc = MPI_Barrier(m->comm); rc != MPI_SUCCESS)
                            mpi_failed(rc, "MPI_Barrier");
                        },
                        nullptr});  // a finished MPI_Barrier leaves nothing to progress
    // The rings carry a message to every member of this host but this processor.
    rings_carry_all_ = same_host_.carries_any() &&
                       same_host_.members().size() == static_cast<std::size_t>(procs_);
  }
  read_tuning(tuning_, procs_);
  {
    // Compact packets need tags up to wire::compact_tag_max (the standard
    // promises only 32767; Open MPI 4.1 offers 2^31-1, MPICH 4.0 2^28-1).
    void* value = nullptr;
    int found = 0;
    check(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found), "MPI_Comm_get_attr");
    const int tag_ub = found != 0 ? *static_cast<int*>(value) : 32767;
    if (tag_ub < wire::compact_tag_max) tuning_.compact = false;
  }

  credits_.assign(static_cast<std::size_t>(procs_), tuning_.credits);
  credit_threshold_ = std::max(1, tuning_.credits / 2);
  owed_.assign(static_cast<std::size_t>(procs_), 0);
  int rounds = 0;
  for (int d = 1; d < procs_; d *= 2) ++rounds;
  barrier_tokens_.assign(static_cast<std::size_t>(rounds) + 1, 0);

  if (procs_ > 1) {
    // The window over every segment, for MPI_Put of large payloads. Created
    // when the tuning may use it (SPLITC_MPI_WINDOW=1 forces, 0 forbids).
    // Atomics on the window too when asked (SPLITC_MPI_ATOMICS=mpi; mpi.hpp).
    const bool mpi_atomics = env::mpi_atomics.get() == "mpi";
    const bool want = env::mpi_window.get(tuning_.long_mode == long_protocol::rma ||
                                          tuning_.rma_min != 0 || mpi_atomics);
    if (want) {
      MPI_Info info;
      MPI_Info_create(&info);
      MPI_Info_set(info, "accumulate_ordering", "none");
      const int rc = MPI_Win_create(base, static_cast<MPI_Aint>(segment_size_), 1, info, m_->comm,
                                    &m_->window);
      MPI_Info_free(&info);
      const int ok = rc == MPI_SUCCESS ? 1 : 0;
      int all_ok = 0;
      check(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, m_->comm), "MPI_Allreduce");
      if (all_ok != 0) {
        check(MPI_Win_set_errhandler(m_->window, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
        check(MPI_Win_lock_all(MPI_MODE_NOCHECK, m_->window), "MPI_Win_lock_all");
        has_window_ = true;
        native_atomics_ = mpi_atomics;
      } else if (ok != 0) {
        MPI_Win_free(&m_->window);
      }
      m_->window = has_window_ ? m_->window : MPI_WIN_NULL;
    }
    if (mpi_atomics && !has_window_) {
      port::fail("mpi: SPLITC_MPI_ATOMICS=mpi needs the MPI window over the segments, which {}",
                 want ? "MPI_Win_create did not make on every process"
                      : "SPLITC_MPI_WINDOW=0 forbids");
    }

    // The ring of pre-posted packet receives. Requests are counted against
    // credits; replies are not (each answers a request, so they are bounded
    // by the requests in flight), which keeps a reply from ever waiting.
    // A ring smaller than that leaves the rest to MPI's unexpected-message
    // queue (bounded by the same credits), and grows when it must.
    const std::size_t peers = static_cast<std::size_t>(procs_ - 1);
    const std::size_t in_flight =
        peers * (2 * static_cast<std::size_t>(tuning_.credits) +
                 static_cast<std::size_t>(tuning_.reserve));
    ring_limit_ = 2;  // powers of two: the ring index is a mask
    while (ring_limit_ < in_flight) ring_limit_ *= 2;
    const std::size_t first =
        tuning_.ring == 0 ? ring_limit_
                          : std::min(ring_limit_, static_cast<std::size_t>(tuning_.ring));
    std::size_t n = 2;
    while (n < first) n *= 2;
    for (int i = 0; i < 16; ++i) {  // send buffers; more are made when needed
      auto* b = static_cast<unsigned char*>(std::aligned_alloc(64, tuning_.packet_bytes));
      if (b == nullptr) port::fail("mpi: out of memory for send buffers");
      all_buffers_.push_back(b);
      free_buffers_.push_back(b);
    }
    m_->slots.resize(n);
    ring_ = m_->slots.data();
    slot_mask_ = n - 1;
    for (std::size_t i = 0; i < n; ++i) {
      recv_slot& s = m_->storage.emplace_back();
      m_->slots[i] = &s;
      open_slot(s);
    }
  }
}

// A new slot: its buffer, its persistent receive, posted.
void mpi_backend::open_slot(recv_slot& s) {
  static_assert(wire::header_room <= 64);
  s.buffer = static_cast<unsigned char*>(std::aligned_alloc(64, tuning_.packet_bytes + 64));
  if (s.buffer == nullptr) port::fail("mpi: out of memory for receive buffers");
  m_->buffers.push_back(s.buffer);
  check(MPI_Recv_init(s.buffer + wire::header_room, static_cast<int>(tuning_.packet_bytes),
                      MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, m_->comm, &s.request),
        "MPI_Recv_init");
  repost(s);
}

mpi_backend::~mpi_backend() {
  for (unsigned char* b : all_buffers_) std::free(b);
  if (m_) for (unsigned char* b : m_->buffers) std::free(b);
  for (auto& pool : stage_pool_)
    for (void* p : pool) std::free(p);
  port::release_segment({segment_base_, segment_size_}, 1);
}

// ---- receiving ------------------------------------------------------------------

void mpi_backend::repost(recv_slot& s) {
  check(MPI_Start(&s.request), "MPI_Start");
  s.active = true;
}

// Look at the next packet, if it has arrived: take its credits, count
// barrier tokens, and post the receive of a payload that travels separately
// (at its destination address, for long messages). Core handlers do not run
// here, so this may be called while a send waits.
bool mpi_backend::advance_scan() {
  recv_slot& s = slot_at(scan_);
  int done = 0;
  MPI_Status st;
  check(MPI_Test(&s.request, &done, &st), "MPI_Test");
  if (done == 0) return false;
  landed(s, &st);
  arrived(s);
  return true;
}

// Where the packet that completed this receive starts. A compact one gets
// the header its tag stands for, written in the room before its words.
void mpi_backend::landed(recv_slot& s, const void* status) {
  const MPI_Status& st = *static_cast<const MPI_Status*>(status);
  s.active = false;
  if (wire::is_compact(st.MPI_TAG)) {
    if (!compact_packet_ok(st, myproc_)) foreign_message(st, myproc_);
    packet_header h{};
    h.handler = wire::compact_handler(st.MPI_TAG);
    h.type = wire::packet_type(am_kind::short_msg, wire::compact_is_request(st.MPI_TAG),
                               wire::mode_inline);
    h.nargs = static_cast<std::uint8_t>(wire::compact_nargs(st.MPI_TAG));
    h.credits = static_cast<std::uint32_t>(wire::compact_credits(st.MPI_TAG));
    h.length = 0;
    h.source = st.MPI_SOURCE;
    std::memcpy(s.buffer, &h, sizeof h);
    s.packet = s.buffer;
  } else {
    if (st.MPI_TAG != packet_tag) foreign_message(st, myproc_);
    s.packet = s.buffer + wire::header_room;
  }
}

void mpi_backend::arrived(recv_slot& s) {
  const auto* h = reinterpret_cast<const packet_header*>(s.packet);
  if (!header_ok(*h)) [[unlikely]] bad_packet(h);
  s.source = h->source;
  preprocess(s);
  ++scan_;
}

// Only the backend sends on its communicator, but a program holding it
// (communicator_fortran) could send there too: a packet that is not ours
// ends the job with a clear error rather than indexing with its fields.
// A few compares, on every packet.
[[gnu::always_inline]] inline bool mpi_backend::header_ok(const wire::packet_header& h) const noexcept {
  const std::uint8_t type = h.type;
  if (static_cast<unsigned>(h.source) >= static_cast<unsigned>(procs_) || h.source == myproc_ ||
      h.nargs > am_max_args) [[unlikely]]
    return false;
  if ((type & wire::control_bit) != 0)
    return type == wire::control_credit || type == wire::control_barrier;
  const std::uint8_t mode = wire::mode_of(type);
  const am_kind kind = wire::kind_of(type);
  if ((type & 0x60) != 0 || static_cast<unsigned>(kind) > static_cast<unsigned>(am_kind::long_msg))
    return false;
  if (kind == am_kind::short_msg) return mode == wire::mode_inline && h.length == 0;
  if (mode == wire::mode_inline)
    return wire::prefix_bytes(kind, h.nargs) + h.length <= tuning_.packet_bytes;
  return (mode == wire::mode_data || (mode == wire::mode_in_place && kind == am_kind::long_msg)) &&
         h.length <= (kind == am_kind::medium_msg ? max_medium_bytes : max_long_bytes);
}

void mpi_backend::bad_packet(const void* header) const {
  const auto& h = *static_cast<const packet_header*>(header);
  port::fail(
      "mpi: processor {} received a message on the backend's communicator that is not a valid "
      "splitc packet (source field {}, type 0x{:02x}, {} argument words, length {}); only the "
      "backend may send on its communicator",
      myproc_, h.source, static_cast<unsigned>(h.type), static_cast<unsigned>(h.nargs),
      static_cast<unsigned>(h.length));
}

void mpi_backend::preprocess(recv_slot& s) {
  const auto* h = reinterpret_cast<const packet_header*>(s.packet);
  ++stats_.packets_received;
  credits_[static_cast<std::size_t>(s.source)] += static_cast<int>(h->credits);
  if ((h->type & wire::control_bit) != 0) {
    if (h->type == wire::control_barrier && h->length < barrier_tokens_.size())
      ++barrier_tokens_[h->length];
    return;
  }
  if (wire::mode_of(h->type) != wire::mode_data) return;
  const std::size_t len = h->length;
  void* into = nullptr;
  if (wire::kind_of(h->type) == am_kind::long_msg) {
    std::memcpy(&into, s.packet + sizeof(packet_header), 8);
  } else {
    s.data_buffer = std::malloc(std::max<std::size_t>(len, 1));
    if (s.data_buffer == nullptr) port::fail("mpi: out of memory for a {}-byte message", len);
    into = s.data_buffer;
  }
  check(MPI_Irecv(into, static_cast<int>(len), MPI_BYTE, s.source, data_tag, m_->data_comm,
                  &s.data),
        "MPI_Irecv (payload)");
}

// Look at every packet that has arrived, without running handlers: a send
// that waits does this so that peers' payload receives get posted. When
// every receive of the ring holds a packet seen but not delivered, the ring
// grows (a packet the waiting peer needs may be behind them); at its limit
// it holds every packet that can be in flight.
void mpi_backend::look_ahead() {
  for (;;) {
    if (reposted_ != head_) flush_reposts();
    if (scan_ == reposted_ + m_->slots.size() && !grow_ring()) return;
    if (!advance_scan()) return;
  }
}

// Double the ring. Posted receives keep their place in MPI's matching order:
// the new slots take the sequence numbers after the posted ones and are
// posted now, before any slot is posted again.
bool mpi_backend::grow_ring() {
  const std::size_t old_n = m_->slots.size();
  if (old_n >= ring_limit_) return false;
  const std::size_t n = old_n * 2;
  std::vector<recv_slot*> grown(n, nullptr);
  for (std::uint64_t seq = reposted_; seq < reposted_ + old_n; ++seq)
    grown[seq & (n - 1)] = m_->slots[seq & (old_n - 1)];
  m_->slots = std::move(grown);
  ring_ = m_->slots.data();
  slot_mask_ = n - 1;
  for (std::uint64_t seq = reposted_ + old_n; seq < reposted_ + n; ++seq) {
    recv_slot& s = m_->storage.emplace_back();
    m_->slots[seq & (n - 1)] = &s;
    open_slot(s);
  }
  ++stats_.ring_grown;
  return true;
}

// Post again, in order, the receives of the packets delivered so far.
void mpi_backend::flush_reposts() {
  while (reposted_ != head_) {
    repost(slot_at(reposted_));
    ++reposted_;
  }
}

// A request from `source` was delivered: its credit is owed back, piggy-backed
// on the next packet there, or in a credit packet once half are owed.
[[gnu::always_inline]] inline void mpi_backend::owe_credit(proc_t source) {
  int& owed = owed_[static_cast<std::size_t>(source)];
  if (++owed >= credit_threshold_) [[unlikely]] {
    if (!send_control(source, wire::control_credit, 0)) credits_owed_ = busy_ = true;
  }
}

// Deliver the packet at the head (its payload is complete) and re-post it.
void mpi_backend::retire(recv_slot& s, am_sink* sink) {
  const auto* h = reinterpret_cast<const packet_header*>(s.packet);
  const bool control = (h->type & wire::control_bit) != 0;
  const bool counted = !control && (h->type & wire::request_bit) != 0;
  const int source = s.source;
  if (!control && sink != nullptr) {
    am_message m{};
    m.source = source;
    m.handler = static_cast<handler_id>(h->handler);
    m.kind = wire::kind_of(h->type);
    m.is_request = (h->type & wire::request_bit) != 0;
    m.nargs = h->nargs;
    unsigned char* p = s.packet + sizeof(packet_header);
    void* dst = nullptr;
    if (m.kind == am_kind::long_msg) {
      std::memcpy(&dst, p, 8);
      p += 8;
    }
    m.args = reinterpret_cast<const am_word*>(p);
    p += 8 * static_cast<std::size_t>(h->nargs);
    const std::uint8_t mode = wire::mode_of(h->type);
    switch (m.kind) {
      case am_kind::short_msg:
        m.payload = nullptr;
        m.length = 0;
        break;
      case am_kind::medium_msg:
        m.payload = mode == wire::mode_data ? s.data_buffer : p;
        m.length = h->length;
        break;
      case am_kind::long_msg:
        if (mode == wire::mode_inline && h->length != 0) std::memcpy(dst, p, h->length);
        if (mode == wire::mode_in_place) {
          // Put by MPI_Put (sync the window) or copied by a same-host peer.
          if (has_window_) MPI_Win_sync(m_->window);
          std::atomic_thread_fence(std::memory_order_acquire);
        }
        m.payload = dst;
        m.length = h->length;
        break;
    }
    sink->deliver(sink->context, m);
  }
  if (s.data_buffer != nullptr) {
    std::free(s.data_buffer);
    s.data_buffer = nullptr;
  }
  // The receive is posted again at the start of the next poll, not here:
  // a requester waiting for this reply sends its next request first.
  if (counted) owe_credit(source);
}

int mpi_backend::deliver_loopback(am_sink sink) {
  int handled = 0;
  // Only what is here now: handlers may send to themselves again.
  for (std::size_t n = loopback_.size(); n > 0 && !loopback_.empty(); --n) {
    loop_message msg = std::move(loopback_.front());
    loopback_.pop_front();
    am_message m{};
    m.source = myproc_;
    m.handler = msg.handler;
    m.kind = msg.kind;
    m.is_request = msg.is_request;
    m.nargs = msg.nargs;
    m.args = msg.args;
    m.length = msg.length;
    m.payload = msg.kind == am_kind::medium_msg ? static_cast<void*>(msg.payload.data())
                                                : msg.dst;
    sink.deliver(sink.context, m);
    ++handled;
  }
  return handled;
}

// The idle poll's delivery of the packet at the head, complete in its
// receive buffer (which is posted again at the next poll).
[[gnu::always_inline]] inline int mpi_backend::deliver_at_head(const am_message& m, int credits,
                                                               am_sink sink) {
  const auto source = static_cast<std::size_t>(m.source);
  ++scan_;
  ++stats_.packets_received;
  credits_[source] += credits;
  sink.deliver(sink.context, m);
  ++head_;
  if (m.is_request) owe_credit(m.source);
  return 1;
}

// The idle poll, the loop every waiting processor spins in, is kept to one
// MPI_Test and a few loads: a message is noticed on average half a poll
// after it lands, so every instruction here is latency (docs/mpi.md). The
// receive of the packet delivered last is posted again here, at the next
// poll (after the handler's reply has gone).
int mpi_backend::poll(am_sink sink) {
  if (!same_host_.carries_any()) return poll_mpi(sink);
  const int from_rings = same_host_.poll(sink);
  if (from_rings != 0) polls_since_ring_ = 0;
  else if (polls_since_ring_ < host_ring_recent_polls) ++polls_since_ring_;
  if (busy_) return from_rings + poll_mpi(sink);
  if (polls_since_ring_ < host_ring_recent_polls && (++poll_count_ & (mpi_test_every - 1)) != 0)
    return from_rings;
  if (rings_carry_all_ && port::oversubscribed)
    return from_rings + poll_mpi_unless_yields_slow(sink);
  return from_rings + poll_mpi(sink);
}

// On a host with more of the job's processes than cores, Open MPI yields the core inside an
// MPI_Test that finds nothing. While the other processes are the job's, that yield is what a
// waiter should do; while other programs hold the cores (port::yielding_pays false), it hands
// the core over for a whole time slice, and a wait whose condition is a store (a mailbox
// mapped here) paid one at nearly every step (docs/running.md, "Beside other programs").
// Where the rings carry every other processor, MPI carries only what they refuse (a medium
// message too large for a record, and its credits), so then it is tested after a gap that
// doubles from mpi_test_gap_min_ns to mpi_test_gap_max_ns while it finds nothing, and at once
// again once it finds a packet (a stream of such messages keeps its pace). Each test is timed:
// one that took a slow yield's time counts as one (port::note_yield), so the rule sees Open
// MPI's yields.
int mpi_backend::poll_mpi_unless_yields_slow(am_sink sink) {
  const std::uint64_t start = port::monotonic_ns();
  const bool quick = port::yielding_pays(start);
  if (!quick && start - last_mpi_test_ns_ < mpi_test_gap_ns_) return 0;
  const std::uint64_t packets_before = head_;
  const int got = poll_mpi(sink);
  last_mpi_test_ns_ = port::monotonic_ns();
  port::note_yield(start, last_mpi_test_ns_);
  if (head_ != packets_before || busy_) mpi_test_gap_ns_ = 0;
  else if (!quick)
    mpi_test_gap_ns_ = std::clamp(2 * mpi_test_gap_ns_, mpi_test_gap_min_ns, mpi_test_gap_max_ns);
  return got;
}

// A wait for what comes over MPI (the backend's barrier packets) looks at it on every poll.
int mpi_backend::poll_rings_and_mpi(am_sink sink) {
  return (same_host_.carries_any() ? same_host_.poll(sink) : 0) + poll_mpi(sink);
}

int mpi_backend::poll_mpi(am_sink sink) {
  if (!busy_ && scan_ == head_) [[likely]] {
    if (reposted_ != head_) flush_reposts();
    recv_slot& s = slot_at(head_);
    int done = 0;
    MPI_Status st;
    check(MPI_Test(&s.request, &done, &st), "MPI_Test");
    if (done == 0) return 0;
    // The common arrivals, a compact packet or a short or medium message
    // complete in its packet: delivered from here, without the general loop.
    const int tag = st.MPI_TAG;
    if (wire::is_compact(tag)) [[likely]] {
      s.active = false;
      if (!compact_packet_ok(st, myproc_)) [[unlikely]] foreign_message(st, myproc_);
      am_message m;
      m.source = st.MPI_SOURCE;
      m.handler = static_cast<handler_id>(wire::compact_handler(tag));
      m.kind = am_kind::short_msg;
      m.is_request = wire::compact_is_request(tag);
      m.nargs = wire::compact_nargs(tag);
      m.args = reinterpret_cast<const am_word*>(s.buffer + wire::header_room);
      m.payload = nullptr;
      m.length = 0;
      return deliver_at_head(m, wire::compact_credits(tag), sink);
    }
    landed(s, &st);
    const auto* h = reinterpret_cast<const packet_header*>(s.packet);
    if (!header_ok(*h)) [[unlikely]] bad_packet(h);
    const std::uint8_t type = h->type;
    constexpr std::uint8_t not_fast =
        wire::control_bit | wire::mode_mask | static_cast<std::uint8_t>(am_kind::long_msg);
    if ((type & not_fast) == 0) [[likely]] {
      am_message m;
      m.source = h->source;
      m.handler = static_cast<handler_id>(h->handler);
      m.kind = wire::kind_of(type);
      m.is_request = (type & wire::request_bit) != 0;
      m.nargs = h->nargs;
      m.args = reinterpret_cast<const am_word*>(s.packet + sizeof(packet_header));
      m.payload = m.kind == am_kind::medium_msg ? const_cast<am_word*>(m.args) + m.nargs : nullptr;
      m.length = h->length;  // 0 for a short message (header_ok)
      return deliver_at_head(m, static_cast<int>(h->credits), sink);
    }
    s.source = h->source;
    preprocess(s);
    ++scan_;
  }
  return poll_full(sink);
}

int mpi_backend::poll_full(am_sink sink) {
  int handled = 0;
  if (!loopback_.empty()) handled += deliver_loopback(sink);
  if (m_->slots.empty()) return handled;
  if (reposted_ != head_) flush_reposts();
  // Bounded, so a flood from one peer cannot keep the caller here forever.
  // Packets already seen (by a send's look-ahead) are delivered without MPI
  // calls; a new one costs an MPI_Test, and once something has run this
  // poll returns rather than pay another MPI_Test (that would sit between a
  // reply and the requester's next step).
  for (int i = 0; i < 64; ++i) {
    if (scan_ == head_) {
      if (i != 0) break;
      if (scan_ >= reposted_ + m_->slots.size()) flush_reposts();
      if (!advance_scan()) break;
    }
    recv_slot& s = slot_at(head_);
    if (s.data != MPI_REQUEST_NULL) {
      int done = 0;
      check(MPI_Test(&s.data, &done, MPI_STATUS_IGNORE), "MPI_Test (payload)");
      if (done == 0) break;  // in order: later packets wait for this payload
    }
    const bool control = (reinterpret_cast<const packet_header*>(s.packet)->type &
                          wire::control_bit) != 0;
    retire(s, &sink);
    ++head_;
    if (!control) ++handled;
  }
  if (!m_->send_requests.empty()) reclaim_sends();
  if (credits_owed_) flush_owed_credits();
  busy_ = m_->slots.empty() || !loopback_.empty() || !m_->send_requests.empty() || credits_owed_;
  return handled;
}

void mpi_backend::flush_owed_credits() {
  credits_owed_ = false;
  for (proc_t q = 0; q < procs_; ++q) {
    if (owed_[static_cast<std::size_t>(q)] >= credit_threshold_ &&
        !send_control(q, wire::control_credit, 0))
      credits_owed_ = busy_ = true;
  }
}

// ---- sending ----------------------------------------------------------------------

unsigned char* mpi_backend::take_buffer() {
  if (free_buffers_.empty()) {
    if (all_buffers_.size() >= 4096) reclaim_sends();
    if (free_buffers_.empty()) {
      if (all_buffers_.size() >= 4096) return nullptr;
      auto* b = static_cast<unsigned char*>(std::aligned_alloc(64, tuning_.packet_bytes));
      if (b == nullptr) return nullptr;
      all_buffers_.push_back(b);
      return b;
    }
  }
  unsigned char* b = free_buffers_.back();
  free_buffers_.pop_back();
  return b;
}

void mpi_backend::track(void* request_ptr, unsigned char* buffer, void* staging,
                        std::size_t staged, counter* source_free) {
  ++stats_.sends_tracked;
  busy_ = true;
  m_->send_requests.push_back(*static_cast<MPI_Request*>(request_ptr));
  send_meta_.push_back({buffer, staging, staged, source_free});
}

void mpi_backend::reclaim_sends() {
  const int n = static_cast<int>(m_->send_requests.size());
  if (n == 0) return;
  int done = 0;
  check(MPI_Testall(n, m_->send_requests.data(), &done, MPI_STATUSES_IGNORE) , "MPI_Testall");
  if (done == 0) {
    // Some are still going: release the finished ones one by one.
    for (int i = 0; i < n; ++i) {
      if (m_->send_requests[static_cast<std::size_t>(i)] == MPI_REQUEST_NULL) continue;
      int one = 0;
      check(MPI_Test(&m_->send_requests[static_cast<std::size_t>(i)], &one, MPI_STATUS_IGNORE),
            "MPI_Test (send)");
    }
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < m_->send_requests.size(); ++i) {
    if (m_->send_requests[i] == MPI_REQUEST_NULL) {
      in_flight& m = send_meta_[i];
      if (m.buffer != nullptr) free_buffers_.push_back(m.buffer);
      if (m.staging != nullptr) {
        stage_give(m.staging, m.staged_bytes);
        staged_bytes_ -= m.staged_bytes;
      }
      if (m.source_free != nullptr) m.source_free->add_local(-1);
    } else {
      m_->send_requests[kept] = m_->send_requests[i];
      send_meta_[kept] = send_meta_[i];
      ++kept;
    }
  }
  m_->send_requests.resize(kept);
  send_meta_.resize(kept);
}

// Wait for one of our own sends (a rendezvous payload) to complete. Its
// completion needs the receiver to have posted the payload's receive, which
// it does as soon as its MPI layer shows it the packet; meanwhile this
// process does the same for packets sent to it (look_ahead), so two
// processes sending to each other cannot deadlock. Core handlers do not run.
void mpi_backend::wait_request(void* request_ptr) {
  MPI_Request& request = *static_cast<MPI_Request*>(request_ptr);
  int done = 0;
  check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (send)");
  if (done != 0) return;
  ++stats_.send_waits;
  ++in_send_wait_;
  // The receiver is copying (a megabyte takes a fraction of a millisecond):
  // spin, then yield, but do not sleep for long, or each large transfer
  // would end with a nap. While yields are slow (other programs hold the
  // cores: port/backoff.hpp), the short sleep instead.
  for (std::uint32_t round = 0;; ++round) {
    look_ahead();
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test (send)");
    if (done != 0) break;
    if (round < 2000) {
      port::cpu_relax();
    } else if (round >= 200000 || !port::yield_if_it_pays()) {
      timespec t{0, 20000};
      nanosleep(&t, nullptr);
    }
  }
  --in_send_wait_;
}

// Staging buffers come in powers of two from 4 KiB and are kept for reuse
// (up to the staging limit): a fresh large malloc costs a page fault per
// page, more than the copy itself.
std::size_t mpi_backend::stage_capacity(std::size_t len) noexcept {
  std::size_t c = 4096;
  while (c < len) c *= 2;
  return c;
}

void* mpi_backend::stage_take(std::size_t len) {
  const std::size_t cap = stage_capacity(len);
  const auto k = static_cast<std::size_t>(__builtin_ctzll(cap));
  if (k < stage_pool_.size() && !stage_pool_[k].empty()) {
    void* p = stage_pool_[k].back();
    stage_pool_[k].pop_back();
    pooled_bytes_ -= cap;
    return p;
  }
  return std::aligned_alloc(64, cap);
}

void mpi_backend::stage_give(void* p, std::size_t cap) {
  const auto k = static_cast<std::size_t>(__builtin_ctzll(cap));
  if (pooled_bytes_ + cap > tuning_.stage_limit) {
    std::free(p);
    return;
  }
  if (stage_pool_.size() <= k) stage_pool_.resize(k + 1);
  stage_pool_[k].push_back(p);
  pooled_bytes_ += cap;
}

bool mpi_backend::in_segment(const void* dst, std::size_t len) const noexcept {
  const auto a = reinterpret_cast<std::uintptr_t>(dst);
  return a >= segment_base_ && len <= segment_size_ && a - segment_base_ <= segment_size_ - len;
}

bool mpi_backend::rma_target(proc_t, const void* dst, std::size_t len) const noexcept {
  return has_window_ && in_segment(dst, len);
}

// One atomic on a word of p's segment by MPI's accumulate operations, complete
// (flushed) when it returns; the old value in the low `size` bytes. Every op
// here has a predefined MPI_Op on MPI_UINT32_T/MPI_UINT64_T, so the one-sided
// component applies all of them alike (Open MPI's osc rdma: the transport's
// atomics, or all under the target's accumulate lock) and they stay atomic with
// respect to each other on one word; min, max and floating-point add the core
// composes of MPI_NO_OP and MPI_Compare_and_swap.
std::uint64_t mpi_backend::native_atomic(proc_t p, void* target, native_atomic_op op,
                                         std::size_t size, std::uint64_t operand,
                                         std::uint64_t desired) {
  MPI_Op mpi_op = MPI_SUM;
  switch (op) {
    case native_atomic_op::compare_swap: break;
    case native_atomic_op::fetch_add: mpi_op = MPI_SUM; break;
    case native_atomic_op::swap: mpi_op = MPI_REPLACE; break;
    case native_atomic_op::fetch_and: mpi_op = MPI_BAND; break;
    case native_atomic_op::fetch_or: mpi_op = MPI_BOR; break;
    case native_atomic_op::fetch_xor: mpi_op = MPI_BXOR; break;
    case native_atomic_op::load: mpi_op = MPI_NO_OP; break;
    default:
      port::fail("mpi: native atomic operation {} is not among native_atomic_ops",
                 static_cast<int>(op));
  }
  const auto disp = static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(target) - segment_base_);
  // The operands and the result in the word's own width.
  auto apply = [&]<class W>(W a, W d, MPI_Datatype type) {
    W old = 0;
    if (op == native_atomic_op::compare_swap)
      check(MPI_Compare_and_swap(&d, &a, &old, type, p, disp, m_->window), "MPI_Compare_and_swap");
    else
      check(MPI_Fetch_and_op(&a, &old, type, p, disp, mpi_op, m_->window), "MPI_Fetch_and_op");
    check(MPI_Win_flush(p, m_->window), "MPI_Win_flush");
    return static_cast<std::uint64_t>(old);
  };
  ++stats_.native_atomics;
  if (size == 4)
    return apply(static_cast<std::uint32_t>(operand), static_cast<std::uint32_t>(desired),
                 MPI_UINT32_T);
  return apply(operand, desired, MPI_UINT64_T);
}

bool mpi_backend::same_host_target(proc_t p, const void* dst, std::size_t len) const noexcept {
  return in_segment(dst, len) && same_host_.address(p, dst) != nullptr;
}

// Send a packet buffer and take it back when MPI is done with it. Small
// packets go by a blocking MPI_Send: below the eager limit it returns as soon
// as the data is copied out (with Open MPI's ob1, by the same inline path as
// MPI_Isend, but without a request to test and free); the receive waiting
// for it is pre-posted anyway. Larger ones by MPI_Isend, tracked until done.
void mpi_backend::transmit(proc_t p, unsigned char* b, std::size_t bytes) {
  ++stats_.packets_sent;
  if (bytes <= tuning_.blocking_send_max) [[likely]] {
    check(MPI_Send(b, static_cast<int>(bytes), MPI_BYTE, p, packet_tag, m_->comm), "MPI_Send");
    free_buffers_.push_back(b);
    return;
  }
  MPI_Request r;
  check(MPI_Isend(b, static_cast<int>(bytes), MPI_BYTE, p, packet_tag, m_->comm, &r), "MPI_Isend");
  int done = 0;
  check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test (send)");
  if (done != 0) free_buffers_.push_back(b);
  else track(&r, b, nullptr, 0);
}

bool mpi_backend::send_control(proc_t p, std::uint8_t type, std::uint64_t value) {
  unsigned char* b = take_buffer();
  if (b == nullptr) return false;
  auto* h = reinterpret_cast<packet_header*>(b);
  auto& owed = owed_[static_cast<std::size_t>(p)];
  h->handler = 0;
  h->type = type;
  h->nargs = 0;
  h->credits = static_cast<std::uint32_t>(owed);
  h->length = static_cast<std::uint32_t>(value);
  h->source = myproc_;
  transmit(p, b, sizeof(packet_header));
  owed = 0;
  if (type == wire::control_credit) ++stats_.credit_packets;
  return true;
}

am_status mpi_backend::send_self(bool is_request, am_kind kind, handler_id h, const am_word* a,
                                 int n, const void* src, std::size_t len, void* dst) {
  loop_message& m = loopback_.emplace_back();
  busy_ = true;
  m.is_request = is_request;
  m.kind = kind;
  m.handler = h;
  m.nargs = n;
  if (n > 0) std::memcpy(m.args, a, 8 * static_cast<std::size_t>(n));
  m.dst = dst;
  m.length = kind == am_kind::short_msg ? 0 : len;
  if (kind == am_kind::medium_msg) {
    m.payload.assign(static_cast<const unsigned char*>(src),
                     static_cast<const unsigned char*>(src) + len);
  } else if (kind == am_kind::long_msg && len != 0) {
    std::memmove(dst, src, len);
  }
  return am_status::ok;
}

// A short message, the commonest of all: header and argument words built on
// the stack and sent by MPI_Send, nothing else (what `send` does for it,
// without the cases that cannot arise).
am_status mpi_backend::send_short(proc_t p, bool is_request, handler_id h, const am_word* a,
                                  int n) {
  if (same_host_.carries(p))
    if (auto s = send_on_host_ring(p, is_request, am_kind::short_msg, h, a, n, nullptr, 0, nullptr))
      return *s;
  const std::size_t bytes = sizeof(packet_header) + 8 * static_cast<std::size_t>(n);
  if (p == myproc_ || bytes > tuning_.blocking_send_max ||
      static_cast<unsigned>(n) > static_cast<unsigned>(am_max_args)) [[unlikely]]
    return send(p, is_request, am_kind::short_msg, h, a, n, nullptr, 0, nullptr);
  const auto pi = static_cast<std::size_t>(p);
  if (is_request) {
    if (credits_[pi] <= 0) [[unlikely]] {
      ++stats_.no_credit;
      return am_status::no_resource;
    }
    --credits_[pi];
  }
  int& owed = owed_[pi];
  if (tuning_.compact && owed <= wire::compact_credits_max) [[likely]] {
    // The header travels in the tag; the words are sent from where they are.
    const int tag = wire::compact_tag(static_cast<std::uint16_t>(h), is_request, owed, n);
    owed = 0;
    ++stats_.packets_sent;
    ++stats_.compact_sent;
    check(MPI_Send(a, 8 * n, MPI_BYTE, p, tag, m_->comm), "MPI_Send");
    return am_status::ok;
  }
  alignas(16) unsigned char b[sizeof(packet_header) + 8 * am_max_args];
  auto* hdr = reinterpret_cast<packet_header*>(b);
  hdr->handler = static_cast<std::uint16_t>(h);
  hdr->type = wire::packet_type(am_kind::short_msg, is_request, wire::mode_inline);
  hdr->nargs = static_cast<std::uint8_t>(n);
  hdr->credits = static_cast<std::uint32_t>(owed);
  hdr->length = 0;
  hdr->source = myproc_;
  owed = 0;
  copy_words(reinterpret_cast<am_word*>(b + sizeof(packet_header)), a, n);
  ++stats_.packets_sent;
  check(MPI_Send(b, static_cast<int>(bytes), MPI_BYTE, p, packet_tag, m_->comm), "MPI_Send");
  return am_status::ok;
}

// The common case, kept short: a packet that carries everything inline.
am_status mpi_backend::send(proc_t p, bool is_request, am_kind kind, handler_id h,
                            const am_word* a, int n, const void* src, std::size_t len, void* dst) {
  if (same_host_.carries(p))
    if (auto s = send_on_host_ring(p, is_request, kind, h, a, n, src, len, dst)) return *s;
  const auto pi = static_cast<std::size_t>(p);
  const std::size_t bytes = wire::prefix_bytes(kind, n) + len;
  // Small packets are built on the stack and go by MPI_Send (transmit);
  // others need a packet buffer that lives until MPI is done with it.
  alignas(16) unsigned char small[small_packet_max];
  const bool blocking = bytes <= tuning_.blocking_send_max && bytes <= small_packet_max;
  if (p == myproc_ || bytes > tuning_.packet_bytes || (!blocking && free_buffers_.empty()) ||
      static_cast<unsigned>(n) > static_cast<unsigned>(am_max_args)) [[unlikely]]
    return send_packet(p, is_request, kind, h, a, n, src, len, dst);
  if (is_request) {
    if (credits_[pi] <= 0) [[unlikely]] {
      ++stats_.no_credit;
      return am_status::no_resource;
    }
    --credits_[pi];
  }
  unsigned char* b = small;
  if (!blocking) {
    b = free_buffers_.back();
    free_buffers_.pop_back();
  }
  auto* hdr = reinterpret_cast<packet_header*>(b);
  int& owed = owed_[pi];
  hdr->handler = static_cast<std::uint16_t>(h);
  hdr->type = wire::packet_type(kind, is_request, wire::mode_inline);
  hdr->nargs = static_cast<std::uint8_t>(n);
  hdr->credits = static_cast<std::uint32_t>(owed);
  hdr->length = static_cast<std::uint32_t>(len);
  hdr->source = myproc_;
  owed = 0;
  auto* w = reinterpret_cast<am_word*>(b + sizeof(packet_header));
  if (kind == am_kind::long_msg) {
    std::memcpy(w, &dst, 8);
    ++w;
    if (len != 0) ++stats_.inline_longs;
  }
  copy_words(w, a, n);
  if (len != 0) std::memcpy(w + n, src, len);
  if (blocking) {
    ++stats_.packets_sent;
    check(MPI_Send(b, static_cast<int>(bytes), MPI_BYTE, p, packet_tag, m_->comm), "MPI_Send");
  } else {
    transmit(p, b, bytes);
  }
  return am_status::ok;
}

std::optional<am_status> mpi_backend::send_on_host_ring(proc_t p, bool is_request, am_kind kind,
                                                        handler_id h, const am_word* a, int n,
                                                        const void* src, std::size_t len,
                                                        void* dst) {
  if (static_cast<unsigned>(n) > static_cast<unsigned>(am_max_args)) [[unlikely]]
    port::fail("mpi: a message with {} argument words (at most {})", n, am_max_args);
  if (kind == am_kind::long_msg &&
      len >= (is_request ? tuning_.host_ring_long_max : tuning_.host_ring_reply_max) &&
      !same_host_target(p, dst, len))
    return std::nullopt;  // by MPI (its one copy), as measured: docs/mpi.md
  switch (same_host_.send(p, is_request, kind, h, a, n, src, len, dst)) {
    case port::same_host::send_result::sent:
      ++stats_.host_ring_messages;
      return am_status::ok;
    case port::same_host::send_result::full: return am_status::no_resource;
    case port::same_host::send_result::too_large: break;
  }
  return std::nullopt;
}

// Over a ring the payload is copied before the call returns: free at once.
am_status mpi_backend::send_zero_copy(proc_t p, bool is_request, handler_id h, const am_word* a,
                                      int n, const void* src, std::size_t len, void* dst,
                                      counter& source_free) {
  if (same_host_.carries(p)) {
    if (auto s = send_on_host_ring(p, is_request, am_kind::long_msg, h, a, n, src, len, dst)) {
      if (*s == am_status::ok) source_free.add_local(-1);
      return *s;
    }
  }
  return send_packet(p, is_request, am_kind::long_msg, h, a, n, src, len, dst, &source_free);
}

am_status mpi_backend::send_packet(proc_t p, bool is_request, am_kind kind, handler_id h,
                                   const am_word* a, int n, const void* src, std::size_t len,
                                   void* dst, counter* source_free) {
  if (static_cast<unsigned>(n) > static_cast<unsigned>(am_max_args)) [[unlikely]]
    port::fail("mpi: a message with {} argument words (at most {})", n, am_max_args);
  if (p == myproc_) {
    const am_status s = send_self(is_request, kind, h, a, n, src, len, dst);  // copies src
    if (s == am_status::ok && source_free != nullptr) source_free->add_local(-1);
    return s;
  }
  const auto pi = static_cast<std::size_t>(p);
  if (is_request && credits_[pi] <= 0) {
    ++stats_.no_credit;
    return am_status::no_resource;
  }
  const std::size_t prefix = wire::prefix_bytes(kind, n);
  long_protocol how = long_protocol::inline_copy;
  if (prefix + len > tuning_.packet_bytes) {
    if (kind == am_kind::medium_msg) {
      how = long_protocol::staged;
    } else {
      switch (tuning_.long_mode) {
        case long_protocol::automatic:
          if (same_host_target(p, dst, len))
            how = long_protocol::same_host;
          else if (tuning_.rma_min != 0 && len >= tuning_.rma_min && rma_target(p, dst, len))
            how = long_protocol::rma;
          else if (len >= tuning_.rendezvous_min)
            how = long_protocol::rendezvous;
          else
            how = long_protocol::staged;
          break;
        case long_protocol::rma:
          how = rma_target(p, dst, len) ? long_protocol::rma : long_protocol::rendezvous;
          break;
        case long_protocol::same_host:
          how = same_host_target(p, dst, len) ? long_protocol::same_host
                                              : long_protocol::rendezvous;
          break;
        case long_protocol::rendezvous: how = long_protocol::rendezvous; break;
        default: how = long_protocol::staged; break;
      }
    }
  }
  void* staging = nullptr;
  if (how == long_protocol::staged) {
    // Replies never wait (they would otherwise sit in the core's queue while
    // the requester waits for them); requests respect the staging limit.
    if (is_request && staged_bytes_ + stage_capacity(len) > tuning_.stage_limit) {
      reclaim_sends();
      if (staged_bytes_ + stage_capacity(len) > tuning_.stage_limit) {
        ++stats_.no_buffer;
        return am_status::no_resource;
      }
    }
    staging = stage_take(len);
    if (staging == nullptr) return am_status::no_resource;
  }
  unsigned char* b = take_buffer();
  if (b == nullptr) {
    if (staging != nullptr) stage_give(staging, stage_capacity(len));
    ++stats_.no_buffer;
    return am_status::no_resource;
  }
  std::uint8_t mode = wire::mode_inline;
  if (how == long_protocol::rma) {
    const auto disp = static_cast<MPI_Aint>(reinterpret_cast<std::uintptr_t>(dst) - segment_base_);
    check(MPI_Put(src, static_cast<int>(len), MPI_BYTE, p, disp, static_cast<int>(len), MPI_BYTE,
                  m_->window),
          "MPI_Put");
    check(MPI_Win_flush(p, m_->window), "MPI_Win_flush");
    mode = wire::mode_in_place;
    ++stats_.rma_puts;
  } else if (how == long_protocol::same_host) {
    // One copy, straight into the peer's segment; the packet that follows
    // tells the peer it is there (the fence orders the two for its handler).
    std::memcpy(same_host_.address(p, dst), src, len);
    std::atomic_thread_fence(std::memory_order_release);
    mode = wire::mode_in_place;
    ++stats_.same_host_copies;
  } else if (how != long_protocol::inline_copy) {
    mode = wire::mode_data;
  }

  auto* hdr = reinterpret_cast<packet_header*>(b);
  auto& owed = owed_[pi];
  hdr->handler = static_cast<std::uint16_t>(h);
  hdr->type = wire::packet_type(kind, is_request, mode);
  hdr->nargs = static_cast<std::uint8_t>(n);
  hdr->credits = static_cast<std::uint32_t>(owed);
  hdr->length = kind == am_kind::short_msg ? 0 : static_cast<std::uint32_t>(len);
  hdr->source = myproc_;
  unsigned char* w = b + sizeof(packet_header);
  if (kind == am_kind::long_msg) {
    std::memcpy(w, &dst, 8);
    w += 8;
  }
  if (n > 0) std::memcpy(w, a, 8 * static_cast<std::size_t>(n));
  w += 8 * static_cast<std::size_t>(n);
  std::size_t bytes = prefix;
  if (mode == wire::mode_inline && len != 0) {
    std::memcpy(w, src, len);
    bytes += len;
    if (kind == am_kind::long_msg) ++stats_.inline_longs;
  }
  transmit(p, b, bytes);
  owed = 0;
  if (is_request) --credits_[pi];

  if (how == long_protocol::staged) {
    std::memcpy(staging, src, len);
    MPI_Request d;
    check(MPI_Isend(staging, static_cast<int>(len), MPI_BYTE, p, data_tag, m_->data_comm, &d),
          "MPI_Isend (payload)");
    staged_bytes_ += stage_capacity(len);
    ++stats_.staged;
    track(&d, nullptr, staging, stage_capacity(len));
  } else if (how == long_protocol::rendezvous) {
    MPI_Request d;
    check(MPI_Isend(src, static_cast<int>(len), MPI_BYTE, p, data_tag, m_->data_comm, &d),
          "MPI_Isend (payload)");
    ++stats_.rendezvous;
    if (source_free != nullptr) {
      ++stats_.sends_lent;
      track(&d, nullptr, nullptr, 0, source_free);  // lent: counted free by a later poll
      return am_status::ok;
    }
    wait_request(&d);  // the source is the caller's until then (porting boundary)
  }
  if (source_free != nullptr) source_free->add_local(-1);  // copied or already sent
  return am_status::ok;
}

// ---- the backend's own barrier: packets, polled (seed §4.3.3) ---------------

void mpi_backend::barrier_dissemination(am_sink sink) {
  const std::uint64_t epoch = ++barrier_epoch_;
  std::size_t round = 0;
  for (proc_t distance = 1; distance < procs_; distance *= 2, ++round) {
    const proc_t to = (myproc_ + distance) % procs_;
    port::backoff wait;
    while (!send_control(to, wire::control_barrier, round)) {
      poll_rings_and_mpi(sink);
      wait.pause();
    }
    wait.reset();
    while (barrier_tokens_[round] < epoch) {
      if (poll_rings_and_mpi(sink) != 0) wait.reset();
      else wait.pause();
    }
  }
}

void mpi_backend::bootstrap_barrier(am_sink sink) {
  if (procs_ == 1) {
    poll(sink);
    return;
  }
  barrier_dissemination(sink);
}

// ---- leaving ----------------------------------------------------------------------

// Every process completes its own sends (serving the peers' payload
// receives meanwhile), then all agree, so no one still needs another's
// receives; then the ring is cancelled.
void mpi_backend::quiesce() {
  port::backoff wait;
  while (!m_->send_requests.empty()) {
    look_ahead();
    reclaim_sends();
    wait.pause();
  }
  MPI_Request r;
  check(MPI_Ibarrier(m_->comm, &r), "MPI_Ibarrier");
  wait.reset();
  for (;;) {
    int done = 0;
    check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test (collective)");
    if (done != 0) break;
    look_ahead();
    wait.pause();
  }
  for (recv_slot& s : m_->storage) {
    if (s.active) {
      MPI_Cancel(&s.request);
      MPI_Wait(&s.request, MPI_STATUS_IGNORE);
      s.active = false;
    }
    if (s.request != MPI_REQUEST_NULL) MPI_Request_free(&s.request);  // persistent
    if (s.data != MPI_REQUEST_NULL) MPI_Wait(&s.data, MPI_STATUS_IGNORE);
    std::free(s.data_buffer);
    s.data_buffer = nullptr;
  }
}

void mpi_backend::finish(int) {
  if (finished_) return;
  finished_ = true;
  if (env::mpi_stats.get()) {
    const statistics& t = stats_;
    std::fprintf(stderr,
                 "splitc mpi: processor %d: packets sent %llu received %llu, sends tracked %llu, "
                 "inline longs %llu, staged %llu, rendezvous %llu (waited %llu, lent %llu), rma %llu, "
                 "same-host copies %llu, "
                 "no credit %llu, no buffer %llu, credit packets %llu, ring %zu (grown %llu), "
                 "compact %llu, native atomics %llu, over this host's rings %llu\n",
                 myproc_, static_cast<unsigned long long>(t.packets_sent),
                 static_cast<unsigned long long>(t.packets_received),
                 static_cast<unsigned long long>(t.sends_tracked),
                 static_cast<unsigned long long>(t.inline_longs),
                 static_cast<unsigned long long>(t.staged),
                 static_cast<unsigned long long>(t.rendezvous),
                 static_cast<unsigned long long>(t.send_waits),
                 static_cast<unsigned long long>(t.sends_lent),
                 static_cast<unsigned long long>(t.rma_puts),
                 static_cast<unsigned long long>(t.same_host_copies),
                 static_cast<unsigned long long>(t.no_credit),
                 static_cast<unsigned long long>(t.no_buffer),
                 static_cast<unsigned long long>(t.credit_packets), m_->slots.size(),
                 static_cast<unsigned long long>(t.ring_grown),
                 static_cast<unsigned long long>(t.compact_sent),
                 static_cast<unsigned long long>(t.native_atomics),
                 static_cast<unsigned long long>(t.host_ring_messages));
  }
  if (procs_ > 1) quiesce();
  if (has_window_) {
    MPI_Win_unlock_all(m_->window);
    MPI_Win_free(&m_->window);
    has_window_ = false;
  }
  if (m_->data_comm != MPI_COMM_NULL) MPI_Comm_free(&m_->data_comm);
  if (m_->comm != MPI_COMM_NULL) MPI_Comm_free(&m_->comm);
  if (owns_mpi_) MPI_Finalize();
}

static_assert(splitc::backend<mpi_backend>);

}  // namespace splitc::backends::mpi
