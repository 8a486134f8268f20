// Mailboxes: the point-to-point channels the collectives run on. Every
// processor has, in the runtime part (the start of its segment, the same
// address everywhere; private memory on the sim: context::shared), `depth`
// slots per possible sender; a message names its slot by offset. Message n from p to q goes
// to q's slot (p, n mod depth); q acknowledges by writing n+1 into p's
// acknowledgement word for q. A sender that is `depth` messages ahead of the
// receiver's acknowledgements waits: this is the seed's static-dataflow flow
// control (§4.3.2), which lets successive collectives pipeline instead of
// paying a barrier each.
//
// With direct access (smp) a message is a memcpy into the peer's slot plus a
// release store of its sequence word: one cache-line transfer for small
// data. Without it, the same slot is filled by an active message handler at
// the owner. The algorithms above do not know the difference.
#pragma once

#include <splitc/port/am.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace splitc::detail {

struct context;

inline constexpr std::size_t mailbox_slot_bytes = 1024;
inline constexpr std::size_t mailbox_depth = 4;

struct mailbox_slot {
  std::atomic<std::uint64_t> sequence;  ///< n + 1 once message n is complete
  std::uint64_t length;
  unsigned char data[mailbox_slot_bytes - 16];
};
static_assert(sizeof(mailbox_slot) == mailbox_slot_bytes);

/// Every message ends with the sender's collective signature (a hash of the
/// collective, element type and operator), so mismatched calls are caught.
inline constexpr std::size_t mailbox_signature_bytes = sizeof(std::uint64_t);
inline constexpr std::size_t mailbox_payload_bytes =
    sizeof(mailbox_slot::data) - mailbox_signature_bytes;

/// Per-process bookkeeping of the channels (private memory).
struct mailbox_state {
  unsigned char* region = nullptr;  ///< start of the mailbox region in our segment
  std::size_t procs = 0;
  std::vector<std::uint64_t> sent;         ///< messages sent to each processor
  std::vector<std::uint64_t> received;     ///< messages consumed from each processor
  std::vector<std::uint64_t> acked_seen;   ///< last acknowledgement read, per receiver

  /// Bytes the region needs for `procs` processors.
  static std::size_t region_bytes(std::size_t procs) noexcept {
    return 64 * procs + mailbox_slot_bytes * mailbox_depth * procs;
  }
  /// Acknowledgement word in *this* layout: receiver q's acknowledgements to us.
  std::atomic<std::uint64_t>* ack_word(std::size_t receiver) const noexcept {
    return reinterpret_cast<std::atomic<std::uint64_t>*>(region + 64 * receiver);
  }
  mailbox_slot* slot(std::size_t sender, std::uint64_t n) const noexcept {
    return reinterpret_cast<mailbox_slot*>(region + 64 * procs +
                                           mailbox_slot_bytes * (sender * mailbox_depth + n % mailbox_depth));
  }
};

/// Send `len` (<= mailbox_payload_bytes) bytes to processor q, signed with
/// the context's current collective signature.
void mailbox_send(context& c, proc_t q, const void* data, std::size_t len);
/// Wait for the next message from processor p; the pointer is valid until
/// mailbox_release. `len` and `signature` describe what the sender sent.
const unsigned char* mailbox_receive(context& c, proc_t p, std::size_t* len,
                                     std::uint64_t* signature);
/// Give the slot of the last message from p back to its sender.
void mailbox_release(context& c, proc_t p);

}  // namespace splitc::detail
