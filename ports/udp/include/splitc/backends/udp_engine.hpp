// The udp backend's reliability protocol, independent of sockets: per-peer
// sequence numbers, cumulative + selective acknowledgements (piggybacked on
// every data datagram, sent alone when owed and nothing is going back),
// an adaptive timeout with exponential back-off whose expiry sends a probe
// (the peer's answer says what to resend: a peer that was only slow costs no
// resent datagram), fast retransmission on selective acknowledgements, a per-peer flow-control
// window, fragmentation of medium and long messages into datagrams and their
// reassembly. The backend (udp.hpp) feeds it datagrams from its socket and
// gives it a function that sends; the unit tests connect engines through a
// fake lossy link in one process, and the fuzzer feeds it bytes.
//
// Delivery is exactly once and unordered (caps.ordered = false): a message is
// delivered as soon as all its fragments are in. Each fragment is applied at
// most once (a received-sequence bitmap per peer); a long message's fragments
// are written to their destination as they arrive, and its handler runs when
// the last one is in.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/backends/udp_wire.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace splitc::backends::udp {

/// Counters, per process. Visible through udp_backend::stats() and the
/// SPLITC_UDP_STATS=1 dump.
struct udp_stats {
  std::uint64_t datagrams_sent = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t datagrams_received = 0;  ///< valid ones
  std::uint64_t bytes_received = 0;
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t retransmits_timeout = 0;  ///< resent because a timeout's probe found them missing
  std::uint64_t retransmits_fast = 0;
  std::uint64_t probes_sent = 0;          ///< timeouts: a probe asks the peer what it has
  std::uint64_t gso_sends = 0;            ///< runs of datagrams handed to the kernel as one (GSO)
  std::uint64_t gro_reads = 0;            ///< reads that returned several datagrams (GRO)
  std::uint64_t acks_sent = 0;        ///< datagrams that carry only acknowledgements
  std::uint64_t heartbeats_sent = 0;  ///< of those, sent because the peer heard nothing else
  std::uint64_t duplicates = 0;       ///< valid datagrams already received (dropped)
  std::uint64_t out_of_window = 0;    ///< valid datagrams beyond the receive window (dropped)
  std::uint64_t no_resource = 0;      ///< sends refused: the peer's send ring was full
  std::uint64_t send_errors = 0;      ///< datagrams the socket would not take (retransmitted later)
  std::uint64_t dropped[static_cast<int>(drop_reason::count)] = {};
  // The impairment layer (SPLITC_UDP_IMPAIR), counted by the backend.
  std::uint64_t impair_dropped = 0;
  std::uint64_t impair_duplicated = 0;
  std::uint64_t impair_delayed = 0;
  std::uint64_t impair_reordered = 0;

  /// Datagrams dropped because they failed validation (all reasons).
  std::uint64_t rejected() const noexcept {
    std::uint64_t n = 0;
    for (int i = 1; i < static_cast<int>(drop_reason::count); ++i) n += dropped[i];
    return n;
  }
};

struct engine_config {
  std::size_t ring_bytes = std::size_t{8} << 20;    ///< per-peer send storage
  std::size_t window_bytes = std::size_t{4} << 20;  ///< per-peer bytes in flight
  int ack_every = 4;                   ///< owed datagrams that trigger an acknowledgement at once
  std::uint64_t ack_delay_ns = 150'000;      ///< longest an acknowledgement waits
  std::uint64_t rto_initial_ns = 2'000'000;
  std::uint64_t rto_min_ns = 500'000;
  std::uint64_t rto_max_ns = 1'000'000'000;
  std::uint64_t tick_ns = 100'000;           ///< how often the retransmission scan runs
  std::uint64_t heartbeat_ns = 1'000'000'000;
  int dupthresh = 2;  ///< later datagrams acknowledged before a hole is retransmitted
};

