// NXAM: splitc's active messages on a message-passing layer, as the
// Libsplit-C report built them on the Paragon's NX (Luna 1994 §4.1.3) and
// then, "almost identical", on the SP-1's MPL (Appendix B). One source
// (ports/nxam/src/nxam_backend.cpp) makes both ports; the few calls that
// differ are each port's layer file (ports/nxam/layer/nx/nxam_layer.hpp:
// NX; ports/nxam/layer/mpl/nxam_layer.hpp: MPL).
//
//  * One kind of receive: a ring of receives of one message type posted
//    ahead into packet buffers; poll tests only the oldest (one test per
//    idle poll) and returns once it has delivered a reply (what a waiting
//    main line waits for); the first word names the handler, then the arguments and
//    a medium payload. Requests and replies share the type. A delivered
//    slot's receive is posted again by the next poll, in ring order.
//  * Small packets (up to 512 bytes) by the layer's blocking send (csend /
//    mpc_bsend), which copies them out at once; larger ones from the
//    backend's own packet buffers (isend / mpc_send), taken back in poll
//    once the layer says they are done; none free: no_resource.
//  * Long messages (§4.2.3): the packet goes first and the data right after
//    it under a type of its own (a per-destination counter); the receiver's
//    poll posts the data's receive at the destination address as soon as it
//    sees the packet, so in the common case the data lands there without a
//    copy. The sender copies the data first (the boundary wants `src` free
//    when the send returns, and waiting for the receiver could deadlock).
//  * No layer-level collectives (§4.3.3): gsync/gdsum, mpc_sync/mpc_combine
//    do not poll our receives; the bootstrap barrier is a dissemination
//    barrier of our own packets, served by poll while it waits.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(SPLITC_SIM_SUBSTRATE)
#include <splitc/port/on_sim.hpp>
#endif

namespace splitc::backends::nxam {

class nxam_backend : public port::am_forwarding<nxam_backend>
#if defined(SPLITC_SIM_SUBSTRATE)
    , public port::sim_members
#endif
{
 public:
  friend class port::am_forwarding<nxam_backend>;
#if defined(SPLITC_BACKEND_NX_MPICH)
  static constexpr const char* name = "nx_mpich";
#elif defined(SPLITC_BACKEND_NX_SIM)
  static constexpr const char* name = "nx_sim";
#elif defined(SPLITC_BACKEND_NX)
  static constexpr const char* name = "nx";
#elif defined(SPLITC_BACKEND_MPL_MPICH)
  static constexpr const char* name = "mpl_mpich";
#elif defined(SPLITC_BACKEND_MPL_SIM)
  static constexpr const char* name = "mpl_sim";
#else
  static constexpr const char* name = "mpl";
#endif
  /// Bytes of a pre-posted receive: the packet header, 8 words, a medium payload.
  static constexpr std::size_t packet_bytes = 4096;
  static constexpr std::size_t header_bytes = 32;
  /// Packets up to this size go by the layer's blocking send from the stack.
  static constexpr std::size_t small_packet_bytes = 512;
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = packet_bytes - header_bytes - 8 * am_max_args,
      .max_long = std::size_t{1} << 20,
      .ordered = true,  // one type, receives matched in posting order, delivered in ring order
      .direct_access = false,
  };

  explicit nxam_backend(start_arguments args);
  nxam_backend(const nxam_backend&) = delete;
  nxam_backend& operator=(const nxam_backend&) = delete;
  ~nxam_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send and send_short.

  int poll(am_sink sink);
#if defined(SPLITC_SIM_SUBSTRATE)
  /// The core's idle wait on the engine: a poll moves every packet that has
  /// arrived into the layer's queues but delivers at most a ring's worth, so
  /// sleep only after a poll that delivered nothing.
  void wait_idle(am_sink sink, const char* what);
#endif
  void bootstrap_barrier(am_sink sink);
  segment_info segment() const noexcept { return segment_; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code);

 private:
  /// Receives posted ahead: the ring's slots (a power of two, so that a
  /// packet's slot is found with a mask).
  static constexpr std::size_t ring_slots = 8;
  struct slot;       // a receive of the ring (src/nxam_backend.cpp)
  struct in_flight;  // a send not yet done
  am_status send(proc_t p, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);
  /// A short message (the round trip's): the header and the words, by the blocking send.
  am_status send_short(proc_t p, bool is_request, handler_id h, const am_word* a, int n);
  bool send_control(proc_t p, std::uint64_t round);
  unsigned char* take_buffer();
  void reclaim_sends();
  void post(slot& s);
  void repost_delivered();
  bool arrived(slot& s);
  [[noreturn, gnu::cold]] void bad_packet(const slot& s, std::size_t length) const;
  [[noreturn, gnu::cold]] void layer_failed(const char* call) const;

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  segment_info segment_{};
  std::vector<slot> ring_;
  std::uint64_t head_ = 0;  ///< the next packet to deliver
  std::size_t unposted_ = 0;  ///< slots before head_ delivered, their receive not yet posted again
  std::vector<unsigned char*> free_buffers_;
  std::vector<unsigned char*> all_buffers_;
  std::vector<in_flight> sends_;
  std::vector<long> next_data_type_;  ///< per destination
  std::vector<std::uint64_t> barrier_tokens_;  ///< tokens received, per round
  std::uint64_t barrier_epoch_ = 0;
  bool finished_ = false;
};

}  // namespace splitc::backends::nxam
