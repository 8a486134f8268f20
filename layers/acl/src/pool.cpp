// The asynchronous protocol (seed Fig. 2, after Illinois Fast Messages; README.md): every
// processor has a pool of slots and a fetch-and-increment word in its spread heap. A sender
// takes slot i = fetch_and_add(receiver's word, 1); i beyond the pool means full, and it backs
// off and tries again. It writes the slot with one active message whose handler lands data and
// header and marks the slot DONE last. The receiver takes messages from its overflow list,
// then from the pool in slot order, copies them out and marks the slots RECEIVED.
//
// Resetting the word (A3): the seed resets it when "the last buffer" is DONE or RECEIVED, which
// loses messages whose lower slots are still being written. Here the pool is reset only when
// every slot taken is DONE or RECEIVED: when all are RECEIVED, with a compare-and-swap of the
// word (a sender that took the next slot meanwhile makes it fail); when the pool is exhausted
// (the word at or past its size, so no slot can be taken), by the handler of the last slot to
// land, which moves what is unreceived to the overflow list, in order, and swaps in 0.
//
// A sender that finds the pool full does not spin on the word: it asks the receiver to wake
// it (the handler answers at once if the pool has been reset meanwhile) and waits; every reset
// wakes the senders waiting. So the waits end by a message, also on the sim, whose waiting
// processors sleep until one comes, and two cores are not spent polling a full pool.
//
// Messages longer than a slot leave a descriptor in it; the receiver takes the data from the
// sender's buffer (bulk_read) when it receives them, then tells the sender, whose mcb is done.
#include "layer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace splitc::acl {
namespace {

constexpr std::size_t medium_slot_max = std::min<std::size_t>(am_medium_limit, 4096);

char* slot_address(const state& s, std::uint64_t i) {
  return s.slot_data + i * s.config.slot_bytes;
}

global_ptr<std::uint64_t> fai_at(const state& s, int node) { return {node, s.fai}; }

std::uint64_t fai_value(const state& s) { return fetch_and_add(fai_at(s, myproc()), std::uint64_t{0}); }

void note_arrival(state& s, int from, std::uint64_t sequence) {
  auto& upto = s.arrived_upto[from];
  auto& early = s.arrived_early[from];
  if (sequence != upto + 1) {
    early.insert(sequence);
  } else {
    ++upto;
    for (auto it = early.begin(); it != early.end() && *it == upto + 1; it = early.erase(it)) ++upto;
  }
  ++s.arrivals;
}

/// The pool was reset: the senders that found it full may try again.
void wake_waiters(state& s) {
  for (int sender : s.pool_waiters) am_request(sender, s.h_pool_wake);
  s.pool_waiters.clear();
}

/// At the receiver: a sender found the pool full.
void on_pool_wait(const am_message& m) {
  state& s = st();
  if (fai_value(s) < static_cast<std::uint64_t>(s.config.pool_slots))
    am_reply(m, s.h_pool_wake);  // reset since the sender looked
  else
    s.pool_waiters.push_back(m.source);
}

/// At the sender: the receiver's pool has room again.
void on_pool_wake(const am_message& m) { st().pool_woken[m.source] = true; }

/// The pool exhausted and every slot landed: move what is unreceived to the overflow list and
/// reset the word (no sender can take a slot while it is at or past the pool's size, so a swap
/// is safe). Called by the handlers that land slots, and after receives.
void reset_if_exhausted(state& s) {
  const auto n = static_cast<std::uint64_t>(s.config.pool_slots);
  if (fai_value(s) < n) return;
  for (const slot_header& h : s.slots)
    if (h.state == slot_state::empty) return;  // still being written
  for (std::uint64_t i = 0; i < n; ++i) {
    slot_header& h = s.slots[i];
    if (h.state == slot_state::done) {
      overflow_message m{h, {}};
      if (!h.pulled) m.data.assign(slot_address(s, i), slot_address(s, i) + h.length);
      s.overflow.push_back(std::move(m));
    }
    h = slot_header{};
  }
  exchange(fai_at(s, myproc()), std::uint64_t{0});
  ++s.arrivals;
  wake_waiters(s);
}

/// Every slot taken has been received: start the pool over, unless a sender takes a slot first.
void reset_if_drained(state& s) {
  const std::uint64_t taken = fai_value(s);
  const auto n = static_cast<std::uint64_t>(s.config.pool_slots);
  if (taken == 0) return;
  if (taken >= n) {
    reset_if_exhausted(s);
    return;
  }
  for (std::uint64_t i = 0; i < taken; ++i)
    if (s.slots[i].state != slot_state::received) return;
  if (cmp_and_swap(fai_at(s, myproc()), taken, std::uint64_t{0}) != taken) return;
  for (std::uint64_t i = 0; i < taken; ++i) s.slots[i] = slot_header{};
  wake_waiters(s);
}

void arrive(state& s, const am_message& m, std::uint64_t i, std::size_t length, bool pulled,
            std::uint64_t buffer, std::uint64_t sender_mcb) {
  slot_header& h = s.slots[i];
  h.source = m.source;
  h.tag = tag_of(m.args[1]);
  h.sequence = m.args[2];
  h.length = length;
  h.pulled = pulled;
  h.sender_buffer = buffer;
  h.sender_mcb = sender_mcb;
  h.state = slot_state::done;
  note_arrival(s, m.source, h.sequence);
  ++s.slot_arrivals;
  reset_if_exhausted(s);
}

void on_slot_medium(const am_message& m) {
  state& s = st();
  if (m.length > 0) std::memcpy(slot_address(s, m.args[0]), m.payload, m.length);
  arrive(s, m, m.args[0], m.length, false, 0, 0);
}

void on_slot_long(const am_message& m) { arrive(st(), m, m.args[0], m.length, false, 0, 0); }

void on_slot_pulled(const am_message& m) {
  arrive(st(), m, m.args[0], static_cast<std::size_t>(m.args[3]), true, m.args[4], m.args[5]);
}

void complete(state& s, int id, std::size_t bytes) {
  mcb& b = s.mcbs[static_cast<std::size_t>(id)];
  b.done = true;
  b.bytes = bytes;
  if (b.handler != nullptr || b.freed) s.to_notify.push_back(id);
}

/// At the sender: the receiver took the data of a message longer than a slot.
void on_pulled_done(const am_message& m) {
  complete(st(), static_cast<int>(m.args[0]), static_cast<std::size_t>(m.args[1]));
}

bool matches(const mcb& b, const slot_header& h) {
  return (b.node == ACLMPL_ANY_NODE || b.node == h.source) &&
         tag_matches(b.tag, h.tag);
}

bool visible(const state& s, const slot_header& h) {
  return h.sequence <= s.arrived_upto[h.source];
}

/// Give receive `id` the message described by `h`, whose data are at `data` (null: with the
/// sender). The slot or list entry is already released by the caller.
void deliver(state& s, int id, const slot_header& h, const char* data) {
  mcb& b = s.mcbs[static_cast<std::size_t>(id)];
  const std::size_t n = std::min(h.length, b.length);
  b.source = h.source;
  b.message_tag = h.tag;
  if (data != nullptr) {
    if (n > 0) std::memcpy(b.receive_buffer, data, n);
  } else {
    if (n > 0) bulk_read(b.receive_buffer, global_ptr<void>(h.source, pointer_of<void>(h.sender_buffer)), n);
    am_request(h.source, s.h_pulled_done, h.sender_mcb, static_cast<std::uint64_t>(n));
  }
  complete(s, id, n);
}

/// Try to match posted receive `id`; true if it was.
bool match_one(state& s, int id) {
  const mcb& b = s.mcbs[static_cast<std::size_t>(id)];
  for (auto it = s.overflow.begin(); it != s.overflow.end(); ++it) {
    if (!matches(b, it->header)) continue;
    overflow_message m = std::move(*it);
    s.overflow.erase(it);
    deliver(s, id, m.header, m.header.pulled ? nullptr : m.data.data());
    return true;
  }
  for (std::size_t i = 0; i < s.slots.size(); ++i) {
    slot_header& h = s.slots[i];
    if (h.state != slot_state::done || !matches(b, h) || !visible(s, h)) continue;
    const slot_header copy = h;
    if (!h.pulled) {
      // Copy out before anything can poll: once RECEIVED, a reset may hand the slot on.
      deliver(s, id, copy, slot_address(s, i));
      h.state = slot_state::received;
    } else {
      h.state = slot_state::received;
      deliver(s, id, copy, nullptr);
    }
    reset_if_drained(s);
    return true;
  }
  return false;
}

void match_posted(state& s) {
  s.scanned_arrivals = s.arrivals;
  s.posted_changed = false;
  for (auto it = s.posted.begin(); it != s.posted.end();) {
    const int id = *it;
    if (match_one(s, id)) {
      s.posted.erase(it);
      it = s.posted.begin();  // what was matched may have polled: start over
    } else {
      ++it;
    }
  }
}

void release(state& s, int id) {
  s.mcbs[static_cast<std::size_t>(id)] = mcb{};
  s.free_mcbs.push_back(id);
}

int new_mcb(state& s) {
  int id;
  if (!s.free_mcbs.empty()) {
    id = s.free_mcbs.back();
    s.free_mcbs.pop_back();
  } else {
    id = static_cast<int>(s.mcbs.size());
    s.mcbs.emplace_back();
  }
  s.mcbs[static_cast<std::size_t>(id)].in_use = true;
  return id;
}

/// Take a slot at `node`; while its pool is full, wait to be woken by its reset.
std::uint64_t take_slot(state& s, int node) {
  const auto n = static_cast<std::uint64_t>(s.config.pool_slots);
  for (;;) {
    const std::uint64_t i = fetch_and_add(fai_at(s, node), std::uint64_t{1});
    if (i < n) return i;
    s.pool_woken[node] = false;
    am_request(node, s.h_pool_wait);
    wait_in_layer("ACLMPL_send_async (the receiver's pool is full)",
                  [&] { return static_cast<bool>(s.pool_woken[node]); });
  }
}

mcb& checked(state& s, ACLMPL_mcb id, const char* call) {
  if (id < 0 || static_cast<std::size_t>(id) >= s.mcbs.size() ||
      !s.mcbs[static_cast<std::size_t>(id)].in_use)
    fail(call, fmt::format("{} is not an mcb in use", id));
  return s.mcbs[static_cast<std::size_t>(id)];
}

}  // namespace

