// Sending active messages from the core: the inline fast path hands the
// message to the backend; when the backend has no room, main-line code polls
// until it has, and a handler (which must never wait) queues the message for
// the progress engine. Handler rules are enforced here: a reply handler
// sends nothing, a request handler replies at most once.
#pragma once

#include <splitc/detail/compose.hpp>
#include <splitc/detail/context.hpp>
#include <splitc/errors.hpp>

#include <cstddef>

namespace splitc::detail {

/// Built-in handlers, registered first and in this order on every process.
enum class builtin : std::uint16_t {
  get_request,      ///< (src, len, dst, ctr): reply with the data
  get_reply,        ///< (dst, len, ctr, data...): deposit, count down
  get_done,         ///< long reply, data already at dst: (ctr)
  put_request,      ///< (dst, len, ctr, data...): deposit, acknowledge
  put_long_done,    ///< long request, data already at dst: (ctr) acknowledge
  ack,              ///< (ctr): count down
  store,            ///< (dst, len, rctr, data...): deposit, count bytes
  store_long_done,  ///< long request, data already at dst: (rctr) count bytes
  mailbox_deposit,  ///< medium (slot, sequence): a collective's message
  mailbox_ack,      ///< (consumed): a receiver freed our slots
  heap_allocate,    ///< (bytes, answer): processor 0 allocates symmetric space
  heap_free,        ///< (offset, answer): processor 0 frees symmetric space
  heap_answer,      ///< (answer, value)
  atomic_request,   ///< (target, op|type<<8, a, b, result, done)
  atomic_done,      ///< (result, done, old, size)
  procedure_call,   ///< (runner, function, target, result, done, args...) or medium
  procedure_result, ///< (result, done, length, bytes...) or medium
  put_signal,       ///< (done, signal, value, op|pieces<<1|sequence<<32): a signalled put's piece
  vector_get,       ///< medium (batch, pieces, length, first): reply with the pieces' bytes
  vector_get_reply, ///< medium (batch): the bytes of a vector_get, in order
  vector_put,       ///< medium (ctr, pieces, length, first): place, acknowledge
  vector_store,     ///< medium (rctr, pieces, length, first): place, count bytes
  fragment,         ///< (id|index, ...): a piece of a composed message (detail/compose.hpp)
  count
};
constexpr handler_id id(builtin b) noexcept { return static_cast<handler_id>(b); }

/// Send slow path: compose what the backend cannot carry (src/compose.cpp), then
/// wait for room (main line) or queue (inside a handler). With `source_free`, the source
/// stays unmodified until that counter is zero: a queued message keeps a pointer to it
/// (counting `source_free` up until it goes) instead of a copy.
void send_slow(context& c, am_kind kind, bool is_reply, const am_message* token, proc_t p,
               handler_id h, const am_word* args, int nargs, const void* src, std::size_t len,
               void* dst, counter* source_free = nullptr);
/// Deliver whatever has arrived and retry queued messages; returns how many
/// messages ran (so waiting loops know to keep polling instead of backing off).
int progress(context& c);
/// progress() for a test that a program calls in a loop of its own (is_sync, is_store_sync, a
/// memory test, poll()): on a host with more of the job's processes than cores, after a few
/// empty ones each empty call yields the core (src/runtime.cpp).
int poll_in_loop(context& c);
[[gnu::cold, noreturn]] void bad_reply(context& c);
[[gnu::cold, noreturn]] void bad_am_target(context& c, proc_t p, handler_id h);
[[gnu::cold, noreturn]] void bad_am_length(context& c, std::size_t len, std::size_t max,
                                           const char* op);

/// For programs' own active messages: a processor in range and one of the
/// program's handlers (the runtime's built-in ones are not theirs to call).
inline void check_am_target(context& c, proc_t p, handler_id h) {
  const auto index = static_cast<std::size_t>(h);
  if (static_cast<unsigned>(p) >= static_cast<unsigned>(c.procs) || index >= c.handlers.size() ||
      index < static_cast<std::size_t>(builtin::count)) [[unlikely]]
    bad_am_target(c, p, h);
}
inline void check_am_length(context& c, std::size_t len, std::size_t max, const char* op) {
  if (len > max) [[unlikely]] bad_am_length(c, len, max, op);
}

/// Hand one message to the backend in its own form (fits_natively holds): the
/// only places the core turns a kind into the backend's calls. Templates, so
/// that calls of forms the backend lacks are discarded, not compiled; one for
/// requests and one for replies, so that each stays as small as the three
/// calls it makes (inlined into request/reply with a constant kind, the switch
/// folds and smp's inlined send sees a constant word count; one function
/// holding all six sends was left out of line by GCC, and one-way messages on
/// smp took 32-36 ns instead of 10-19).
template <class B>
[[gnu::always_inline]] inline am_status request_native(B& b, am_kind kind, proc_t p, handler_id h, const am_word* args,
                                int nargs, const void* src, std::size_t len, void* dst) {
  switch (kind) {
    case am_kind::short_msg: return b.request_short(p, h, args, nargs);
    case am_kind::medium_msg:
      if constexpr (has_medium_messages<B>) return b.request_medium(p, h, args, nargs, src, len);
      break;
    default:
      if constexpr (has_long_messages<B>) return b.request_long(p, h, args, nargs, src, len, dst);
      break;
  }
  __builtin_unreachable();
}
template <class B>
[[gnu::always_inline]] inline am_status reply_native(B& b, am_kind kind, const am_message& token, handler_id h,
                              const am_word* args, int nargs, const void* src, std::size_t len,
                              void* dst) {
  switch (kind) {
    case am_kind::short_msg: return b.reply_short(token, h, args, nargs);
    case am_kind::medium_msg:
      if constexpr (has_medium_messages<B>) return b.reply_medium(token, h, args, nargs, src, len);
      break;
    default:
      if constexpr (has_long_messages<B>) return b.reply_long(token, h, args, nargs, src, len, dst);
      break;
  }
  __builtin_unreachable();
}

/// A message the backend cannot carry as it is, cut into short requests
/// (src/compose.cpp).
void send_composed(context& c, am_kind kind, bool is_reply, proc_t p, handler_id h,
                   const am_word* args, int nargs, const void* src, std::size_t len, void* dst);

// The inline fast paths hold only the backend's own send (the common case); a
// message that does not fit the backend's forms (fits_natively folds to true
// for constant kinds and counts) goes to send_slow with the rest, which
// composes it -- so request and reply stay small enough for the compiler to
// inline into every operation. The program's own sends (am_request, am_reply:
// runtime.hpp) take the always-inlined forms: left to GCC, a medium message's
// send was a call with the kind and word count unknown (8-byte medium messages
// on smp 2x slower, 2026-11-27), while forcing it into every core operation
// made the direct paths (read, store) too large to be inlined into the program.
[[gnu::always_inline]] inline void request_inlined(context& c, am_kind kind, proc_t p,
                                                   handler_id h, const am_word* args, int nargs,
                                                   const void* src = nullptr,
                                                   std::size_t len = 0, void* dst = nullptr) {
  if (fits_natively(kind, nargs, len) && !c.frame.active && c.pending.empty()) [[likely]] {
    if (request_native(c.backend, kind, p, h, args, nargs, src, len, dst) == am_status::ok)
        [[likely]]
      return;
  }
  send_slow(c, kind, false, nullptr, p, h, args, nargs, src, len, dst);
}
inline void request(context& c, am_kind kind, proc_t p, handler_id h, const am_word* args,
                    int nargs, const void* src = nullptr, std::size_t len = 0,
                    void* dst = nullptr) {
  request_inlined(c, kind, p, h, args, nargs, src, len, dst);
}

/// With `source_free` (reply_lending_source), a reply that must be queued for want of room
/// keeps its source lent rather than a copy of it (send_slow).
[[gnu::always_inline]] inline void reply_inlined(context& c, const am_message& token,
                                                 am_kind kind, handler_id h, const am_word* args,
                                                 int nargs, const void* src = nullptr,
                                                 std::size_t len = 0, void* dst = nullptr,
                                                 counter* source_free = nullptr) {
  if (!c.frame.active || !c.frame.is_request || c.frame.replied) [[unlikely]] bad_reply(c);
  c.frame.replied = true;
  if (fits_natively(kind, nargs, len) && c.pending.empty()) [[likely]] {
    if (reply_native(c.backend, kind, token, h, args, nargs, src, len, dst) == am_status::ok)
        [[likely]]
      return;
  }
  send_slow(c, kind, true, &token, token.source, h, args, nargs, src, len, dst, source_free);
}
inline void reply(context& c, const am_message& token, am_kind kind, handler_id h,
                  const am_word* args, int nargs, const void* src = nullptr, std::size_t len = 0,
                  void* dst = nullptr) {
  reply_inlined(c, token, kind, h, args, nargs, src, len, dst);
}

/// A long message from a source that stays unmodified until `source_free` is
/// zero (has_zero_copy_long): the backend may send from it in place and count
/// `source_free` down later. Without the member, or without room for it now,
/// the ordinary send, which is done with the source when it returns -- except a
/// reply that must be queued for want of room, which keeps the source lent
/// (send_slow). (Templates, so that the calls of a member the backend lacks are
/// discarded.)
template <class B = active_backend>
inline void request_lending_source(context& c, proc_t p, handler_id h, const am_word* args,
                                   int nargs, const void* src, std::size_t len, void* dst,
                                   counter& source_free) {
  if constexpr (has_zero_copy_long<B>) {
    if (fits_natively(am_kind::long_msg, nargs, len) && !c.frame.active && c.pending.empty()) {
      B& b = c.backend;
      source_free.add_local(1);
      if (b.request_long_zero_copy(p, h, args, nargs, src, len, dst, source_free) ==
          am_status::ok)
        return;
      source_free.add_local(-1);
    }
  }
  request(c, am_kind::long_msg, p, h, args, nargs, src, len, dst);
}
template <class B = active_backend>
inline void reply_lending_source(context& c, const am_message& token, handler_id h,
                                 const am_word* args, int nargs, const void* src,
                                 std::size_t len, void* dst, counter& source_free) {
  if constexpr (has_zero_copy_long<B>) {
    if (c.frame.active && c.frame.is_request && !c.frame.replied &&
        fits_natively(am_kind::long_msg, nargs, len) && c.pending.empty()) {
      B& b = c.backend;
      source_free.add_local(1);
      if (b.reply_long_zero_copy(token, h, args, nargs, src, len, dst, source_free) ==
          am_status::ok) {
        c.frame.replied = true;
        return;
      }
      source_free.add_local(-1);
    }
  }
  // The backend's own send, which copies the source before it returns; or, with no room for
  // it, a queued reply that keeps the source lent rather than copying it.
  reply_inlined(c, token, am_kind::long_msg, h, args, nargs, src, len, dst, &source_free);
}

}  // namespace splitc::detail
