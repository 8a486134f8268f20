// Mailboxes: the point-to-point channels the collectives run on. Every
// processor has, in the runtime part (the start of its segment, the same
// address everywhere; private memory on the sim: context::shared), `depth`
// slots per possible sender; a message names its slot by offset. Message n from p to q goes
// to q's slot (p, n mod depth); q acknowledges by writing n+1 into p's
// acknowledgement word for q (by active message every 16th only up to 8 processors, every 4th
// beyond, and at once for a staged piece: src/mailbox.cpp). A sender `depth` ahead of the
// receiver's acknowledgements waits: this is the seed's static-dataflow flow
// control (§4.3.2), which lets successive collectives pipeline instead of
// paying a barrier each.
//
// With direct access (smp) a message is a memcpy into the peer's slot plus a
// release store of its sequence word: one cache-line transfer for small
// data. Without it, the same slot is filled by an active message handler at
// the owner. The algorithms above do not know the difference.
//
// Long streams (at least mailbox_staged_threshold bytes) travel staged, a
// rendezvous: the sender copies each piece of up to mailbox_staged_piece bytes
// into a staging buffer of its own segment (mailbox_staging_ring per receiver,
// kept for the next call) and the message carries only its address; the receiver
// reads the piece where it lies when the segment is mapped (smp, the same-host
// layer), else fetches it with one get, and acknowledges the slot only then,
// so the acknowledgements that give slots back also give buffers back. One handshake per piece
// instead of one per kilobyte.
//
// Pieces read from the sender's memory: where the backend reads another process's memory
// (has_peer_read: smp, and udp, mpi and mpich between processes of one host) and the receiver
// copies the stream into place (a gather's, scatter's, all-gather's or all-to-all's; not a
// combining stream, which reads each element once anyway), a piece of at least
// peer_read_min(p) bytes is not staged: its message carries the
// source's own address, and the receiver reads it straight into its destination, one copy
// instead of two. The sender keeps the source as it is until the receiver has acknowledged
// the piece: the collective waits for that before it returns (mailbox_settle_sources), or
// before its counter completes when it is split-phase.
//
// The world's channels live in the runtime part; a team's (splitc::team) in a
// region of the spread heap, the same address on every member, with one slot
// set per member: its own channels, so that collectives on different teams
// never wait behind each other's messages.
#pragma once

#include <splitc/port/am.hpp>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace splitc::detail {

struct context;

inline constexpr std::size_t mailbox_slot_bytes = 1024;
/// Slots per sender: up to 8 processors 64, up to 64 processors 16, so that a loop of small
/// collectives seldom waits for a receiver (with more processes than cores, each wait for a
/// credit is a trip through the scheduler: broadcasts back to back at P = 4 on two cores took
/// 0.7-1.0 us each with 16, 0.27-0.31 with 64); beyond, 4, as the region grows with the
/// number of processors (64 KiB per sender is 512 KiB of a segment at P = 8).
/// (A power of two: a slot is found by a mask, not a division, on every message.)
constexpr std::size_t mailbox_depth_for(std::size_t procs) noexcept {
  return procs <= 8 ? 64 : procs <= 64 ? 16 : 4;
}
static_assert((mailbox_depth_for(1) & (mailbox_depth_for(1) - 1)) == 0 &&
              (mailbox_depth_for(9) & (mailbox_depth_for(9) - 1)) == 0 &&
              (mailbox_depth_for(65) & (mailbox_depth_for(65) - 1)) == 0);

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

/// Streams of at least this many bytes travel staged (above); shorter ones in mailbox messages.
inline constexpr std::size_t mailbox_staged_threshold = 8 * 1024;
/// The largest piece of a staged stream: one message, one staging buffer.
inline constexpr std::size_t mailbox_staged_piece = std::size_t{1} << 20;
/// A staged piece's message is signed with the collective's signature xor this mark (a
/// receiver that expected mailbox messages then reports the sizes that differ).
inline constexpr std::uint64_t mailbox_staged_mark = 0x9E3779B97F4A7C15ULL;
/// Staging buffers per receiver: a staged piece waits until the one this many messages before
/// it has been consumed, and reuses its buffer.
inline constexpr std::size_t mailbox_staging_ring = 4;
/// Staging space one processor keeps at most, and never over 1/2 of its segment's private part;
/// beyond, acknowledged buffers are given back, else a piece goes in mailbox messages after all.
inline constexpr std::size_t mailbox_staging_budget = std::size_t{64} << 20;

/// A staging buffer in this processor's segment (global_malloc).
struct staging_buffer {
  unsigned char* at = nullptr;
  std::size_t bytes = 0;
  /// 1 + the number of the last message to its receiver whose piece it held (0: none): it is
  /// free again once the receiver has acknowledged that many.
  std::uint64_t last_use_end = 0;
};

