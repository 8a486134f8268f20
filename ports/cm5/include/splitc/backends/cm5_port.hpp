// The splitc port to the CM-5's active messages, shared by the cmaml and cmam
// backends (README.md): a class template over the vendor layer's calls
// (`Layer`: CMAML's or CMAM's, defined by each port against its own header).
//
// The boundary as the CM-5 has it: four argument words, no medium messages,
// not ordered, no direct access. A message is one packet when its words fit:
// the splitc header (handler, sender, argument count) rides in the top bits
// of the first three words when they fit in 48 bits (every address and count
// the core sends), else it is the first word and a fourth argument rides in
// its spare bits when small; else two packets reassembled in either order.
// Long messages (bulk data) go through a landing area the receiver opens (a receive port on
// CMAML, a segment on CMAM) with a round trip before the data is copied (Luna 1994 §4.2.1);
// one-sided gets, puts and stores land at their destinations, a get with no set-up (the
// requester opens the area at its own memory). Replies use the layer's reply only from the
// request handler that is running; otherwise (a message delivered later, a long reply) they
// travel as requests marked as replies.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/segment_places.hpp>
#ifdef SPLITC_SIM_SUBSTRATE
#include <splitc/port/on_sim.hpp>
#endif

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace splitc::backends::cm5 {

/// A CM-5 handler: four words.
using layer_handler = void (*)(long, long, long, long);

#ifdef SPLITC_SIM_SUBSTRATE
/// On the sim engine: one process for all processors, its idle wait and clock.
using substrate_members = port::sim_members;
#else
struct substrate_members {};
#endif

template <class Layer>
class cm5_backend : public substrate_members {
 public:
  static constexpr const char* name = Layer::name;
  static constexpr capabilities caps{
      .max_args = 4,
      .max_medium = 0,
      .max_long = Layer::max_long,
      .ordered = false,
      .direct_access = false,
  };

  explicit cm5_backend(start_arguments args);
  ~cm5_backend();
  cm5_backend(const cm5_backend&) = delete;
  cm5_backend& operator=(const cm5_backend&) = delete;

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  am_status request_short(proc_t p, handler_id h, const am_word* a, int n);
  am_status reply_short(const am_message& t, handler_id h, const am_word* a, int n);
  am_status request_long(proc_t p, handler_id h, const am_word* a, int n, const void* src,
                         std::size_t len, void* dst);
  am_status reply_long(const am_message& t, handler_id h, const am_word* a, int n,
                       const void* src, std::size_t len, void* dst);
  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);
#ifdef SPLITC_SIM_SUBSTRATE
  /// The engine's idle wait, unless something is here that no arrival would
  /// announce: packets stored during a send after the last poll (the
  /// landing-area round trip of a long message the core retried), a send
  /// refused since then (no landing area free at the receiver; the core's
  /// next poll retries it), gets that came during a send, or packets the
  /// layer took off the network into its receive window while a handler's
  /// send was blocked (a layer poll here moves them to the store). The
  /// engine's wait would sleep past them for ever ("deadlock ... no message
  /// is in flight", "no progress"); a poll lets the others run.
  void wait_idle(am_sink sink, const char* what) {
    if (!stored_.empty() || refused_since_poll_ || !queued_gets_.empty()) return;
    if (Layer::poll() != 0) return;
    substrate_members::wait_idle(sink, what);
  }
#endif

  // Native collectives on the control network (PORTING.md: has_native_barrier,
  // has_native_reduce): the barrier on both ports, reductions, scans and a small
  // broadcast where the Layer has them (CMAML; CMAM keeps the core's trees).
  void native_barrier(am_sink sink, am_progress progress);
  static constexpr std::size_t native_broadcast_bytes = Layer::control_broadcast_bytes;
  static constexpr bool native_reduces(native_collective what, native_element e,
                                       native_op op) noexcept
    requires Layer::control_reductions
  {
    return Layer::control_reduces(what, e, op);
  }
  am_word native_combine(am_sink sink, am_progress progress, native_collective what,
                         native_element e, native_op op, am_word value)
    requires Layer::control_reductions;
  void native_broadcast(am_sink sink, am_progress progress, void* data, std::size_t len,
                        proc_t root)
    requires Layer::control_reductions;
  // One-sided transfers the seed's way (Luna 1994 §4.2.1; am.hpp, has_rma, has_rma_store), for
  // more than the 8 bytes a short message carries: a get opens a landing area at its own
  // destination -- no communication -- and asks the owner to send the data there; a put or a
  // store asks the owner to open one at the target (a round trip) and sends the data straight
  // into it, without the staging buffer a long message lands in. A put's completion is a
  // reply from the owner's landing handler; a store's, bytes added to the owner's count.
  // Shorter transfers stay active messages (rma_min_bytes: a get or put of a word is one
  // packet each way there, as the seed's were).
  bool rma_reaches(proc_t, const void* addr, std::size_t len) const noexcept {
    const auto mine = reinterpret_cast<std::uintptr_t>(port::same_place_on(myproc_, addr));
    const std::uintptr_t off = mine - reinterpret_cast<std::uintptr_t>(segment_.base);
    return len >= rma_min_bytes && len <= rma_max && off < segment_.size &&
           len <= segment_.size - off && get_landings_ < max_get_landings;
  }
  /// The fewest bytes rma_reaches accepts: more than the word a short message carries.
  static constexpr std::size_t rma_min_bytes = sizeof(am_word) + 1;
  am_status rma_get(void* dst, proc_t p, const void* src, std::size_t len, counter& done);
  am_status rma_put(proc_t p, void* dst, const void* src, std::size_t len, counter& done);
  am_status rma_store(proc_t p, void* dst, const void* src, std::size_t len);
  std::int64_t rma_stored_bytes() noexcept {
    const std::int64_t bytes = stored_bytes_;
    stored_bytes_ = 0;
    return bytes;
  }

  segment_info segment() const noexcept { return segment_; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code);

  // The layer's handlers (C-callable, four words), public for the layer glue.
  static void on_packed_request(long w0, long w1, long w2, long w3);
  static void on_packed_reply(long w0, long w1, long w2, long w3);
  static void on_request(long header, long a0, long a1, long a2);
  static void on_reply(long header, long a0, long a1, long a2);
  static void on_second_request(long key, long arg3, long, long);
  static void on_second_reply(long key, long arg3, long, long);
  static void on_open(long ticket, long dst, long len, long meta);
  static void on_opened(long ticket, long port, long, long);
  static void on_open_target(long ticket, long dst, long len, long done);
  static void on_get(long source_and_port, long src, long len, long);
  static void on_put_done(long done, long, long, long);
  /// A landing area is full: deliver its long message (record: a landing*).
  static void landed(void* record);

 private:
  struct stored {
    am_message message;
    am_word args[4];
  };
  struct partial {
    long header = 0;
    am_word args[4] = {};
    bool first = false, second = false;
  };
  /// What a landing area is for: a long message (the data behind its arguments, in a staging
  /// buffer), or the destination itself of an RMA get, put or store.
  enum class landing_kind : unsigned char { message, get, put, store };
  struct landing {
    landing_kind kind = landing_kind::message;
    counter* done = nullptr;  // get: this processor's counter; put: the requester's
    proc_t source;
    handler_id handler;
    bool is_request;
    int nargs;
    void* dst;
    std::size_t len;
    unsigned char* staging;  // the arguments' 32 bytes, then the data
    int port;
  };

  /// A get to serve: its data, sent into the requester's landing area.
  struct get_request {
    proc_t requester;
    int port;
    const void* src;
    std::size_t len;
  };
  /// A landing area's byte count is an int. A processor keeps at most max_get_landings of its
  /// receive ports for its own gets (the layer has 64, which long messages and CMMD's
  /// receives share); beyond, a get goes as active messages.
  static constexpr std::size_t rma_max = std::size_t{1} << 30;
  static constexpr int max_get_landings = 16;

  static cm5_backend& here();
  int open_landing_at(proc_t p, layer_handler opener, long dst, long len, long last);
  am_status open_target(proc_t p, void* dst, std::size_t len, counter* done, const void* src);
  void serve_get(const get_request& g);
  void serve_queued_gets();
  /// The end of a send of the layer.
  void leave_send() {
    --send_depth_;
    after_send();
  }
  /// After the outermost send: the gets that arrived during it are served now, wherever it
  /// was, and inside the control network (where no poll of this processor's runs) the core
  /// messages kept during it are delivered, as after a delivery there -- a processor waiting
  /// in a barrier must still answer the one that waits for those.
  void after_send() {
    if (send_depth_ != 0) return;
    if (!queued_gets_.empty()) serve_queued_gets();
    if (in_control_ && delivering_ == 0 && !stored_.empty()) after_delivery();
  }
  /// The backend of each processor (one per process; on sim, one per simulated processor).
  static std::vector<cm5_backend*>& instances() {
    static std::vector<cm5_backend*> table;
    return table;
  }
  am_status send(proc_t p, handler_id h, const am_word* a, int n, bool is_request,
                 bool as_reply_packet);
  am_status send_long(proc_t p, handler_id h, const am_word* a, int n, const void* src,
                      std::size_t len, void* dst, bool is_request);
  void unpack(long w0, long w1, long w2, long w3, bool reply_network);
  void first_half(long header, const long* words, bool reply_network);
  void second_half(long key, long arg3, bool reply_network);
  void arrive(const am_message& m, bool from_request_handler);
  /// Run `operation` (a control-network call of the Layer) delivering what
  /// arrives meanwhile, and the core's progress after each delivery.
  template <class Operation>
  void on_control_network(am_sink sink, am_progress progress, Operation operation);
  void after_delivery();

  proc_t myproc_ = 0, procs_ = 1;
  segment_info segment_{};
  am_sink sink_{};
  bool may_deliver_ = false;   // inside poll or bootstrap_barrier, not inside a send
  int send_depth_ = 0;         // layer sends in progress (handlers may run inside them)
  bool in_request_handler_ = false;  // delivering straight from the layer's request handler
  proc_t requester_ = -1;
  bool replied_ = false;
  int delivering_ = 0;          // core handlers running (a long send then waits for the queue)
  int delivered_ = 0;           // by the poll in progress
  bool in_control_ = false;     // inside a control-network operation
  bool in_progress_hook_ = false;
  am_progress progress_{};      // the core's, during a native collective
  std::uint64_t next_tag_ = 0;
  long open_ticket_ = 0;        // the landing area this processor waits for
  volatile int open_done_ = 0;
  int open_port_ = -1;
  std::unordered_map<std::uint64_t, partial> partials_;
  std::deque<stored> stored_;
  bool refused_since_poll_ = false;  // a send answered no_resource (wait_idle)
  int get_landings_ = 0;             // landing areas open for this processor's own gets
  std::int64_t stored_bytes_ = 0;    // landed by RMA stores since rma_stored_bytes
  std::deque<get_request> queued_gets_;  // arrived inside a send of the layer
};

}  // namespace splitc::backends::cm5
