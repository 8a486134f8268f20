// Mailbox channels for the collectives (see detail/mailbox.hpp): direct
// stores into a peer's slot where the backend maps peers, active messages
// otherwise.
#include <splitc/detail/collective_algorithms.hpp>
#include <splitc/detail/mailbox.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/native_collectives.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/spread_heap.hpp>

#include "finalize_barrier.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <utility>

namespace splitc::detail {
namespace {

/// The signature a complete slot's message ends with (post signs every message).
std::uint64_t signature_of(const mailbox_slot& s) {
  std::uint64_t signature = 0;
  std::memcpy(&signature, s.data + s.length - mailbox_signature_bytes, sizeof signature);
  return signature;
}

void fill(mailbox_slot* s, const void* data, std::size_t len, std::uint64_t sequence) {
  std::memcpy(s->data, data, len);
  s->length = len;
  s->sequence.store(sequence, std::memory_order_release);
}

/// The message as it travels: data, then the signature.
struct signed_message {
  unsigned char bytes[mailbox_payload_bytes + mailbox_signature_bytes];
  std::size_t length;
  signed_message(const void* data, std::size_t len, std::uint64_t signature) : length(len + 8) {
    if (len != 0) std::memcpy(bytes, data, len);  // an empty message's data may be null
    std::memcpy(bytes + len, &signature, sizeof signature);
  }
};

/// The mailbox region a message names: the world's (context::mail, found by role: the runtime
/// part may sit at a different address on each processor, context::shared) or a team's (its
/// address, the same on every member, or the same offset where segments lie apart).
unsigned char* region_named(std::uint64_t team_region) {
  context& c = running();
  return team_region == 0
             ? c.mail.region
             : placed(c.myproc, reinterpret_cast<unsigned char*>(static_cast<std::uintptr_t>(team_region)));
}

// (slot's offset in the mailbox region, sequence, team region) + payload: fill the slot at
// its owner.
void on_mailbox_deposit(const am_message& m) {
  fill(reinterpret_cast<mailbox_slot*>(region_named(m.args[2]) + m.args[0]), m.payload, m.length,
       m.args[1]);
}
// (consumed, receiver's rank, team region): the receiver has consumed that many of our
// messages. Acknowledgements may arrive out of order on an unordered backend (udp
// reorders): the count only ever grows, so an older one never lowers it —
// a lowered count would leave the sender waiting for a credit forever.
void on_mailbox_ack(const am_message& m) {
  auto* ack = reinterpret_cast<std::atomic<std::uint64_t>*>(region_named(m.args[2]) + 64 * m.args[1]);
  std::uint64_t seen = ack->load(std::memory_order_relaxed);
  while (seen < m.args[0] &&
         !ack->compare_exchange_weak(seen, m.args[0], std::memory_order_release,
                                     std::memory_order_relaxed)) {
  }
}

}  // namespace

void register_mailbox_handlers(context& c) {
  c.handlers[static_cast<std::size_t>(builtin::mailbox_deposit)] = on_mailbox_deposit;
  c.handlers[static_cast<std::size_t>(builtin::mailbox_ack)] = on_mailbox_ack;
}

namespace {

/// The wait of wait_acknowledged, out of line: every message pays only its check.
[[gnu::noinline]] void wait_for_acknowledgements(collective_group& g, std::size_t q,
                                                 std::uint64_t need) {
  mailbox_state& m = g.mail;
  wait_until(g.c, "a collective", [&] {
    m.acked_seen[q] = m.ack_word(q)->load(std::memory_order_acquire);
    return m.acked_seen[q] >= need;
  });
}

/// Wait until rank q has acknowledged our first `need` messages to it.
[[gnu::always_inline]] inline void wait_acknowledged(collective_group& g, std::size_t q,
                                                     std::uint64_t need) {
  if (g.mail.acked_seen[q] < need) [[unlikely]] wait_for_acknowledgements(g, q, need);
}

/// Wait until rank q has consumed all but `window` - 1 of our messages before this one: its
/// slot (window = the depth) is free again.
void wait_for_credit(collective_group& g, std::size_t q, std::uint64_t window) {
  const std::uint64_t n = g.mail.sent[q];
  if (n >= window) wait_acknowledged(g, q, n + 1 - window);
}

/// Wait until rank q has acknowledged the last piece our staging buffer for message `n` to it
/// held (mailbox_staging_ring per receiver, taken in turn): a receiver acknowledges a staged
/// piece as soon as it has read it (acknowledge), so this never waits for a batch.
void wait_for_staging_buffer(collective_group& g, std::size_t q, std::uint64_t n) {
  const mailbox_state& m = g.mail;
  if (m.staging.empty()) return;
  wait_acknowledged(g, q, m.staging[q * mailbox_staging_ring + n % mailbox_staging_ring].last_use_end);
}

/// Deliver `len` bytes (<= mailbox_payload_bytes) to rank q's next slot, signed; the credit
/// is already there.
void post(collective_group& g, proc_t q, const void* data, std::size_t len,
          std::uint64_t signature) {
  context& c = g.c;
  mailbox_state& m = g.mail;
  const auto qi = static_cast<std::size_t>(q);
  const std::uint64_t n = m.sent[qi];
  mailbox_slot* slot = m.slot(static_cast<std::size_t>(g.rank), n);
  m.sent[qi] = n + 1;
  ++c.mailbox_traffic;
  const signed_message message(data, len, signature);
  const proc_t to = g.proc(q);
  if (q == g.rank) {
    fill(slot, message.bytes, message.length, n + 1);
  } else if (void* d = direct(c, to, slot, sizeof(mailbox_slot))) {
    fill(static_cast<mailbox_slot*>(d), message.bytes, message.length, n + 1);
  } else {
    const am_word a[3] = {static_cast<am_word>(reinterpret_cast<unsigned char*>(slot) - m.region),
                          n + 1, m.team_region};
    request(c, am_kind::medium_msg, to, id(builtin::mailbox_deposit), a, 3, message.bytes,
            message.length);
  }
}

/// Give a staging buffer back to the segment's private part (nothing if it holds none).
void release_staging(context& c, staging_buffer& s) {
  if (s.at == nullptr) return;
  global_free(global_ptr<void>(c.myproc, s.at));
  c.staging_bytes -= s.bytes;
  s = {};
}

/// Staging space this processor may hold: mailbox_staging_budget, but never more than half of
/// its segment's private part, which is the program's global_malloc space too (the sim at
/// P = 1024 gives each processor 64 MiB of segment, 8 MiB of it private). An eighth was tried:
/// at P = 8 on smp an all-to-all of 1 MiB blocks then lost 1.17x to pieces sent as messages.
std::size_t staging_budget(const context& c) noexcept {
  return std::min(mailbox_staging_budget, c.private_heap.capacity() / 2);
}

/// Give back the staging buffers of these channels that no message in flight still needs:
/// those of every receiver but `keep` whose last possible use (the latest message sent to it
/// with the buffer's ring index) that receiver has acknowledged. A processor that stages to
/// many receivers in turn (a gather's parent changes with the root) would otherwise keep
/// buffers for each of them up to the budget.
void reclaim_staging(collective_group& g, std::size_t keep) {
  context& c = g.c;
  mailbox_state& m = g.mail;
  for (std::size_t q = 0; q < m.procs; ++q) {
    if (q == keep) continue;
    staging_buffer* ring = &m.staging[q * mailbox_staging_ring];
    bool held = false;
    for (std::size_t k = 0; k < mailbox_staging_ring; ++k) held = held || ring[k].at != nullptr;
    if (!held) continue;
    m.acked_seen[q] = m.ack_word(q)->load(std::memory_order_acquire);
    for (std::size_t k = 0; k < mailbox_staging_ring; ++k)
      if (m.acked_seen[q] >= ring[k].last_use_end) release_staging(c, ring[k]);
  }
}

/// A staged piece lies in its buffer at the same place within a page as its source: the
/// receiver's copy out of the buffer then meets the placement a direct copy from the source
/// would, and the sender's copy in has none to meet. With the buffer at its own place (a large
/// std::vector starts 16 bytes into a page; a buffer at a page), a 64 KiB piece's copy out was
/// one whose destination lies 1-63 bytes past its source modulo a page, which glibc 2.36's
/// memcpy runs 1.3x slower on this machine's CPU and 20-40x slower on another
/// (docs/performance.md, "Staged pieces placed as their sources").
constexpr std::size_t staging_page = 4096;

/// The staging buffer for message `n` to rank q (one of mailbox_staging_ring per receiver), with
/// room for `len` bytes at any place within a page (len + staging_page - 1 bytes); nullptr
/// when, even after reclaim_staging, it would pass the budget or the segment's private part is
/// full.
unsigned char* staging_for(collective_group& g, std::size_t q, std::uint64_t n, std::size_t len) {
  context& c = g.c;
  mailbox_state& m = g.mail;
  if (m.staging.empty()) m.staging.resize(m.procs * mailbox_staging_ring);
  staging_buffer& s = m.staging[q * mailbox_staging_ring + n % mailbox_staging_ring];
  if (s.bytes >= len + staging_page - 1) return s.at;
  const std::size_t bytes = std::max<std::size_t>(std::bit_ceil(len), 64 * 1024) + staging_page;
  const std::size_t budget = staging_budget(c);
  if (c.staging_bytes - s.bytes + bytes > budget) {
    reclaim_staging(g, q);
    if (c.staging_bytes - s.bytes + bytes > budget) return nullptr;
  }
  global_ptr<void> fresh = global_malloc(bytes);
  if (fresh == nullptr) {
    reclaim_staging(g, q);
    fresh = global_malloc(bytes);
  }
  if (fresh == nullptr) return nullptr;
  release_staging(c, s);
  c.staging_bytes += bytes;
  s = {static_cast<unsigned char*>(fresh.local()), bytes};
  return s.at;
}

/// The root announcements this processor owes rank q (root_announcements.cpp) go before
/// anything else on the channel to it.
void pay_owed_announcements_before(collective_group& g, proc_t q) {
  if (g.mail.owed_count != 0 && q == g.mail.owed_parent) [[unlikely]]
    send_owed_announcements(g.c, g.mail);
}

}  // namespace

void mailbox_send(collective_group& g, proc_t q, const void* data, std::size_t len) {
  pay_owed_announcements_before(g, q);
  wait_for_credit(g, static_cast<std::size_t>(q), g.mail.depth());
  post(g, q, data, len, g.signature);
}

namespace {
/// The backend's has_peer_read members, or what a backend without them answers (templates:
/// `if constexpr` discards only there).
template <class B>
std::size_t peer_read_min_of(const B& b, proc_t p) noexcept {
  if constexpr (has_peer_read<B>) return b.peer_read_min(p);
  else return 0;
}
template <class B>
bool peer_read_by(B& b, proc_t p, const void* src, void* dst, std::size_t len) noexcept {
  if constexpr (has_peer_read<B>) return b.peer_read(p, src, dst, len);
  else return false;
}

/// Whether rank q is to read a piece of `len` bytes from our memory (has_peer_read).
bool lend_source(collective_group& g, proc_t q, std::size_t len) {
  if (q == g.rank) return false;
  const std::size_t min = peer_read_min_of(g.c.backend, g.proc(q));
  return min != 0 && len >= min;
}
}  // namespace

bool mailbox_send_staged(collective_group& g, proc_t q, const void* a, std::size_t alen,
                         const void* b, std::size_t blen, bool receiver_copies) {
  const auto qi = static_cast<std::size_t>(q);
  mailbox_state& m = g.mail;
  pay_owed_announcements_before(g, q);
  wait_for_credit(g, qi, m.depth());
  const std::uint64_t n = m.sent[qi];
  if (receiver_copies && lend_source(g, q, alen + blen)) {
    m.source_read_until[qi] = n + 1;
    m.sources_lent = true;
    const staged_piece piece{reinterpret_cast<std::uintptr_t>(a), alen + blen, 1, alen,
                             reinterpret_cast<std::uintptr_t>(b)};
    post(g, q, &piece, sizeof piece, g.signature ^ mailbox_staged_mark);
    return true;
  }
  wait_for_staging_buffer(g, qi, n);
  unsigned char* s = staging_for(g, qi, n, alen + blen);
  if (s != nullptr) {
    // Marked before the message leaves: a poll inside post may reclaim buffers.
    m.staging[qi * mailbox_staging_ring + n % mailbox_staging_ring].last_use_end = n + 1;
    s += (reinterpret_cast<std::uintptr_t>(a) - reinterpret_cast<std::uintptr_t>(s)) &
         (staging_page - 1);
    std::memcpy(s, a, alen);
    if (blen != 0) std::memcpy(s + alen, b, blen);
  }
  const staged_piece piece{reinterpret_cast<std::uintptr_t>(s), alen + blen, 0, alen + blen, 0};
  post(g, q, &piece, sizeof piece, g.signature ^ mailbox_staged_mark);
  return s != nullptr;
}

namespace {
/// `len` bytes at `at` in processor `from`'s memory to `dst` here by a get (active messages
/// where the segment is not mapped: the owner's handler reads any of its memory).
void fetch(context& c, proc_t from, const void* at, void* dst, std::size_t len) {
  counter done;
  get_bytes(c, dst, from, at, len, done, "a collective");
  wait_until(c, "a collective", [&] { return done.value() == 0; });
}

/// A piece in processor `from`'s memory at `at` (not its segment) read into `dst`: by the
/// backend's one copy, or, where the kernel refuses it, by a get.
void read_lent(context& c, proc_t from, const unsigned char* at, unsigned char* dst,
               std::size_t len) {
  if (!peer_read_by(c.backend, from, at, dst, len)) fetch(c, from, at, dst, len);
}

/// A lent piece, in its one or two runs of the sender's memory, read into the one or two
/// runs of `into` (in order, as many bytes): one read per overlap of a run there and one here.
void read_lent_piece(context& c, proc_t from, const staged_piece& piece,
                     const piece_destination& into) {
  using run = std::pair<std::uintptr_t, std::size_t>;
  const std::array<run, 2> source{
      run{static_cast<std::uintptr_t>(piece.address), static_cast<std::size_t>(piece.first_length)},
      run{static_cast<std::uintptr_t>(piece.second_address),
          static_cast<std::size_t>(piece.length - piece.first_length)}};
  std::size_t s = 0, s_at = 0;
  for (const std::span<unsigned char> part : into) {
    for (std::size_t d_at = 0; d_at < part.size();) {
      if (s_at == source[s].second) ++s, s_at = 0;  // the lengths add up: s stays < 2
      const std::size_t len = std::min(part.size() - d_at, source[s].second - s_at);
      read_lent(c, from, reinterpret_cast<const unsigned char*>(source[s].first + s_at),
                part.data() + d_at, len);
      d_at += len;
      s_at += len;
    }
  }
}
}  // namespace

staged_arrival mailbox_receive_staged(collective_group& g, proc_t p, std::size_t len,
                                      std::vector<unsigned char>& fetched,
                                      const piece_destination* into, const unsigned char** bytes) {
  std::size_t got = 0;
  std::uint64_t signature = 0;
  const unsigned char* data = mailbox_receive(g, p, &got, &signature);
  if (signature == g.signature) [[unlikely]]  // p sends this stream in mailbox messages
    collective_mismatch(g, p, got, len);
  if (signature != (g.signature ^ mailbox_staged_mark) || got != sizeof(staged_piece))
      [[unlikely]]
    collective_kind_mismatch(g, p, signature);
  staged_piece piece;
  std::memcpy(&piece, data, sizeof piece);
  if (piece.length != len) [[unlikely]] collective_mismatch(g, p, piece.length, len);
  if (piece.address == 0) {
    mailbox_release(g, p);
    return staged_arrival::in_messages;
  }
  context& c = g.c;
  const auto* at = reinterpret_cast<const unsigned char*>(static_cast<std::uintptr_t>(piece.address));
  const proc_t from = g.proc(p);
  if (piece.in_sender_memory != 0) {
    if (into == nullptr) {  // both ends run one algorithm: a copying sender has a copying receiver
      fetched.resize(len);
      read_lent_piece(c, from, piece, piece_destination{std::span<unsigned char>(fetched), {}});
      *bytes = fetched.data();
      return staged_arrival::at_bytes;
    }
    read_lent_piece(c, from, piece, *into);
    return staged_arrival::placed;
  }
  if (from == c.myproc) {
    *bytes = at;
  } else if (void* d = direct(c, from, at, len)) {
    *bytes = static_cast<const unsigned char*>(d);
  } else {
    fetched.resize(len);
    fetch(c, from, at, fetched.data(), len);
    *bytes = fetched.data();
  }
  return staged_arrival::at_bytes;
}

void mailbox_settle_sources(collective_group& g) {
  mailbox_state& m = g.mail;
  if (!m.sources_lent) return;
  for (std::size_t q = 0; q < m.procs; ++q) wait_acknowledged(g, q, m.source_read_until[q]);
  m.sources_lent = false;
}

void mailbox_free_staging(mailbox_state& m) {
  context& c = ctx();
  for (staging_buffer& s : m.staging) release_staging(c, s);
  m.staging.clear();
}

const unsigned char* mailbox_receive(collective_group& g, proc_t p, std::size_t* len,
                                     std::uint64_t* signature) {
  mailbox_state& m = g.mail;
  const auto pi = static_cast<std::size_t>(p);
  // mailbox_state::arrived's test, with the slot found once: this is every collective
  // message's receive, and the wait may test many times.
  const std::uint64_t n = m.received[pi];
  const mailbox_slot* slot = m.slot(pi, n);
  wait_until(g.c, "a collective",
             [&] { return slot->sequence.load(std::memory_order_acquire) == n + 1; });
  *len = slot->length - mailbox_signature_bytes;
  *signature = signature_of(*slot);
  return slot->data;
}

void judge_native_wait(context& c) {
  const mailbox_state& m = c.mail;
  if (m.region == nullptr) return;
  // The native collective this processor is in; a processor that has passed it sends
  // finalize's messages signed with this count, one that skipped it with another.
  const std::uint64_t current = (c.native_collectives_passed + 1) & 0x7fffffffu;
  for (std::size_t p = 0; p < m.procs; ++p) {
    if (!m.arrived(p)) continue;
    const mailbox_slot* slot = m.slot(p, m.received[p]);
    std::optional<std::uint64_t> passed;
    if (is_finalize_signature(signature_of(*slot), &passed) && passed.has_value() && *passed != current)
        [[unlikely]]
      finalize_skipped_native(static_cast<proc_t>(p));
  }
}

namespace {
/// Without direct access an acknowledgement is an active message; a receiver sends one for
/// every ack_batch(depth) messages it consumes, not for each: 16 where the channels are 64
/// deep (up to 8 processors), 4 where they are 16 or 4 deep. A sender then never waits for a
/// credit its receiver has earned but not sent: it waits for a slot only while `depth` or more
/// of its messages are unacknowledged, and once every message it sent is consumed, at most
/// ack_batch - 1 are. A staged piece is acknowledged at once, whatever the batch: its sender
/// waits for exactly that piece before it fills the buffer again (wait_for_staging_buffer).
constexpr std::uint64_t ack_batch(std::size_t depth) noexcept { return depth >= 64 ? 16 : 4; }
static_assert(ack_batch(mailbox_depth_for(1)) <= mailbox_depth_for(1) &&
              ack_batch(mailbox_depth_for(9)) <= mailbox_depth_for(9) &&
              ack_batch(mailbox_depth_for(std::size_t{1} << 20)) <= mailbox_depth_for(std::size_t{1} << 20));

/// Whether our message `n` from rank p (consumed, its slot not yet given back) was a staged
/// piece.
bool staged_piece_in(const collective_group& g, std::size_t p, std::uint64_t n) {
  return signature_of(*g.mail.slot(p, n)) == (g.signature ^ mailbox_staged_mark);
}

/// acknowledge's active message, where the count cannot be stored: out of line, so that the
/// stores above, every message's on smp, keep a small function.
[[gnu::noinline]] void acknowledge_by_message(collective_group& g, proc_t p, proc_t from,
                                              std::uint64_t consumed, bool now) {
  mailbox_state& m = g.mail;
  if (now || consumed % ack_batch(m.depth()) == 0 ||
      staged_piece_in(g, static_cast<std::size_t>(p), consumed - 1)) {
    const am_word a[3] = {consumed, static_cast<am_word>(g.rank), m.team_region};
    request(g.c, am_kind::short_msg, from, id(builtin::mailbox_ack), a, 3);
  }
}

/// Tell rank p's processor how many of its messages we have consumed (held back by a batch
/// unless `now`).
void acknowledge(collective_group& g, proc_t p, std::uint64_t consumed, bool now) {
  mailbox_state& m = g.mail;
  std::atomic<std::uint64_t>* ack = m.ack_word(static_cast<std::size_t>(g.rank));  // in p's layout
  const proc_t from = g.proc(p);
  if (p == g.rank) {
    ack->store(consumed, std::memory_order_release);
  } else if (void* d = direct(g.c, from, ack, sizeof(*ack))) {
    static_cast<std::atomic<std::uint64_t>*>(d)->store(consumed, std::memory_order_release);
  } else {
    acknowledge_by_message(g, p, from, consumed, now);
  }
}
}  // namespace

void mailbox_release(collective_group& g, proc_t p) {
  const std::uint64_t consumed = ++g.mail.received[static_cast<std::size_t>(p)];
  ++g.c.mailbox_traffic;
  acknowledge(g, p, consumed, false);
}

void mailbox_quiesce(collective_group& g) {
  mailbox_state& m = g.mail;
  // The acknowledgements held back (ack_batch) go now: every member waits for all.
  for (std::size_t p = 0; p < m.procs; ++p)
    if (m.received[p] % ack_batch(m.depth()) != 0)
      acknowledge(g, static_cast<proc_t>(p), m.received[p], true);
  for (std::size_t q = 0; q < m.procs; ++q)
    wait_until(g.c, "a team's last messages", [&] {
      return m.ack_word(q)->load(std::memory_order_acquire) >= m.sent[q];
    });
}

}  // namespace splitc::detail