/// What a staged piece's message carries: where the piece lies (0: nowhere, it follows in
/// mailbox messages), its length, and whether that address is in the sender's segment
/// (staged) or anywhere in its memory (read there: has_peer_read). A piece read from the
/// sender's memory may lie in two runs there (a run of blocks that wraps around the end of
/// the sender's buffer): the first `first_length` bytes at `address`, the rest at
/// `second_address`; a staged piece is always one run (first_length == length).
struct staged_piece {
  std::uint64_t address;
  std::uint64_t length;
  std::uint64_t in_sender_memory;
  std::uint64_t first_length;
  std::uint64_t second_address;
};

/// Per-process bookkeeping of one set of channels (private memory): the world's, or a team's,
/// whose processors are numbered by their rank in it.
struct mailbox_state {
  unsigned char* region = nullptr;  ///< start of the mailbox region in our segment
  std::size_t procs = 0;
  /// 0 for the world's channels (the runtime part, which may sit at a different address on
  /// each processor: messages name it by role); a team's region address, the same everywhere.
  std::uint64_t team_region = 0;
  /// The last broadcast this processor finished on these channels: a member that named
  /// another root may still be sending its messages, and the mismatch they cause should name
  /// both roots.
  std::uint64_t last_broadcast_signature = 0;
  int last_broadcast_root = -1;
  /// One-chunk broadcasts of the world whose children's root announcements this processor has
  /// not checked yet (checked_broadcast does not wait for them), oldest first: checked at the
  /// start of the next other collective on these channels (settle_root_check), at a poll once
  /// they have arrived (progress.cpp), or when unchecked_window() of them are pending.
  struct unchecked_broadcast {
    std::uint64_t signature = 0;
    int root = -1;
  };
  static constexpr std::size_t max_unchecked = 32;
  static_assert(mailbox_depth_for(1) / 2 <= max_unchecked);  // unchecked_window()
  unchecked_broadcast unchecked[max_unchecked];
  std::size_t unchecked_first = 0;
  std::size_t unchecked_count = 0;
  /// While announcements are being checked (settle_oldest_broadcast): a poll inside that
  /// check must not start another.
  bool settling = false;
  /// Root announcements this processor owes its parent in the tree rooted at 0 (rank
  /// owed_parent) for one-chunk broadcasts of the world: owed_count broadcasts in a row, all
  /// signed owed_signature, announced by one message that carries the count
  /// (root_announcements.cpp). Sent before any other message to that parent, when the
  /// signature changes, at owed_limit(), at the start of the next other collective, before a
  /// layer's idle wait, and at a poll once owed_polls_max polls have passed without one.
  std::uint64_t owed_signature = 0;
  std::uint32_t owed_count = 0;
  std::uint32_t owed_polls = 0;
  proc_t owed_parent = -1;
  static constexpr std::uint32_t owed_polls_max = 64;
  /// Per child in the tree rooted at 0 (left, right): how many broadcasts after those checked
  /// its last announcement still covers, and their signature.
  std::uint32_t announced_ahead[2] = {0, 0};
  std::uint64_t announced_signature[2] = {0, 0};
  std::vector<std::uint64_t> sent;         ///< messages sent to each processor
  std::vector<std::uint64_t> received;     ///< messages consumed from each processor
  std::vector<std::uint64_t> acked_seen;   ///< last acknowledgement read, per receiver
  /// Per receiver, 1 + the number of the last piece it is to read from our memory (0: none):
  /// the collective may return once it is acknowledged (mailbox_settle_sources).
  std::vector<std::uint64_t> source_read_until;
  bool sources_lent = false;  ///< some receiver may not have read its piece yet
  /// Staged pieces' buffers, mailbox_staging_ring per receiver (made on first use).
  std::vector<staging_buffer> staging;

  /// Bytes the region needs for `procs` processors.
  static std::size_t region_bytes(std::size_t procs) noexcept {
    return 64 * procs + mailbox_slot_bytes * mailbox_depth_for(procs) * procs;
  }
  std::size_t depth() const noexcept { return mailbox_depth_for(procs); }
  /// How many broadcasts may go unchecked: a processor that disagrees stops consuming, and
  /// a sender must check before its messages to it (one per broadcast, plus the
  /// acknowledgements a receiver holds back, fewer than 4) can fill the depth and block it.
  /// Half the depth (32 of 64, 8 of 16), 1 where the mailboxes are 4 deep.
  std::size_t unchecked_window() const noexcept { return depth() >= 16 ? depth() / 2 : 1; }
  /// How many broadcasts one root announcement covers at most: half the window, so that a
  /// parent whose window fills finds the next announcement under way (16 up to 8 processors).
  std::uint32_t owed_limit() const noexcept {
    return static_cast<std::uint32_t>(unchecked_window() >= 2 ? unchecked_window() / 2 : 1);
  }
  /// Acknowledgement word in *this* layout: receiver q's acknowledgements to us.
  std::atomic<std::uint64_t>* ack_word(std::size_t receiver) const noexcept {
    return reinterpret_cast<std::atomic<std::uint64_t>*>(region + 64 * receiver);
  }
  mailbox_slot* slot(std::size_t sender, std::uint64_t n) const noexcept {
    return reinterpret_cast<mailbox_slot*>(region + 64 * procs +
                                           mailbox_slot_bytes * (sender * depth() + (n & (depth() - 1))));
  }
  /// Whether message received[sender] + ahead from `sender` has arrived (not yet consumed).
  bool arrived(std::size_t sender, std::uint64_t ahead = 0) const noexcept {
    const std::uint64_t n = received[sender] + ahead;
    return slot(sender, n)->sequence.load(std::memory_order_acquire) == n + 1;
  }
};

