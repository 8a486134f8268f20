// Porting kit: the same-host layer. A network backend (mpi, udp) keeps its
// segment in shared memory; the processes of the job that run on one host
// find each other and map each other's segments, and the backend's
// direct_address answers for them, so that the core's direct paths (a load
// or store for read/write/get/put/store, memcpy for bulk, CPU atomics, the
// collectives' mailboxes) serve those pairs as they serve smp's. Pairs on
// different hosts keep the network.
//
// Discovery (docs/same_host.md): every process binds a datagram socket in
// the abstract namespace named by the job, SPLITC_HOST_ID and its processor
// number; after one barrier of the job each sends its segment's descriptor
// (SCM_RIGHTS) to every peer's name. Abstract sockets are scoped by the
// kernel and its network namespace, so a send that arrives proves the peer
// shares this kernel and can map the descriptor: no host names to compare,
// nothing in the file system, nothing left behind after kill -9 (the
// sockets and the memfds go with the processes).
//
// Messages (optional, for a backend that asks map_segment for them): the
// memfd holds, after the segment, a mailbox of two rings per processor of
// the job (requests and replies; port/shm_ring.hpp), which the peers on this
// host write and this process drains; a backend sends through send() to the
// processors carries() names and calls poll() in its own.
//
// One copy (optional, a backend's has_peer_read members): a collective's long piece between
// two processes of this host is read by its receiver from the sender's memory, which need
// not be the segment (port/cross_memory.hpp; the peer's process id came with its offer).
//
// Switches (env_vars.def): SPLITC_SAME_HOST=0 turns the layer off,
// SPLITC_SAME_HOST_MESSAGES=0 keeps messages on the network,
// SPLITC_HOST_ID and SPLITC_SAME_HOST_MAX split a host, SPLITC_VERBOSE says
// who shares with whom.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/cross_memory.hpp>
#include <splitc/port/ring_messages.hpp>
#include <splitc/port/segment.hpp>

#include <cstdint>
#include <string_view>
#include <vector>

namespace splitc::port {

class same_host {
 public:
  same_host() = default;
  same_host(const same_host&) = delete;
  same_host& operator=(const same_host&) = delete;
  ~same_host();

  /// The segment of this process at g.base: shared memory (a memfd) when the
  /// layer is on (SPLITC_SAME_HOST), private memory otherwise. In place of
  /// reserve_segment(backend, g, 1, true); ends the job naming `backend` when
  /// the range cannot be had. With `messages` (and SPLITC_SAME_HOST_MESSAGES),
  /// the memfd holds this process's mailbox for a job of `procs` too.
  void* map_segment(std::string_view backend, const segment_geometry& g, proc_t procs = 1,
                    bool messages = false);

  /// What connect needs of the network layer: a barrier of the whole job (run
  /// once), and progress (run while connect waits for its peers: a layer that
  /// retransmits, as udp does, must go on answering the peers still in the
  /// barrier; nullptr when the layer needs none).
  struct network {
    void* context;
    void (*barrier)(void* context);
    void (*progress)(void* context);
  };

  /// Find the processors of the job on this host and map their segments.
  /// Collective: every process calls it once, after map_segment, with the
  /// same `job` (a number no other job on the host uses: the launcher's or a
  /// random one agreed over the network) and no message of the core in
  /// flight. With the layer off it only runs the barrier.
  void connect(std::string_view backend, proc_t myproc, proc_t procs, std::uint64_t job,
               network net);

  /// Where this process loads and stores `local` of processor p: inside p's
  /// segment when p shares this host, else nullptr (what a backend's
  /// direct_address returns).
  void* address(proc_t p, const void* local) const noexcept {
    const std::uintptr_t offset = reinterpret_cast<std::uintptr_t>(local) - base_;
    if (offset >= size_) return nullptr;
    const std::uintptr_t peer = mapped_[static_cast<std::size_t>(p)];
    return peer == 0 ? nullptr : reinterpret_cast<void*>(peer + offset);
  }
  /// address() of the range [local, local + len), with one range check (a backend's
  /// direct_range).
  [[gnu::always_inline]] void* range(proc_t p, const void* local, std::size_t len) const noexcept {
    return range_in_peer(base_, size_, mapped_[static_cast<std::size_t>(p)], local, len);
  }

  /// The processors sharing memory with this one, in increasing order, this
  /// one included (just this one with the layer off).
  const std::vector<proc_t>& members() const noexcept { return members_; }

  // ---- the collectives' one copy (a backend's has_peer_read members) ------------------

  /// Copy `len` bytes at `src` in processor p's process (any of its memory) to `dst` here,
  /// when p shares this host: false when not done (another host, or the kernel refused).
  bool peer_read(proc_t p, const void* src, void* dst, std::size_t len) noexcept {
    const pid_t pid = pids_.empty() ? 0 : pids_[static_cast<std::size_t>(p)];
    return pid > 0 && cross_memory_.read(pid, src, len, dst);
  }
  /// The smallest collective piece worth reading so from p, and lending to it
  /// (SPLITC_SAME_HOST_COLLECTIVE_ONE_COPY_MIN): 0 for a processor of another host or of
  /// another pid namespace (either would see the other's pid: the answer is the same at both
  /// ends), with the layer off, or once the kernel has refused a read.
  std::size_t peer_read_min(proc_t p) const noexcept {
    if (pids_.empty() || pids_[static_cast<std::size_t>(p)] <= 0 || !cross_memory_.usable())
      return 0;
    return peer_read_min_;
  }
  /// Bytes read so far (tests check the path was taken).
  std::size_t peer_read_bytes() const noexcept { return cross_memory_.bytes_read(); }