void start_pool(state& s) {
  const auto p = static_cast<std::size_t>(procs());
  const std::size_t bytes = 64 + static_cast<std::size_t>(s.config.pool_slots) * s.config.slot_bytes;
  s.pool_memory = all_spread_malloc(p, bytes);
  if (!s.pool_memory)
    fail("ACLMPL_init", fmt::format("no room in the spread heap for the asynchronous pool "
                                    "({} bytes: SPLITC_ACL_POOL_SLOTS x SPLITC_ACL_SLOT_BYTES)",
                                    bytes));
  s.fai = static_cast<std::uint64_t*>(s.pool_memory.local());
  *s.fai = 0;
  s.slot_data = static_cast<char*>(s.pool_memory.local()) + 64;
  s.slots.assign(static_cast<std::size_t>(s.config.pool_slots), slot_header{});
  s.async_sends_to.assign(p, 0);
  s.arrived_upto.assign(p, 0);
  s.arrived_early.assign(p, {});
  s.h_slot_medium = register_handler(on_slot_medium);
  s.h_slot_long = register_handler(on_slot_long);
  s.h_slot_pulled = register_handler(on_slot_pulled);
  s.h_pulled_done = register_handler(on_pulled_done);
  s.h_pool_wait = register_handler(on_pool_wait);
  s.h_pool_wake = register_handler(on_pool_wake);
  s.pool_woken.assign(p, false);
}

