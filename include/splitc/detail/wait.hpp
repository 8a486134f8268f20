// Waiting for a condition while keeping everything moving: every wait polls
// (so the backend's reliability and flow control progress) and backs off
// from spinning to yielding to sleeping when nothing arrives.
#pragma once

#include <splitc/port/backoff.hpp>
#include <splitc/detail/messaging.hpp>

#include <type_traits>

namespace splitc::detail {

[[gnu::cold, noreturn]] void wait_in_handler(context& c, const char* what);

/// After a poll that left a wait's condition false: the layer's own idle wait
/// where it has one (am.hpp, has_idle_wait), else back off. A template, so
/// that `if constexpr` discards the member a backend does not have.
template <class B>
inline void pause_waiting(B& backend, context& c, port::backoff& b, const char* what) {
  if constexpr (has_idle_wait<B>)
    backend.wait_idle(c.sink(), what);
  else
    b.pause();
}

/// `done` by reference: a lambda of more than two words passed by value is copied on the stack at
/// every call that is not inlined, its words stored one by one and loaded two at a time, which
/// stalls the load until the stores retire (a user's broadcast loop on mpi: a quarter of
/// checked_broadcast's samples on that load).
template <class Done>
inline void wait_until(context& c, const char* what, Done&& done) {
  if (done()) return;
  if (c.frame.active) [[unlikely]] wait_in_handler(c, what);
  if (c.collective_yield != nullptr) [[unlikely]] {
    // Inside a split-phase collective: the processor goes back to the program (or to the wait
    // that is polling), which resumes this collective at its next poll.
    do c.collective_yield(c);
    while (!done());
    return;
  }
  port::backoff b;
  for (;;) {
    // A processor that is serving others' messages while it waits must not
    // doze off: back off only while nothing arrives. After a poll that ran
    // handlers, poll again rather than pause: they may have sent messages to
    // this processor that the poll had passed (a layer's idle wait, which
    // waits for an arrival, would then wait for ever: on the sim, a deadlock).
    const int ran = progress(c);
    if (done()) return;
    if (ran != 0) {
      b.reset();
      continue;
    }
    // A layer's idle wait may sleep until something arrives: the root announcements this
    // processor owes leave first, since a parent may be waiting for them.
    if constexpr (has_idle_wait<std::remove_reference_t<decltype(c.backend)>>)
      if (c.mail.owed_count != 0) [[unlikely]] send_owed_announcements(c, c.mail);
    pause_waiting(c.backend, c, b, what);
  }
}

/// The context, for an operation that may wait (so not inside a handler).
inline context& blocking_context(const char* what) {
  context& c = ctx();
  if (c.frame.active) [[unlikely]] wait_in_handler(c, what);
  return c;
}

}  // namespace splitc::detail
