// Mailbox channels for the collectives (see detail/mailbox.hpp): direct
// stores into a peer's slot where the backend maps peers, active messages
// otherwise.
#include <splitc/detail/mailbox.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>

#include <cstring>

namespace splitc::detail {
namespace {

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
    std::memcpy(bytes, data, len);
    std::memcpy(bytes + len, &signature, sizeof signature);
  }
};

/// The mailbox region a message names: the world's (context::mail, found by role: the runtime
/// part may sit at a different address on each processor, context::shared) or a team's (its
/// address, the same on every member).
unsigned char* region_named(std::uint64_t team_region) {
  return team_region == 0 ? running().mail.region
                          : reinterpret_cast<unsigned char*>(static_cast<std::uintptr_t>(team_region));
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

void mailbox_send(collective_group& g, proc_t q, const void* data, std::size_t len) {
  context& c = g.c;
  mailbox_state& m = g.mail;
  const auto qi = static_cast<std::size_t>(q);
  const std::uint64_t n = m.sent[qi];
  if (n >= mailbox_depth && m.acked_seen[qi] < n + 1 - mailbox_depth) {
    const std::uint64_t need = n + 1 - mailbox_depth;
    wait_until(c, "a collective", [&] {
      m.acked_seen[qi] = m.ack_word(qi)->load(std::memory_order_acquire);
      return m.acked_seen[qi] >= need;
    });
  }
  mailbox_slot* slot = m.slot(static_cast<std::size_t>(g.rank), n);
  m.sent[qi] = n + 1;
  ++c.mailbox_traffic;
  const signed_message message(data, len, g.signature);
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

const unsigned char* mailbox_receive(collective_group& g, proc_t p, std::size_t* len,
                                     std::uint64_t* signature) {
  mailbox_state& m = g.mail;
  const auto pi = static_cast<std::size_t>(p);
  const std::uint64_t n = m.received[pi];
  mailbox_slot* slot = m.slot(pi, n);
  wait_until(g.c, "a collective",
             [&] { return slot->sequence.load(std::memory_order_acquire) == n + 1; });
  *len = slot->length - mailbox_signature_bytes;
  std::memcpy(signature, slot->data + *len, sizeof *signature);
  return slot->data;
}

void mailbox_release(collective_group& g, proc_t p) {
  context& c = g.c;
  mailbox_state& m = g.mail;
  const auto pi = static_cast<std::size_t>(p);
  const std::uint64_t consumed = ++m.received[pi];
  ++c.mailbox_traffic;
  // Our acknowledgement word in p's layout.
  std::atomic<std::uint64_t>* ack = m.ack_word(static_cast<std::size_t>(g.rank));
  const proc_t from = g.proc(p);
  if (p == g.rank) {
    ack->store(consumed, std::memory_order_release);
  } else if (void* d = direct(c, from, ack, sizeof(*ack))) {
    static_cast<std::atomic<std::uint64_t>*>(d)->store(consumed, std::memory_order_release);
  } else {
    const am_word a[3] = {consumed, static_cast<am_word>(g.rank), m.team_region};
    request(c, am_kind::short_msg, from, id(builtin::mailbox_ack), a, 3);
  }
}

void mailbox_quiesce(collective_group& g) {
  mailbox_state& m = g.mail;
  for (std::size_t q = 0; q < m.procs; ++q)
    wait_until(g.c, "a team's last messages", [&] {
      return m.ack_word(q)->load(std::memory_order_acquire) >= m.sent[q];
    });
}

}  // namespace splitc::detail
