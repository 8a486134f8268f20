// The progress engine: delivering messages to handlers (enforcing the
// handler rules), and the pending queue that holds messages the backend had
// no room for. The backend never blocks; the core owns the waiting.
#include <splitc/port/backoff.hpp>
#include <splitc/detail/collective_algorithms.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/split_phase.hpp>
#include <splitc/errors.hpp>
#include <splitc/global_memory.hpp>

#include <cstring>
#include <utility>

namespace splitc::detail {
namespace {

am_status try_send(context& c, const pending_message& m) {
  if (m.is_reply)
    return reply_native(c.backend, m.kind, m.token, m.handler, m.args, m.nargs, m.data(),
                        m.bytes(), m.destination_address);
  return request_native(c.backend, m.kind, m.destination, m.handler, m.args, m.nargs, m.data(),
                        m.bytes(), m.destination_address);
}

void retry_pending(context& c) {
  while (!c.pending.empty()) {
    const pending_message& m = c.pending.front();
    if (try_send(c, m) != am_status::ok) return;
    if (m.source_free != nullptr) m.source_free->add_local(-1);
    c.pending.pop_front();
  }
}

// Bytes stored here by one-sided transfers since the last poll (has_rma_store)
// go onto the library's store counter. They are not counted as messages
// handled: a waiter with nothing to serve may back off (and, with more
// processes than cores, yield to the storing one) -- and while it polls flat
// out it reads the line each store's count is put into, which made a
// streaming sender's stores twice as slow (splitc-shmem-bench, 8-byte store:
// 200 ns, 105-127 ns without). A template, so that `if constexpr` discards the
// members a backend does not have.
template <class B>
void take_rma_stores(B& b, context& c) {
  if constexpr (has_rma_store<B>) {
    if (const std::int64_t bytes = b.rma_stored_bytes(); bytes != 0)
      library_store_counter(c)->add_shared(bytes);
  }
}

/// The world's broadcasts may leave their children's root announcements unchecked
/// (checked_broadcast). Once they have arrived they are checked here, oldest first, at any
/// poll of the program's: a processor that goes on to wait outside the collectives for one
/// which named another root -- and waits in the broadcast for data that never comes -- then
/// reports the mismatch instead of waiting for ever. (A team's broadcast checks before it
/// returns: its channels are not in the context.)
void check_arrived_announcements(context& c) {
  mailbox_state& m = c.mail;
  collective_group g{c, m, nullptr, c.myproc, c.procs, 0, -1, true};
  const tree_node n = physical_tree(g, 0);
  while (m.unchecked_count != 0) {
    if (n.left >= 0 && !child_has_announced(m, n.left, 0)) return;
    if (n.right >= 0 && !child_has_announced(m, n.right, 1)) return;
    settle_oldest_broadcast(g);
  }
}

}  // namespace

void context::deliver(void* self, const am_message& m) {
  auto& c = *static_cast<context*>(self);
  const auto index = static_cast<std::size_t>(m.handler);
  if (index >= c.handlers.size() || c.handlers[index] == nullptr) [[unlikely]] {
    fail("message from processor {} names handler {}, which is not registered here "
         "(every process must register the same handlers in the same order)",
         m.source, index);
  }
  c.frame = handler_frame{true, m.is_request, false, m.handler, m.source};
  c.handlers[index](m);
  c.frame.active = false;
}

int progress(context& c) {
  if (c.frame.active) [[unlikely]] {
    fail("poll called inside handler {}; handlers run inside poll and must not poll",
         static_cast<unsigned>(c.frame.handler));
  }
  int handled = c.backend.poll(c.sink());
  take_rma_stores(c.backend, c);
  if (!c.pending.empty()) [[unlikely]] retry_pending(c);
  if (c.mail.unchecked_count != 0 && !c.mail.settling && c.collective_yield == nullptr) [[unlikely]]
    check_arrived_announcements(c);
  // Root announcements owed for a while go now: a parent may be waiting for them.
  if (c.mail.owed_count != 0 && ++c.mail.owed_polls > mailbox_state::owed_polls_max &&
      c.collective_yield == nullptr) [[unlikely]]
    send_owed_announcements(c, c.mail);
  // Split-phase collectives move on at every poll -- but not from inside one of them.
  if (c.split_phase_in_flight != 0 && c.collective_yield == nullptr) [[unlikely]]
    handled += run_split_phase(c);
  return handled;
}

void send_slow(context& c, am_kind kind, bool is_reply, const am_message* token, proc_t p,
               handler_id h, const am_word* args, int nargs, const void* src, std::size_t len,
               void* dst, counter* source_free) {
  if (!fits_natively(kind, nargs, len)) return send_composed(c, kind, is_reply, p, h, args, nargs, src, len, dst);
  if (c.frame.active) {
    if (!c.frame.is_request) [[unlikely]] {
      fail("handler {} (a reply handler) tried to send; reply handlers may not send",
           static_cast<unsigned>(c.frame.handler));
    }
    // Inside a request handler: never wait, queue (order kept by the queue) -- after one try
    // from the source itself, when nothing queued must go first.
    pending_message m{kind, is_reply, p, h, nargs, {}, {}, dst, {}};
    if (nargs != 0) std::memcpy(m.args, args, sizeof(am_word) * static_cast<std::size_t>(nargs));
    if (token != nullptr) {
      m.token = *token;
      m.token.args = nullptr;
      m.token.payload = nullptr;
    }
    if (c.pending.empty()) {
      m.lent_source = src;
      m.lent_bytes = len;
      const am_status s = try_send(c, m);
      if (s == am_status::ok) return;
    }
    if (source_free != nullptr && len != 0) {
      // The source stays as it is until source_free is zero (a get's reply): keep it lent.
      m.lent_source = src;
      m.lent_bytes = len;
      m.source_free = source_free;
      source_free->add_local(1);
    } else {
      m.lent_source = nullptr;
      m.lent_bytes = 0;
      if (len != 0) {
        m.payload.resize(len);
        std::memcpy(m.payload.data(), src, len);
      }
    }
    c.pending.push_back(std::move(m));
    return;
  }
  // Main line: queued messages go first, then wait for room, polling.
  port::backoff wait;
  while (!c.pending.empty()) {
    if (progress(c) != 0) wait.reset();
    wait.pause();
  }
  wait.reset();
  for (;;) {
    const am_status s = request_native(c.backend, kind, p, h, args, nargs, src, len, dst);
    if (s == am_status::ok) return;
    if (progress(c) != 0) wait.reset();
    wait.pause();
  }
}

}  // namespace splitc::detail
