// The udp backend: reliable active messages over UDP, for processes on one
// host or many. See docs/udp.md.
//
// Each process has one UDP socket. The launcher (splitc-run --backend udp)
// runs a rendezvous that hands every process the table of endpoints, the
// job's identifier and a random secret; every datagram carries a keyed tag
// over its header and payload (udp_wire.hpp), and anything that fails
// validation is dropped and counted. The reliability protocol
// (udp_engine.hpp) makes every request and reply arrive exactly once despite
// loss, duplication and reordering; its retransmission check runs inside
// every poll and costs one clock read and a comparison when nothing is due.
//
// The segment is reserved at the same address in every process
// (SPLITC_SEGMENT_BASE, default 0x100000000000; size SPLITC_SEGMENT_SIZE,
// default 1 GiB), in shared memory: processes on one host map each other's
// (port/same_host.hpp) and reach them by load and store, and their active
// messages travel over the layer's rings in that memory; global memory on
// other hosts, and every message to them, goes over UDP.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/same_host.hpp>
#include <splitc/backends/udp_engine.hpp>
#include <splitc/backends/udp_wire.hpp>

#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace splitc::backends::udp {

/// Monotonic nanoseconds (vDSO clock_gettime: ~26 ns).
inline std::uint64_t now_ns() noexcept {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

/// One processor's endpoint, as the rendezvous hands it out.
struct endpoint {
  std::uint32_t ip = 0;      ///< IPv4, network order
  std::uint16_t port = 0;    ///< network order
  std::uint16_t reserved = 0;
  std::uint32_t rcvbuf = 0;  ///< its socket's receive buffer, bytes
  std::uint32_t pid = 0;
};
static_assert(sizeof(endpoint) == 16);

class impairment;  // SPLITC_UDP_IMPAIR (impair.cpp)

class udp_backend : public port::am_forwarding<udp_backend> {
 public:
  friend class port::am_forwarding<udp_backend>;
  static constexpr const char* name = "udp";
  /// A long message is at most 16 loopback datagrams of 65,344 payload bytes.
  static constexpr std::size_t max_long_bytes = 16 * 65344;
  static constexpr std::size_t max_medium_bytes = 65536;
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = max_medium_bytes,
      .max_long = max_long_bytes,
      .ordered = false,
      .direct_access = true,  // peers on this host (port/same_host.hpp); nullptr for the others
  };

  explicit udp_backend(start_arguments args);
  udp_backend(const udp_backend&) = delete;
  udp_backend& operator=(const udp_backend&) = delete;
  ~udp_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send.

  int poll(am_sink sink);
  /// The core's waits call this after a poll that left their condition false (am.hpp,
  /// has_idle_wait): spin while an answer is likely near, then sleep in the kernel on the
  /// socket until a datagram comes or the engine's timers are due (wait_on_socket). Where
  /// the socket is not all that can end a wait (rings of processes on this host, datagrams
  /// the impairment layer holds back) it backs off as the core does. Inline: it sits in
  /// every round of every wait.
  void wait_idle(am_sink, const char*) {
    idle_mark_ = idle_mark::paused;
    if (socket_busy_) return;  // the last poll read datagrams: look again at once
    if (same_host_.carries_any() || impair_ || fd_ < 0) {
      idle_backoff_.pause();
      return;
    }
    wait_on_socket();
  }
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

  void finish(int code);

  // ---- beyond the boundary: statistics and test hooks -------------------------
  const udp_stats& stats() const noexcept { return engine_->stats(); }
  /// One line: every counter, "name=value" separated by spaces.
  std::string stats_line() const;
  const wire_keys& keys() const noexcept { return keys_; }
  std::uint64_t job() const noexcept { return job_; }
  const std::vector<endpoint>& endpoints() const noexcept { return endpoints_; }
  /// Replace the impairment layer (same syntax as SPLITC_UDP_IMPAIR; "" turns
  /// it off after sending what it holds). For benchmarks and tests.
  void set_impairment(const std::string& spec);
  /// Largest datagram to processor p (the path's size, or SPLITC_UDP_DATAGRAM).
  std::size_t datagram_bytes(proc_t p) const noexcept { return datagram_[static_cast<std::size_t>(p)]; }

 private:
  am_status send(proc_t p, bool request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);
  am_status send_internal(proc_t p, int opcode, const am_word* a, int n, const void* src,
                          std::size_t len, am_sink sink);
  static void link_send(void* self, int peer, const unsigned char* const* datagrams,
                        const std::size_t* lengths, int n);
  void raw_send(int peer, const unsigned char* const* datagrams, const std::size_t* lengths, int n);
  int read_socket(am_sink sink, int reads, std::uint64_t& now);
  void wait_on_socket();
  static void on_internal(void* self, const am_message& m);
  template <class Done>
  void wait_for(am_sink sink, Done done);
  void connect_to_job();
  void start_helper();
  void helper_main();
  void map_segment();

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  std::uint64_t job_ = 0;
  job_secret secret_{};
  wire_keys keys_;
  std::uintptr_t segment_base_ = 0;
  std::size_t segment_size_ = 0;
  port::same_host same_host_;  ///< the segments of the processes on this host
  int fd_ = -1;       ///< UDP socket
  int control_ = -1;  ///< TCP connection to the launcher's rendezvous
  int wake_ = -1;     ///< eventfd that stops the helper thread
  std::vector<endpoint> endpoints_;
  std::vector<sockaddr_in> addresses_;
  std::vector<std::size_t> datagram_;
  std::unique_ptr<engine> engine_;
  std::unique_ptr<impairment> impair_;
  engine_config config_;

  // The receive buffer; at most max_per_poll reads per poll. With GRO a read may bring
  // several datagrams back to back; one whose offset is not a multiple of 8 (a coalesced run
  // of odd-sized ones) is parsed from recv_aligned_ (the engine reads the header in place).
  static constexpr int max_per_poll = 64;
  static constexpr std::size_t recv_slot = 65536;
  unsigned char* recv_buffers_ = nullptr;
  unsigned char* recv_aligned_ = nullptr;

  // UDP GSO (a run of datagrams handed to the kernel as one buffer, cut by it) and GRO (runs
  // read as one): on where the kernel has them and SPLITC_UDP_GSO is not 0. A path that refuses
  // a GSO buffer (a device without checksum offload) turns GSO off for the rest of the job.
  static constexpr int gso_max_segments = 64;
  bool gso_ = false;
  bool gro_ = false;

  // While the rings of this host's peers carry traffic (a delivery within ring_recent_ns) and
  // the socket is quiet, the socket is read at most every socket_poll_interval_ns (poll).
  static constexpr std::uint64_t socket_poll_interval_ns = 10000;
  static constexpr std::uint64_t ring_recent_ns = 100000;
  std::uint64_t last_socket_poll_ns_ = 0;
  std::uint64_t last_ring_delivery_ns_ = 0;
  bool socket_busy_ = false;  ///< the last read of the socket found datagrams

  // wait_on_socket: spin for idle_spin_ns (idle_spin_oversubscribed_ns with more processes
  // than cores here) after the last datagram, then sleep in ppoll.
  static constexpr std::uint64_t idle_spin_ns = 50'000;
  static constexpr std::uint64_t idle_spin_oversubscribed_ns = 2'000;
  std::uint32_t idle_rounds_ = 0;
  std::uint64_t idle_since_ns_ = 0;
  bool idle_sleeping_ = false;
  port::backoff idle_backoff_;
  /// Where the calls stand: a wait pauses (wait_idle), polls once, pauses again; poll sees a
  /// second poll without a pause between as the end of a wait.
  enum class idle_mark : std::uint8_t { none, paused, polled_once };
  idle_mark idle_mark_ = idle_mark::none;
  /// Something came (poll delivered or read), or a wait ended: the next wait spins afresh.
  void idle_reset() noexcept {
    idle_rounds_ = 0;
    idle_sleeping_ = false;
    idle_backoff_.reset();
  }

  // Bootstrap state (internal messages).
  std::uint64_t barrier_epoch_ = 0;
  std::vector<std::uint64_t> barrier_arrivals_;  ///< per round
  am_sink last_sink_{nullptr, nullptr, 0};

  // The helper thread: the launcher's messages (release, abort, its disappearance).
  std::thread helper_;
  std::atomic<bool> released_{false};
  std::atomic<bool> stopping_{false};
  bool finished_ = false;
  bool stats_at_exit_ = false;
};

}  // namespace splitc::backends::udp
