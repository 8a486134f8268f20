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
// Switches (env_vars.def): SPLITC_SAME_HOST=0 turns the layer off,
// SPLITC_HOST_ID and SPLITC_SAME_HOST_MAX split a host, SPLITC_VERBOSE says
// who shares with whom.
#pragma once

#include <splitc/am.hpp>
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
  /// the range cannot be had.
  void* map_segment(std::string_view backend, const segment_geometry& g);

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

  /// The processors sharing memory with this one, in increasing order, this
  /// one included (just this one with the layer off).
  const std::vector<proc_t>& members() const noexcept { return members_; }

 private:
  void map_peer(std::string_view backend, proc_t q, int fd, std::size_t size);

  std::uintptr_t base_ = 0;
  std::size_t size_ = 0;
  int segment_fd_ = -1;                 ///< the memfd, until connect has sent it
  std::vector<std::uintptr_t> mapped_;  ///< per processor: where its segment is mapped here, or 0
  std::vector<proc_t> members_;
};

}  // namespace splitc::port