/// How the engine sends: `n` datagrams to processor `peer`.
struct engine_link {
  void* context = nullptr;
  void (*send)(void* context, int peer, const unsigned char* const* datagrams,
               const std::size_t* lengths, int n) = nullptr;
};

/// Where the engine delivers the backend's own (internal) messages.
struct internal_sink {
  void* context = nullptr;
  void (*deliver)(void* context, const am_message& message) = nullptr;
};

class engine {
 public:
  static constexpr std::uint64_t receive_window = 4096;  ///< datagrams, per peer (power of 2)
  static constexpr std::uint64_t send_slots = receive_window;
  static constexpr int internal_opcodes = 16;

  engine(const engine_config& config, const wire_keys& keys, const parse_limits& limits,
         engine_link link, internal_sink internal, std::uint64_t now);
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  int myproc() const noexcept { return limits_.myproc; }
  int procs() const noexcept { return limits_.procs; }

  /// Largest datagram to `peer` (header included); the path's size.
  void set_datagram_bytes(int peer, std::size_t bytes);
  /// Bytes in flight to `peer` (flow-control window).
  void set_window_bytes(int peer, std::size_t bytes);
  /// Handlers registered here; data naming a higher one is refused (and retried by its sender).
  void set_handler_limit(std::size_t n) noexcept { handler_limit_ = n; }

  /// Queue a message (copying args and payload) and transmit what the window allows.
  am_status send(int peer, bool request, am_kind kind, bool internal, std::uint16_t handler,
                 const am_word* args, int nargs, const void* src, std::size_t len, void* dst,
                 std::uint64_t now);

  /// Act on one datagram; returns the messages delivered (to `sink` or the internal sink).
  int receive(const unsigned char* data, std::size_t len, am_sink sink, std::uint64_t now);

  /// Messages to ourselves, queued by send(); delivered here.
  int drain_self(am_sink sink);

  /// After a batch of receives: send the acknowledgements that should not wait.
  void flush_acks(std::uint64_t now);

  /// Timers: retransmission, delayed acknowledgements, heartbeats. Cheap when
  /// nothing is due (one comparison). (A silent peer is the porting kit's
  /// watchdog's business: include/splitc/port/watchdog.hpp.)
  void tick(std::uint64_t now) {
    if (now >= next_tick_) run_timers(now);
  }
  /// tick(now) would run the timers.
  bool timers_due(std::uint64_t now) const noexcept { return now >= next_tick_; }
  /// When tick(now) will next run the timers (ns).
  std::uint64_t next_timers_ns() const noexcept { return next_tick_; }

  /// Everything we sent has been acknowledged.
  bool all_acknowledged() const noexcept;

  udp_stats& stats() noexcept { return stats_; }
  const udp_stats& stats() const noexcept { return stats_; }
  std::uint64_t rto_ns(int peer) const noexcept;
  std::size_t in_flight(int peer) const noexcept;