/// One collective call on one set of channels: who takes part (ranks 0..size-1, the world's
/// processors or a team's members), and what its messages are signed with. The algorithms of
/// collectives.hpp number processors by rank and know nothing else of teams.
struct collective_group {
  context& c;
  mailbox_state& mail;
  const proc_t* members;  ///< rank -> processor; nullptr: the world (rank == processor)
  proc_t rank;            ///< this processor's
  proc_t size;
  std::uint64_t signature;  ///< a hash of the collective, its element type and operator
  proc_t root = -1;         ///< a broadcast's root (part of its signature), or -1
  /// The layer's own collectives may serve this call (the world's blocking ones; never a
  /// team's, whose members the layer does not know, nor a split-phase one, which must not
  /// block inside the layer).
  bool native = false;
  /// Leave nothing for the next collective on the channels to finish: a split-phase one's (its
  /// successor's group is made before it runs) and a team's (team.cpp).
  bool split_phase = false;

  proc_t proc(proc_t r) const noexcept { return members == nullptr ? r : members[r]; }
};

/// Send `len` (<= mailbox_payload_bytes) bytes to rank q of the group, signed
/// with the group's signature (root announcements owed to q go first).
void mailbox_send(collective_group& g, proc_t q, const void* data, std::size_t len);
/// Send the root announcements this processor owes (mailbox_state::owed_count) on the world's
/// channels `m` now (root_announcements.cpp).
void send_owed_announcements(context& c, mailbox_state& m);
/// Wait for the next message from rank p; the pointer is valid until
/// mailbox_release. `len` and `signature` describe what the sender sent.
const unsigned char* mailbox_receive(collective_group& g, proc_t p, std::size_t* len,
                                     std::uint64_t* signature);
/// Give the slot of the last message from rank p back to its sender.
void mailbox_release(collective_group& g, proc_t p);
/// Send one staged piece of alen + blen bytes (the two parts, in order) to rank q. False when
/// no staging space was to be had: the piece must then follow in mailbox messages (the
/// receiver is told so by the piece's message). `receiver_copies`: q copies the stream into
/// place (mailbox_receive_staged's `into`), so the piece may be read from our memory instead
/// of staged (above); the caller then keeps `a` and `b` as they are until
/// mailbox_settle_sources.
bool mailbox_send_staged(collective_group& g, proc_t q, const void* a, std::size_t alen,
                         const void* b, std::size_t blen, bool receiver_copies);
/// Where a received piece's bytes go: up to two runs of the destination, in order.
using piece_destination = std::array<std::span<unsigned char>, 2>;
/// What mailbox_receive_staged found.
enum class staged_arrival {
  in_messages,  ///< p sends the piece in mailbox messages after all
  at_bytes,     ///< its bytes are at *bytes (p's mapped segment, or fetched)
  placed,       ///< read from p's memory straight into `into`
};
/// Receive a staged piece of `len` bytes from rank p: its bytes, where they lie in p's mapped
/// segment or else fetched into `fetched`, valid until mailbox_release(g, p); or, read from
/// p's memory, placed in `into` when given (a copying receiver) and otherwise fetched. A
/// plain message, or a piece of another length, is a collective mismatch.
staged_arrival mailbox_receive_staged(collective_group& g, proc_t p, std::size_t len,
                                      std::vector<unsigned char>& fetched,
                                      const piece_destination* into, const unsigned char** bytes);
/// Wait until every receiver has read the pieces it was to read from our memory: the
/// collective that lent them its sources returns only then.
void mailbox_settle_sources(collective_group& g);
/// Give the staging buffers back to the segment (a team's channels, after mailbox_quiesce).
void mailbox_free_staging(mailbox_state& m);
/// Wait until every message this processor sent on the channels has been consumed (a team's
/// channels, before their region is freed).
void mailbox_quiesce(collective_group& g);

}  // namespace splitc::detail
