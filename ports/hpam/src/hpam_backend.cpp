// The hpam backend's operations (hpam.hpp) on HPAM's calls (hpam.h): joining
// the layer, the segment and its staging buffers, sending, the HPAM handlers
// that deliver to the core, the bootstrap barrier, leaving.
#include <splitc/backends/hpam.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>
#include <splitc/port/segment_places.hpp>
#include <splitc/port/word_packing.hpp>

#include <hpam.h>

#include <array>
#include <cstring>

namespace splitc::backends::hpam {
namespace {

// Every processor of the job (one per process on real processes; all of them
// in one process on the simulated substrate), for HPAM's handlers.
constexpr int max_processors = 4096;
std::array<hpam_backend*, max_processors> instances{};
hpam_backend& here() { return *instances[static_cast<std::size_t>(am_my_proc())]; }

constexpr std::size_t staging_stride = 4096;

// The first word of a one-packet message: handler index and word count.
long pack_first(handler_id h, int n) {
  return static_cast<long>(static_cast<std::uint16_t>(h)) | (static_cast<long>(n) << 16);
}

void deliver_short(vnn_t src, bool request, long first, long a1, long a2, long a3) {
  const am_word args[3] = {static_cast<am_word>(a1), static_cast<am_word>(a2),
                           static_cast<am_word>(a3)};
  am_message m{};
  m.source = src;
  m.handler = static_cast<handler_id>(first & 0xffff);
  m.kind = am_kind::short_msg;
  m.is_request = request;
  m.nargs = static_cast<int>((first >> 16) & 0xff);
  m.args = args;
  here().deliver(m);
}
void on_short_request(vnn_t src, long first, long a1, long a2, long a3) {
  deliver_short(src, true, first, a1, a2, a3);
}
void on_short_reply(vnn_t src, long first, long a1, long a2, long a3) {
  deliver_short(src, false, first, a1, a2, a3);
}

// Four words whose first fits in 48 bits, signed (an address, a length: every message of
// the core's global memory), travel as one am_request_4 too: the handler index in the first
// word's top 16 bits (port/word_packing.hpp), the four words otherwise whole.
void deliver_four(vnn_t src, bool request, long first, long a1, long a2, long a3) {
  const am_word args[4] = {port::word_packing::argument(first), static_cast<am_word>(a1),
                           static_cast<am_word>(a2), static_cast<am_word>(a3)};
  am_message m{};
  m.source = src;
  m.handler = static_cast<handler_id>(port::word_packing::field(first));
  m.kind = am_kind::short_msg;
  m.is_request = request;
  m.nargs = 4;
  m.args = args;
  here().deliver(m);
}
void on_four_request(vnn_t src, long first, long a1, long a2, long a3) {
  deliver_four(src, true, first, a1, a2, a3);
}
void on_four_reply(vnn_t src, long first, long a1, long a2, long a3) {
  deliver_four(src, false, first, a1, a2, a3);
}

// A staged message: this header, the words, the payload.
struct staged_header {
  std::uint16_t handler;
  std::uint8_t nargs;
  std::uint8_t kind;
  std::uint32_t length;
  std::uint64_t destination;  // long messages
};
static_assert(sizeof(staged_header) == staged_header_bytes);

void deliver_staged(vnn_t src, bool request, void* addr, int nbytes) {
  auto* bytes = static_cast<unsigned char*>(addr);
  staged_header h;
  std::memcpy(&h, bytes, sizeof h);
  const std::size_t words = h.nargs * sizeof(am_word);
  if (h.nargs > am_max_args || sizeof h + words + h.length != static_cast<std::size_t>(nbytes))
    port::fail("hpam: a staged message from processor {} is malformed ({} bytes)", src, nbytes);
  am_word args[am_max_args];
  std::memcpy(args, bytes + sizeof h, words);
  am_message m{};
  m.source = src;
  m.handler = static_cast<handler_id>(h.handler);
  m.kind = static_cast<am_kind>(h.kind);
  m.is_request = request;
  m.nargs = h.nargs;
  m.args = args;
  m.length = h.length;
  void* payload = bytes + sizeof h + words;
  if (m.kind == am_kind::long_msg) {
    m.payload = reinterpret_cast<void*>(static_cast<std::uintptr_t>(h.destination));
    if (h.length > 0) std::memcpy(m.payload, payload, h.length);
  } else if (m.kind == am_kind::medium_msg) {
    m.payload = payload;
  }
  here().deliver(m);
}
void on_staged_request(vnn_t src, void* addr, int nbytes, void*) {
  deliver_staged(src, true, addr, nbytes);
}
void on_staged_reply(vnn_t src, void* addr, int nbytes, void*) {
  deliver_staged(src, false, addr, nbytes);
}

// The bootstrap barrier: everyone tells processor 0, which releases everyone.
void on_barrier_arrive(vnn_t, long epoch) { ++here().barrier_arrivals_[epoch & 1]; }
void on_barrier_release(vnn_t, long epoch) {
  hpam_backend& b = here();
  if (static_cast<std::uint64_t>(epoch) > b.barrier_released_)
    b.barrier_released_ = static_cast<std::uint64_t>(epoch);
}

[[noreturn]] void hpam_failed(const char* message) { port::fail("hpam: {}", message); }

}  // namespace

hpam_backend::hpam_backend(start_arguments) {
  am_set_fatal(&hpam_failed);
  if (am_enable() != 0)
    port::fail("hpam: cannot start HPAM: {} (start hpam programs with splitc-run --backend hpam)",
                 am_error_string(am_errno));
  am_set_blocking(0);  // a send that would wait answers no_resource instead
  myproc_ = am_my_proc();
  procs_ = am_procs();
  if (procs_ > max_processors)
    port::fail("hpam: {} processors; this backend handles at most {}", procs_, max_processors);
  if (port::env::procs.is_set() && port::env::procs.get(1) != procs_)
    port::fail("hpam: HPAM's job has {} nodes but SPLITC_PROCS={}", procs_,
                 port::env::procs.get(1));
  if (static_cast<std::size_t>(am_max_size()) < hpam_store_bytes)
    port::fail("hpam: am_max_size() is {} bytes; this port needs {}", am_max_size(),
                 hpam_store_bytes);
  instances[static_cast<std::size_t>(myproc_)] = this;
  map_segment();
}

hpam_backend::~hpam_backend() {
  finish(0);
  instances[static_cast<std::size_t>(myproc_)] = nullptr;
}

void hpam_backend::map_segment() {
  // The staging buffers (one per sender for requests, one for replies) are the
  // segment's last pages: at the same address (on the engine, offset) on every processor.
  staging_bytes_ = (2 * static_cast<std::size_t>(procs_) * staging_stride + 4095) & ~std::size_t{4095};
#if defined(SPLITC_SIM_SUBSTRATE)
  const segment_info window = port::sim_segment();
  void* base = window.base;
  const std::size_t size = window.size;
#else
  const port::segment_geometry g = port::segment_from_environment();
  void* base = port::reserve_segment("hpam", g, 1, true);
  const std::size_t size = g.size;
#endif
  if (size < 2 * staging_bytes_)
    port::fail("hpam: the segment ({} bytes) is too small for {} bytes of staging buffers", size,
                 staging_bytes_);
  segment_base_ = base;
  segment_size_ = size - staging_bytes_;
}

unsigned char* hpam_backend::staging(proc_t sender, bool reply) const noexcept {
  const std::size_t slot = (reply ? static_cast<std::size_t>(procs_) : 0) + static_cast<std::size_t>(sender);
  return static_cast<unsigned char*>(segment_base_) + segment_size_ + slot * staging_stride;
}

void hpam_backend::deliver(const am_message& m) {
  ++delivered_;
  sink_.deliver(sink_.context, m);
}

am_status hpam_backend::refused(proc_t p, bool request) {
  const int e = am_errno;
  if (e == AM_EBUSY || e == AM_EINHANDLER) return am_status::no_resource;
  port::fail("hpam: {} to processor {} refused: {}", request ? "request" : "reply", p,
               am_error_string(e));
}

am_status hpam_backend::send(proc_t p, bool request, am_kind kind, handler_id h, const am_word* a,
                             int n, const void* src, std::size_t len, void* dst) {
  // A reply leaves inside its request handler, as HPAM's reply. One the core
  // sends later (it queued it behind earlier sends) travels as an HPAM
  // request whose handler delivers it as a reply: HPAM has answered the
  // original request with an empty reply meanwhile.
  vnn_t requester = -1;
  const int context = am_handler_context(&requester);
  const bool hpam_reply = !request && context == AM_IN_REQUEST_HANDLER && requester == p;
  if (context != AM_IN_NO_HANDLER && !hpam_reply) return am_status::no_resource;  // queued by the core
  if (kind == am_kind::short_msg && n <= 3) {
    const long w[3] = {n > 0 ? static_cast<long>(a[0]) : 0, n > 1 ? static_cast<long>(a[1]) : 0,
                       n > 2 ? static_cast<long>(a[2]) : 0};
    const long first = pack_first(h, n);
    handler_4_t deliver = request ? &on_short_request : &on_short_reply;
    const int r = hpam_reply ? am_reply_4(p, deliver, first, w[0], w[1], w[2])
                             : am_request_4(p, deliver, first, w[0], w[1], w[2]);
    return r == 0 ? am_status::ok : refused(p, request);
  }
  if (kind == am_kind::short_msg && n == 4 && port::word_packing::fits(a[0])) {
    const long first = port::word_packing::with_field(a[0], static_cast<std::uint16_t>(h));
    handler_4_t deliver = request ? &on_four_request : &on_four_reply;
    const int r = hpam_reply ? am_reply_4(p, deliver, first, static_cast<long>(a[1]),
                                          static_cast<long>(a[2]), static_cast<long>(a[3]))
                             : am_request_4(p, deliver, first, static_cast<long>(a[1]),
                                            static_cast<long>(a[2]), static_cast<long>(a[3]));
    return r == 0 ? am_status::ok : refused(p, request);
  }
  staged_header hd{};
  hd.handler = static_cast<std::uint16_t>(h);
  hd.nargs = static_cast<std::uint8_t>(n);
  hd.kind = static_cast<std::uint8_t>(kind);
  hd.length = static_cast<std::uint32_t>(len);
  hd.destination = reinterpret_cast<std::uintptr_t>(dst);
  const std::size_t words = static_cast<std::size_t>(n) * sizeof(am_word);
  const std::size_t total = sizeof hd + words + len;
  if (total > sizeof staged_)
    port::fail("hpam: a message of {} bytes to processor {} exceeds one HPAM packet", total, p);
  std::memcpy(staged_, &hd, sizeof hd);
  if (words > 0) std::memcpy(staged_ + sizeof hd, a, words);
  if (len > 0) std::memcpy(staged_ + sizeof hd + words, src, len);
  // am_store from inside the request handler, to the requester, is its reply. Its staging
  // buffer for this sender: the same place in p's segment (p's copy where segments lie apart
  // on the engine: port/segment_places.hpp).
  unsigned char* at_p = static_cast<unsigned char*>(port::same_place_on(p, staging(myproc_, !request)));
  const int r = am_store(p, staged_, at_p, static_cast<int>(total),
                         request ? &on_staged_request : &on_staged_reply, nullptr);
  return r == 0 ? am_status::ok : refused(p, request);
}

int hpam_backend::poll_packets(am_sink sink) {
  sink_ = sink;
  delivered_ = 0;
  const int handled = am_poll();
  if (handled < 0) port::fail("hpam: am_poll: {}", am_error_string(am_errno));
  return handled;
}

int hpam_backend::poll(am_sink sink) {
  poll_packets(sink);
  return delivered_;
}

void hpam_backend::wait_idle(am_sink, const char*) { am_idle(2000); }

void hpam_backend::bootstrap_barrier(am_sink sink) {
  const std::uint64_t epoch = ++barrier_epoch_;
  // Sleep only when no packet came: the barrier's own packets deliver nothing
  // to the core (and on sim, a processor that slept on them would never wake).
  auto idle = [&] {
    if (poll_packets(sink) == 0) wait_idle(sink, "the bootstrap barrier");
  };
  auto request = [&](proc_t to, handler_1_t h) {
    while (am_request_1(to, h, static_cast<long>(epoch)) != 0) {
      if (refused(to, true) != am_status::no_resource) return;
      idle();
    }
  };
  if (procs_ == 1) return;
  if (myproc_ == 0) {
    const auto others = static_cast<std::uint64_t>(procs_ - 1);
    while (barrier_arrivals_[epoch & 1] < others) idle();
    barrier_arrivals_[epoch & 1] -= others;
    for (proc_t q = 1; q < procs_; ++q) request(q, &on_barrier_release);
  } else {
    request(0, &on_barrier_arrive);
    while (barrier_released_ < epoch) idle();
  }
}

void hpam_backend::finish(int) {
  if (finished_) return;
  finished_ = true;
  // HPAM waits until everything we sent is answered, then keeps answering
  // the others' retransmissions for a while (our last replies may be lost).
  if (am_disable() != 0) port::fail("hpam: am_disable: {}", am_error_string(am_errno));
}

static_assert(splitc::backend<hpam_backend>);

}  // namespace splitc::backends::hpam