 private:
  struct out_desc {
    std::uint64_t at = 0;          ///< virtual offset in the ring
    std::uint32_t len = 0;         ///< datagram bytes
    std::uint32_t retx = 0;        ///< times retransmitted
    std::uint32_t probes = 0;      ///< timeouts it has had (each sends a probe; backs off)
    std::uint64_t last_sent = 0;   ///< ns
    std::uint64_t digest[2] = {};  ///< NH2 of the body (bodies > direct_tag_limit)
    bool sent = false;
    bool sacked = false;
  };
  struct reassembly {
    std::uint64_t msg_seq = 0;
    std::uint32_t total = 0;
    std::uint32_t received = 0;
    std::uint16_t handler = 0;
    std::uint8_t flags = 0;
    std::uint8_t nargs = 0;
    bool have_first = false;
    std::uint64_t address = 0;
    am_word args[am_max_args] = {};
    std::unique_ptr<unsigned char[]> buffer;  ///< medium and internal payloads
  };
  struct peer {
    // sending
    std::size_t datagram_bytes = max_datagram;
    std::size_t window_bytes = 0;
    unsigned char* ring = nullptr;  ///< ring_bytes, mapped on first use
    std::unique_ptr<out_desc[]> desc;
    std::uint64_t next_seq = 1;  ///< next sequence number to assign
    std::uint64_t una = 1;       ///< oldest not cumulatively acknowledged
    std::uint64_t next_tx = 1;   ///< oldest never transmitted
    std::uint64_t head = 0, tail = 0;  ///< ring occupancy (virtual offsets)
    std::size_t in_flight = 0;   ///< bytes sent, not acknowledged (cumulatively or selectively)
    std::uint64_t srtt = 0, rttvar = 0, rto = 0;
    std::uint64_t last_sent_any = 0;
    std::uint64_t last_progress = 0;  ///< last acknowledgement that acknowledged something new
    std::uint64_t highest_sacked = 0;  ///< highest sequence number selectively acknowledged
    std::uint64_t probe_number = 0;    ///< last probe sent (numbers from 1)
    std::uint64_t probe_waiting = 0;   ///< the probe whose answer is awaited (0: none)
    std::uint64_t probe_sent_at = 0;   ///< when it went (ns)
    bool in_active = false;
    // receiving
    std::uint64_t cum = 1;  ///< every seq < cum has arrived
    std::uint64_t largest_seq = 0;  ///< highest seq that has arrived
    std::uint64_t largest_at = 0;   ///< when it arrived (ns): acknowledgements report their delay
    std::uint64_t bitmap[receive_window / 64] = {};
    std::uint32_t owed = 0;  ///< datagrams received since our last acknowledgement
    std::uint64_t owed_since = 0;
    bool urgent = false;  ///< a hole, a duplicate or a probe: acknowledge at once
    std::uint64_t probe_to_answer = 0;  ///< the peer's probe our next ack answers (0: none)
    bool in_owed = false;
    std::vector<reassembly> partial;
  };
  struct self_message {
    bool request;
    bool internal;
    am_kind kind;
    std::uint16_t handler;
    int nargs;
    am_word args[am_max_args];
    std::vector<unsigned char> payload;
    void* dst;
    std::size_t len;
  };

  void run_timers(std::uint64_t now);
  bool ensure_ring(peer& o);
  std::size_t chunk_bytes(const peer& o) const noexcept;
  void fill_ack_fields(int q, wire_header& h, std::uint64_t now) noexcept;
  void transmit(int q, std::uint64_t first, std::uint64_t last, std::uint64_t now, bool retransmit);
  void transmit_new(int q, std::uint64_t now);
  void send_ack(int q, std::uint64_t now, bool heartbeat, dgram_type type = dgram_type::ack);
  void resend_missing(int q, std::uint64_t now);
  void answered(int q, std::uint64_t probe, std::uint64_t now);
  bool apply_ack(int q, const wire_header& h, std::uint64_t now);
  void mark_received(peer& in, std::uint64_t seq, std::uint64_t now) noexcept;
  bool has(const peer& in, std::uint64_t seq) const noexcept {
    return (in.bitmap[(seq & (receive_window - 1)) >> 6] >> (seq & 63)) & 1;
  }
  std::uint64_t bits64(const peer& in, std::uint64_t start) const noexcept;
  void owe_ack(int q, peer& in, std::uint64_t now, bool urgent);
  int deliver(am_sink sink, const am_message& m, bool internal);
  void rtt_sample(peer& o, std::uint64_t sample) noexcept;

  engine_config config_;
  wire_keys keys_;
  parse_limits limits_;
  engine_link link_;
  internal_sink internal_;
  std::size_t handler_limit_ = 65536;
  std::vector<peer> peers_;
  std::vector<int> active_;  ///< peers with data in flight or queued
  std::vector<int> owed_;    ///< peers we owe an acknowledgement
  std::deque<self_message> self_;
  std::uint64_t next_tick_ = 0;
  std::uint64_t next_slow_ = 0;
  udp_stats stats_;
};

}  // namespace splitc::backends::udp