void stop_pool(state& s) { all_spread_free(s.pool_memory); }

void progress_pool() {
  state& s = st();
  if (s.arrivals != s.scanned_arrivals || s.posted_changed) match_posted(s);
  if (s.to_notify.empty()) return;
  std::vector<int> due;
  due.swap(s.to_notify);
  for (int id : due) {
    mcb& b = s.mcbs[static_cast<std::size_t>(id)];
    if (!b.in_use) continue;
    if (b.handler != nullptr && !b.handler_run) {
      b.handler_run = true;
      b.handler(id, b.handler_arg);
    }
    if (s.mcbs[static_cast<std::size_t>(id)].freed) release(s, id);
  }
}

bool async_message_pending(state& s, int node, std::int32_t tag) {
  mcb probe;
  probe.node = node;
  probe.tag = tag;
  for (const auto& m : s.overflow)
    if (matches(probe, m.header)) return true;
  for (const auto& h : s.slots)
    if (h.state == slot_state::done && matches(probe, h) && visible(s, h)) return true;
  return false;
}

}  // namespace splitc::acl

using namespace splitc::acl;

extern "C" {

ACLMPL_mcb ACLMPL_send_async(int node, int tag, const void* buf, int len, ACLMPL_handler handler,
                             void* harg) {
  const char* call = "ACLMPL_send_async";
  check_node(node, false, call);
  check_tag(tag, false, call);
  check_length(len, call);
  state& s = st();
  const int id = new_mcb(s);
  {
    mcb& b = s.mcbs[static_cast<std::size_t>(id)];
    b.is_send = true;
    b.node = node;
    b.tag = tag;
    b.send_buffer = static_cast<const char*>(buf);
    b.length = static_cast<std::size_t>(len);
    b.handler = handler;
    b.handler_arg = harg;
  }
  const std::uint64_t sequence = ++s.async_sends_to[node];
  const std::uint64_t i = take_slot(s, node);
  const std::uint64_t tw = tag_word(tag, context::user);
  const auto n = static_cast<std::size_t>(len);
  ++s.slot_sends;
  if (n > s.config.slot_bytes) {
    am_request(node, s.h_slot_pulled, i, tw, sequence, static_cast<std::uint64_t>(n),
               word_of(buf), static_cast<std::uint64_t>(id));
    return id;
  }
  if (n <= medium_slot_max) {
    static const char nothing = 0;
    am_request_medium(node, s.h_slot_medium, n > 0 ? buf : &nothing, n, i, tw, sequence);
  } else {
    am_request_long(node, s.h_slot_long, buf, n, slot_address(s, i), i, tw, sequence);
  }
  complete(s, id, n);
  return id;
}

ACLMPL_mcb ACLMPL_receive_async(int node, int tag, void* buf, int len, ACLMPL_handler handler,
                                void* harg) {
  const char* call = "ACLMPL_receive_async";
  check_node(node, true, call);
  check_tag(tag, true, call);
  check_length(len, call);
  state& s = st();
  const int id = new_mcb(s);
  mcb& b = s.mcbs[static_cast<std::size_t>(id)];
  b.node = node;
  b.tag = tag;
  b.receive_buffer = static_cast<char*>(buf);
  b.length = static_cast<std::size_t>(len);
  b.handler = handler;
  b.handler_arg = harg;
  s.posted.push_back(id);
  s.posted_changed = true;
  progress_pool();
  return id;
}

int ACLMPL_msg_done(ACLMPL_mcb id) {
  state& s = st();
  checked(s, id, "ACLMPL_msg_done");
  splitc::poll();
  progress_pool();
  return s.mcbs[static_cast<std::size_t>(id)].done ? 1 : 0;
}

void ACLMPL_msg_wait(ACLMPL_mcb id) {
  state& s = st();
  const mcb& b = checked(s, id, "ACLMPL_msg_wait");
  wait_in_layer("ACLMPL_msg_wait", [&] { return b.done; });
  progress_pool();  // its handler, if any, runs before the wait returns
}

void ACLMPL_free_mcb(ACLMPL_mcb id) {
  state& s = st();
  mcb& b = checked(s, id, "ACLMPL_free_mcb");
  if (b.done || !b.is_send) {
    if (!b.done) {
      s.posted.remove(id);  // a receive not yet matched: withdrawn
    } else if (b.handler != nullptr && !b.handler_run) {
      b.freed = true;  // its handler is still due
      return;
    }
    release(s, id);
    return;
  }
  b.freed = true;  // a send still in progress: freed when done
}

void ACLMPL_all_msgs_wait(void) {
  state& s = st();
  wait_in_layer("ACLMPL_all_msgs_wait", [&] {
    return std::all_of(s.mcbs.begin(), s.mcbs.end(),
                       [](const mcb& b) { return !b.in_use || b.done; });
  });
  progress_pool();
}

int ACLMPL_receive(int node, int tag, void* buf, int len) {
  state& s = st();
  const ACLMPL_mcb id = ACLMPL_receive_async(node, tag, buf, len, nullptr, nullptr);
  const mcb& b = s.mcbs[static_cast<std::size_t>(id)];
  wait_in_layer("ACLMPL_receive (an asynchronous message)", [&] { return b.done; });
  s.last_bytes = static_cast<int>(b.bytes);
  s.last_sender = b.source;
  s.last_tag = b.message_tag;
  const int bytes = static_cast<int>(b.bytes);
  release(s, id);
  return bytes;
}

int ACLMPL_mcb_bytes(ACLMPL_mcb id) {
  return static_cast<int>(checked(st(), id, "ACLMPL_mcb_bytes").bytes);
}

int ACLMPL_mcb_node(ACLMPL_mcb id) {
  const mcb& b = checked(st(), id, "ACLMPL_mcb_node");
  return b.is_send ? b.node : b.source;
}

int ACLMPL_mcb_tag(ACLMPL_mcb id) {
  const mcb& b = checked(st(), id, "ACLMPL_mcb_tag");
  return b.is_send ? b.tag : b.message_tag;
}

int ACLMPL_msg_pending(int node, int tag) {
  const char* call = "ACLMPL_msg_pending";
  check_node(node, true, call);
  check_tag(tag, true, call);
  state& s = st();
  splitc::poll();
  progress_pool();
  return async_message_pending(s, node, tag) || sync_message_pending(s, node, tag) ? 1 : 0;
}

}  // extern "C"
