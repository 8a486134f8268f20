// NXAM: active messages on a message-passing layer (the design is in
// include/splitc/backends/nxam.hpp). The layer's calls come from
// <nxam_layer.hpp>: NX for the nx ports, MPL for the mpl ports.
#include <splitc/backends/nxam.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/failing_exit.hpp>
#include <splitc/port/segment.hpp>

#include <nxam_layer.hpp>

#include <cstdlib>
#include <cstring>
#include <string>

namespace splitc::backends::nxam {
namespace {

// The packet: word 0 names the handler, then the kind's words, the
// arguments and a medium payload.
//   word 0   handler (16 bits) | nargs (8) | flags (8) | source (32)
//   medium   word 1: payload length
//   long     word 1: length, word 2: destination, word 3: the data's type
//   control  word 1: the barrier round
enum : unsigned { kind_mask = 3, request_flag = 4, control_flag = 8 };

constexpr std::size_t kind_words(unsigned flags) {
  if (flags & control_flag) return 2;
  switch (static_cast<am_kind>(flags & kind_mask)) {
    case am_kind::short_msg: return 1;
    case am_kind::medium_msg: return 2;
    default: return 4;
  }
}

constexpr std::size_t max_send_buffers = 1024;

constexpr std::uint64_t header_word(handler_id h, int nargs, unsigned flags, proc_t source) {
  return static_cast<std::uint64_t>(h) | std::uint64_t{static_cast<unsigned>(nargs)} << 16 |
         std::uint64_t{flags} << 24 | std::uint64_t{static_cast<std::uint32_t>(source)} << 32;
}

}  // namespace

struct nxam_backend::slot {
  unsigned char* buffer = nullptr;
  layer::msg_id id = -1;       ///< the packet's receive
  layer::selector selector{};
  layer::msg_id data_id = -1;  ///< a long message's data receive, once posted
  layer::selector data_selector{};
  std::size_t length = 0;      ///< the packet's length, once it has arrived
};

struct nxam_backend::in_flight {
  layer::msg_id id;
  unsigned char* buffer;  ///< a packet buffer to give back, or nullptr
  void* staging;          ///< a long message's copy of its data, or nullptr
};

void nxam_backend::layer_failed(const char* call) const {
  port::fail("{}: {} failed on processor {}: {}", layer::vendor, call, myproc_,
               layer::error_text());
}

nxam_backend::nxam_backend(start_arguments args) {
#if defined(SPLITC_SIM_SUBSTRATE)
  (void)args;
  // The machine's costs, unless the user names another model; read when the
  // first layer call below starts the job (each node then runs main again).
  setenv(port::env::sim_machine.name, layer::sim_machine, 0);
#else
  // Static data at one address on every processor (a no-op under splitc-run).
  if (args.argv != nullptr) port::reexec_without_randomisation(*args.argv);
  const port::segment_geometry g = port::segment_from_environment();
  segment_ = {port::reserve_segment(layer::vendor, g, 1, true), g.size};
#endif
  myproc_ = layer::self();
  procs_ = layer::procs();
#if defined(SPLITC_SIM_SUBSTRATE)
  segment_ = port::sim_segment();  // the engine's window, inside the job
#else
  // The environment every splitc process has (as under splitc-run), for the
  // program and for error messages; SPLITC_JOB also keeps a child of this
  // process from launching a job of its own.
  setenv(port::env::myproc.name, std::to_string(myproc_).c_str(), 1);
  setenv(port::env::procs.name, std::to_string(procs_).c_str(), 1);
  setenv(port::env::job.name, layer::vendor, 0);
  // A non-zero exit is named here; the layer then ends the job (the
  // emulation's own exit hook, registered before this one, runs after it).
  port::end_job_on_failing_exit([]() noexcept { return true; }, [](int) noexcept {},
                                "job (the layer ends every process)");
#endif
  next_data_type_.assign(static_cast<std::size_t>(procs_), layer::data_type_first);
  int rounds = 0;
  for (int d = 1; d < procs_; d *= 2) ++rounds;
  barrier_tokens_.assign(static_cast<std::size_t>(rounds) + 1, 0);
  ring_.resize(ring_slots);
  for (slot& s : ring_) {
    s.buffer = static_cast<unsigned char*>(std::aligned_alloc(64, packet_bytes));
    if (s.buffer == nullptr) port::fail("{}: out of memory for receive buffers", layer::vendor);
    post(s);
  }
}

nxam_backend::~nxam_backend() {
  for (slot& s : ring_) std::free(s.buffer);
  for (unsigned char* b : all_buffers_) std::free(b);
#if !defined(SPLITC_SIM_SUBSTRATE)
  port::release_segment({reinterpret_cast<std::uintptr_t>(segment_.base), segment_.size}, 1);
#endif
}

// ---- sending ------------------------------------------------------------------------

unsigned char* nxam_backend::take_buffer() {
  if (free_buffers_.empty()) reclaim_sends();
  if (free_buffers_.empty()) {
    if (all_buffers_.size() >= max_send_buffers) return nullptr;
    auto* b = static_cast<unsigned char*>(std::aligned_alloc(64, packet_bytes));
    if (b == nullptr) return nullptr;
    all_buffers_.push_back(b);
    return b;
  }
  unsigned char* b = free_buffers_.back();
  free_buffers_.pop_back();
  return b;
}

void nxam_backend::reclaim_sends() {
  for (std::size_t i = 0; i < sends_.size();) {
    const long done = layer::sent(sends_[i].id);
    if (done < 0) layer_failed(layer::test_call);
    if (done == 0) {
      ++i;
      continue;
    }
    if (sends_[i].buffer != nullptr) free_buffers_.push_back(sends_[i].buffer);
    std::free(sends_[i].staging);
    sends_[i] = sends_.back();
    sends_.pop_back();
  }
}

am_status nxam_backend::send(proc_t p, bool is_request, am_kind kind, handler_id h,
                             const am_word* a, int n, const void* src, std::size_t len,
                             void* dst) {
  const unsigned flags = static_cast<unsigned>(kind) | (is_request ? request_flag : 0u);
  const std::size_t words = kind_words(flags);
  const std::size_t head = sizeof(am_word) * (words + static_cast<std::size_t>(n));
  const std::size_t bytes = head + (kind == am_kind::medium_msg ? len : 0);
  // A small packet goes by the layer's blocking send (csend, mpc_bsend), which
  // copies it out at once: built on the stack, no message id to test and no
  // packet buffer to take back (docs/ports.md, "Paragon").
  const bool send_now = kind != am_kind::long_msg && bytes <= small_packet_bytes;
  alignas(8) unsigned char small[small_packet_bytes];
  unsigned char* b = send_now ? small : take_buffer();
  if (b == nullptr) return am_status::no_resource;
  void* staging = nullptr;
  long data_type = 0;
  if (kind == am_kind::long_msg && len > 0) {
    staging = std::malloc(len);
    if (staging == nullptr) {
      free_buffers_.push_back(b);
      return am_status::no_resource;
    }
    std::memcpy(staging, src, len);
    long& next = next_data_type_[static_cast<std::size_t>(p)];
    data_type = next;
    next = next + 1 == layer::data_type_first + layer::data_type_count ? layer::data_type_first
                                                                       : next + 1;
  }
  auto* w = reinterpret_cast<std::uint64_t*>(b);
  w[0] = header_word(h, n, flags, myproc_);
  if (kind == am_kind::medium_msg) {
    w[1] = len;
  } else if (kind == am_kind::long_msg) {
    w[1] = len;
    w[2] = reinterpret_cast<std::uintptr_t>(dst);
    w[3] = static_cast<std::uint64_t>(data_type);
  }
  std::memcpy(w + words, a, sizeof(am_word) * static_cast<std::size_t>(n));
  if (kind == am_kind::medium_msg && len > 0) std::memcpy(b + head, src, len);
  if (send_now) {
    if (layer::send_now(b, bytes, p, layer::am_type) < 0) layer_failed(layer::send_now_call);
    return am_status::ok;
  }
  const layer::msg_id id = layer::send(b, bytes, p, layer::am_type);
  if (id < 0) layer_failed(layer::send_call);
  const long done = layer::sent(id);
  if (done < 0) layer_failed(layer::test_call);
  if (done == 0) {
    sends_.push_back({id, b, nullptr});
  } else {
    free_buffers_.push_back(b);
  }
  if (staging != nullptr) {
    // The data, right behind its packet, under its own type (§4.2.3).
    const layer::msg_id data = layer::send(staging, len, p, data_type);
    if (data < 0) layer_failed(layer::send_call);
    sends_.push_back({data, nullptr, staging});
  }
  return am_status::ok;
}

// The packet of send() for a short message, built without its branches for
// the other kinds: the header word and the arguments, copied word by word
// (no call of memcpy for at most am_max_args words), by the blocking send.
am_status nxam_backend::send_short(proc_t p, bool is_request, handler_id h, const am_word* a,
                                   int n) {
  static_assert(8 * (1 + am_max_args) <= small_packet_bytes);
  const unsigned flags =
      static_cast<unsigned>(am_kind::short_msg) | (is_request ? request_flag : 0u);
  std::uint64_t w[1 + am_max_args];
  w[0] = header_word(h, n, flags, myproc_);
  for (int i = 0; i < n; ++i) w[1 + i] = a[i];
  if (layer::send_now(w, 8 * (1 + static_cast<std::size_t>(n)), p, layer::am_type) < 0)
    layer_failed(layer::send_now_call);
  return am_status::ok;
}

bool nxam_backend::send_control(proc_t p, std::uint64_t round) {
  unsigned char* b = take_buffer();
  if (b == nullptr) return false;
  auto* w = reinterpret_cast<std::uint64_t*>(b);
  w[0] = header_word(handler_id{}, 0, control_flag, myproc_);
  w[1] = round;
  const layer::msg_id id = layer::send(b, 16, p, layer::am_type);
  if (id < 0) layer_failed(layer::send_call);
  sends_.push_back({id, b, nullptr});
  return true;
}

// ---- receiving ----------------------------------------------------------------------

void nxam_backend::post(slot& s) {
  s.id = layer::post(s.buffer, packet_bytes, layer::am_type, -1, s.selector);
  if (s.id < 0) layer_failed(layer::receive_call);
  s.data_id = -1;
  s.length = 0;
}

void nxam_backend::bad_packet(const slot& s, std::size_t length) const {
  std::uint64_t w0 = 0;
  std::memcpy(&w0, s.buffer, length < 8 ? length : 8);
  port::fail(
      "{}: processor {} received a message of NXAM's type {} that is not an NXAM packet "
      "({} bytes, first word {:#x}); only the port may send that type",
      layer::vendor, myproc_, layer::am_type, length, w0);
}

// Has the slot's packet (and a long message's data) arrived? Posts the
// data's receive at its destination as soon as the packet is seen.
bool nxam_backend::arrived(slot& s) {
  if (s.data_id < 0) {
    const long n = layer::arrived(s.id, s.selector);
    if (n == -1) return false;
    if (n < -1) layer_failed(layer::test_call);
    const auto length = static_cast<std::size_t>(n);
    const auto* w = reinterpret_cast<const std::uint64_t*>(s.buffer);
    const unsigned flags = length >= 8 ? static_cast<unsigned>(w[0] >> 24) & 0xff : 0xffu;
    const std::size_t nargs = length >= 8 ? (w[0] >> 16) & 0xff : 0;
    const std::size_t words = kind_words(flags);
    const auto source = static_cast<std::int64_t>(length >= 8 ? w[0] >> 32 : 0);
    if (length < 8 || (flags & ~0xfu) != 0 || (flags & kind_mask) > 2 || nargs > am_max_args ||
        source >= procs_ || length < 8 * (words + nargs))
      bad_packet(s, length);
    const bool is_long = !(flags & control_flag) && (flags & kind_mask) == 2;
    const std::size_t expected =
        8 * (words + nargs) + ((flags & kind_mask) == 1 && !(flags & control_flag) ? w[1] : 0);
    if (length != expected) bad_packet(s, length);
    s.length = length;
    if (!is_long || w[1] == 0) return true;
    s.data_id = layer::post(reinterpret_cast<void*>(w[2]), w[1], static_cast<long>(w[3]),
                            static_cast<int>(source), s.data_selector);
    if (s.data_id < 0) layer_failed(layer::receive_call);
  }
  const long n = layer::arrived(s.data_id, s.data_selector);
  if (n == -1) return false;
  if (n < -1) layer_failed(layer::test_call);
  return true;
}

// The receives of the slots the last poll delivered, posted again in ring
// order (so receives are still matched in ring order). Deferred from the
// delivery to the next poll: a requester then sends its next request before
// it re-posts, which keeps the re-post off the round trip (the mpi backend
// measured the same, docs/mpi.md "Re-posting").
void nxam_backend::repost_delivered() {
  for (; unposted_ > 0; --unposted_) post(ring_[(head_ - unposted_) % ring_slots]);
}

int nxam_backend::poll(am_sink sink) {
  if (unposted_ != 0) repost_delivered();
  if (!sends_.empty()) reclaim_sends();
  int delivered = 0;
  for (std::size_t budget = ring_.size(); budget > 0; --budget) {
    slot& s = ring_[head_ % ring_slots];
    if (!arrived(s)) break;
    const auto* w = reinterpret_cast<const std::uint64_t*>(s.buffer);
    const unsigned flags = static_cast<unsigned>(w[0] >> 24) & 0xff;
    if (flags & control_flag) {
      const std::uint64_t round = w[1];
      if (round < barrier_tokens_.size()) ++barrier_tokens_[round];
    } else {
      const std::size_t words = kind_words(flags);
      am_message m{};
      m.source = static_cast<proc_t>(w[0] >> 32);
      m.handler = static_cast<handler_id>(w[0] & 0xffff);
      m.kind = static_cast<am_kind>(flags & kind_mask);
      m.is_request = (flags & request_flag) != 0;
      m.nargs = static_cast<int>((w[0] >> 16) & 0xff);
      m.args = w + words;
      if (static_cast<std::size_t>(m.handler) >= sink.handler_count) bad_packet(s, s.length);
      if (m.kind == am_kind::medium_msg) {
        m.length = w[1];
        m.payload = s.buffer + 8 * (words + static_cast<std::size_t>(m.nargs));
      } else if (m.kind == am_kind::long_msg) {
        m.length = w[1];
        m.payload = reinterpret_cast<void*>(w[2]);
      }
      ++head_;  // a handler's sends never poll, but keep the ring consistent first
      s.id = s.data_id = -1;  // completed; posted again by the next poll
      ++unposted_;
      sink.deliver(sink.context, m);
      ++delivered;
      // A reply is what a waiting main line waits for: return to it rather
      // than test the next slot first (a whole MPI_Test on the round trip).
      if (!m.is_request) break;
      continue;
    }
    ++head_;
    s.id = s.data_id = -1;
    ++unposted_;
  }
  return delivered;
}

#if defined(SPLITC_SIM_SUBSTRATE)
void nxam_backend::wait_idle(am_sink sink, const char* what) {
  if (poll(sink) == 0) port::sim_members::wait_idle(sink, what);
}
#endif

// A dissemination barrier of our own packets: in round r, a token to
// processor me + 2^r; wait (polling) for the one from me - 2^r.
void nxam_backend::bootstrap_barrier(am_sink sink) {
  ++barrier_epoch_;
  std::uint64_t round = 0;
  for (int d = 1; d < procs_; d *= 2, ++round) {
    port::backoff wait;
    while (!send_control((myproc_ + d) % procs_, round)) {
      poll(sink);
      wait.pause();
    }
    wait.reset();
    while (barrier_tokens_[round] < barrier_epoch_) {
      // A poll that took only tokens delivers nothing: wait only when the
      // token is still missing (on the engine, a wait sleeps until a packet).
      if (poll(sink) == 0 && barrier_tokens_[round] < barrier_epoch_) {
#if defined(SPLITC_SIM_SUBSTRATE)
        port::sim_members::wait_idle(sink, "the bootstrap barrier");
#else
        wait.pause();
#endif
      }
    }
  }
  poll(sink);
}

void nxam_backend::finish(int) {
  if (finished_) return;
  finished_ = true;
  port::backoff wait;
  while (!sends_.empty()) {
    reclaim_sends();
    wait.pause();
  }
  for (slot& s : ring_) {
    if (s.data_id >= 0) {
      layer::cancel(s.data_id);
      s.data_id = -1;
    } else if (s.id >= 0) {
      layer::cancel(s.id);
    }
    s.id = -1;
  }
}

static_assert(splitc::backend<nxam_backend>);

}  // namespace splitc::backends::nxam