  // ---- messages (map_segment with `messages`) ------------------------------

  /// Whether messages to p go over this host's rings: p shares this host and
  /// is not this processor, and messages are on.
  bool carries(proc_t p) const noexcept {
    return !outboxes_.empty() && outboxes_[static_cast<std::size_t>(p)].requests.ready();
  }
  /// Whether any processor's messages do (poll() has something to look at).
  bool carries_any() const noexcept { return !inboxes_.empty(); }

  enum class send_result { sent, full, too_large };
  /// Send a message to p (carries(p)) through its ring: `full` when the ring
  /// has no room (poll, then again with the same message), `too_large` when a
  /// medium message's record is more than a quarter of a ring (send it over
  /// the network). A long message whose destination lies in p's segment is
  /// copied there and only announced; a long message too large for one record
  /// goes in pieces (send_in_pieces).
  send_result send(proc_t p, bool request, am_kind kind, handler_id h, const am_word* a, int n,
                   const void* src, std::size_t len, void* dst) {
    auto& box = outboxes_[static_cast<std::size_t>(p)];
    ring_producer& ring = request ? box.requests : box.replies;
    am_status done;
    if (kind == am_kind::long_msg && len != 0) {
      if (void* mapped = address(p, dst);
          mapped != nullptr && address(p, static_cast<const char*>(dst) + len - 1) != nullptr) {
        done = ring_send_in_place(ring, h, a, n, src, len, dst, mapped);
        return done == am_status::ok ? send_result::sent : send_result::full;
      }
    }
    const bool has_dst = kind == am_kind::long_msg;
    if (record_prefix(n, has_dst) + len > max_record_) [[unlikely]] {
      if (!has_dst) return send_result::too_large;
      return send_in_pieces(request ? box.request_stream : box.reply_stream, ring, h, a, n, src,
                            len, dst);
    }
    const std::uint8_t record = kind == am_kind::long_msg     ? record_long
                                : kind == am_kind::medium_msg ? record_medium
                                                              : record_short;
    done = ring_send(ring, h, a, n, record, src, len, dst);
    return done == am_status::ok ? send_result::sent : send_result::full;
  }

  /// Deliver what the peers on this host have written to this processor's
  /// rings (replies first); returns how many messages.
  int poll(am_sink sink) {
    int handled = 0;
    for (inbox& box : inboxes_) {
      handled += ring_drain(box.replies, box.source, false, sink);
      handled += ring_drain(box.requests, box.source, true, sink);
    }
    return handled;
  }

 private:
  void map_peer(std::string_view backend, proc_t q, int fd, std::size_t size);
  void open_mailboxes(proc_t myproc, proc_t procs);
  std::size_t ring_stride() const noexcept { return sizeof(ring_shared) + ring_bytes_; }
  /// Where, in a processor's mailbox, the ring from `from` on `network` (0 requests, 1 replies) is.
  std::size_t ring_offset(proc_t procs, int network, proc_t from) const noexcept {
    return (static_cast<std::size_t>(network) * static_cast<std::size_t>(procs) +
            static_cast<std::size_t>(from)) * ring_stride();
  }

  /// A long message going out in pieces: how far it got when the ring filled
  /// (the caller sends the same message again after polling).
  struct stream {
    const void* src = nullptr;
    void* dst = nullptr;
    std::size_t len = 0, sent = 0;
  };
  struct outbox {
    ring_producer requests, replies;
    stream request_stream, reply_stream;
  };
  /// A long message larger than a record: pieces of at most piece_bytes_
  /// (record_piece), then its notification (record_in_place), resuming where
  /// the last call for the same message stopped.
  send_result send_in_pieces(stream& s, ring_producer& ring, handler_id h, const am_word* a,
                             int n, const void* src, std::size_t len, void* dst);
  struct inbox {
    proc_t source;
    ring_consumer requests, replies;
  };

  std::uintptr_t base_ = 0;
  std::size_t size_ = 0;
  int segment_fd_ = -1;                 ///< the memfd, until connect has sent it
  std::vector<std::uintptr_t> mapped_;  ///< per processor: where its segment is mapped here, or 0
  std::vector<proc_t> members_;
  std::vector<pid_t> pids_;  ///< per processor on this host and in this pid namespace: its pid, or 0
  std::size_t peer_read_min_ = 0;       ///< SPLITC_SAME_HOST_COLLECTIVE_ONE_COPY_MIN
  cross_memory cross_memory_;

  std::size_t ring_bytes_ = 0;          ///< per ring; 0: no messages
  std::size_t mailbox_bytes_ = 0;       ///< 2 × procs rings, after the segment in the memfd
  std::size_t max_record_ = 0;          ///< a quarter of a ring
  std::size_t piece_bytes_ = 0;         ///< payload of one piece of a larger long message
  unsigned char* mailbox_ = nullptr;    ///< this processor's, mapped here
  std::vector<outbox> outboxes_;        ///< per processor; empty without messages
  std::vector<inbox> inboxes_;          ///< one per peer on this host
};

}  // namespace splitc::port
