// The hpam backend: splitc ported to HPAM, the HP workstations' active
// messages with the GAM 1.1 interface (hpam.h; emulations/hp). Written
// against the vendor header alone; see ports/hpam/README.md.
//
// A message with at most three argument words is one am_request_4 (or
// am_reply_4): the first word carries the splitc handler index and the word
// count; so is one with four whose first fits in 48 bits (the handler index
// in its top 16 bits). Anything larger -- more words, a medium or long payload -- is one
// am_store of [header, words, payload] into this sender's staging buffer at
// the receiver (past the end of the segment, at the same address on every
// processor), whose handler delivers it; a long payload is copied from there
// to its destination. A reply is sent from inside the request handler, as
// HPAM requires: am_reply_4, or an am_store to the requester, which HPAM
// carries as the reply -- and that reply is HPAM's acknowledgement, so a
// bulk fragment's completion rides on it (Luna 1994 §4.2.2). Messages are
// at most one 4 KB packet: the core cuts bulk transfers into max_long
// pieces ("fragmentation pushed up into the library").
//
// HPAM makes the network reliable and ordered; a request sent from inside a
// handler, or with every request buffer to its destination in flight, is
// answered no_resource and the core queues it.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>

#if defined(SPLITC_SIM_SUBSTRATE)
#include <splitc/port/on_sim.hpp>
#endif

#include <cstddef>
#include <cstdint>

namespace splitc::backends::hpam {

/// HPAM's largest store (am_max_size()): a 4 KB packet less its 64-byte header.
inline constexpr std::size_t hpam_store_bytes = 4096 - 64;
/// The backend's header in a staged message: handler, words, kind, length, destination.
inline constexpr std::size_t staged_header_bytes = 16;
/// The largest medium or long payload: one store, less the header and eight words.
inline constexpr std::size_t max_payload_bytes =
    hpam_store_bytes - staged_header_bytes - am_max_args * sizeof(am_word);

class hpam_backend : public port::am_forwarding<hpam_backend>
#if defined(SPLITC_SIM_SUBSTRATE)
    , public port::sim_members
#endif
{
 public:
  friend class port::am_forwarding<hpam_backend>;
#if defined(SPLITC_SIM_SUBSTRATE)
  static constexpr const char* name = "hpam_sim";
#else
  static constexpr const char* name = "hpam";
#endif
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = max_payload_bytes,
      .max_long = max_payload_bytes,
      .ordered = true,
      .direct_access = false,
  };

  explicit hpam_backend(start_arguments args);
  hpam_backend(const hpam_backend&) = delete;
  hpam_backend& operator=(const hpam_backend&) = delete;
  ~hpam_backend();

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send.

  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);
  /// Sleep in HPAM until a packet may have arrived or a retransmission is due
  /// (on sim: suspend the processor unless a retransmission is pending).
  void wait_idle(am_sink sink, const char* what);

  segment_info segment() const noexcept { return {segment_base_, segment_size_}; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }

  void finish(int code);

  // ---- used by the HPAM handlers (hpam_backend.cpp) ----------------------------
  void deliver(const am_message& m);
  /// Where processor `sender`'s staged messages (requests or replies) land here.
  unsigned char* staging(proc_t sender, bool reply) const noexcept;
  std::uint64_t barrier_arrivals_[2] = {0, 0};
  std::uint64_t barrier_released_ = 0;

 private:
  am_status send(proc_t p, bool request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);
  am_status refused(proc_t p, bool request);
  /// am_poll, delivering to `sink`: returns the packets it handled (poll
  /// returns the messages delivered to the core).
  int poll_packets(am_sink sink);
  void map_segment();

  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  void* segment_base_ = nullptr;
  std::size_t segment_size_ = 0;
  std::size_t staging_bytes_ = 0;
  std::uint64_t barrier_epoch_ = 0;
  am_sink sink_{nullptr, nullptr, 0};
  int delivered_ = 0;
  bool finished_ = false;
  unsigned char staged_[hpam_store_bytes];  ///< a staged message being sent
};

}  // namespace splitc::backends::hpam
