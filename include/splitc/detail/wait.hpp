// Waiting for a condition while keeping everything moving: every wait polls
// (so the backend's reliability and flow control progress) and backs off
// from spinning to yielding to sleeping when nothing arrives.
#pragma once

#include <splitc/detail/backoff.hpp>
#include <splitc/detail/messaging.hpp>

namespace splitc::detail {

[[gnu::cold, noreturn]] void wait_in_handler(context& c, const char* what);

template <class Done>
inline void wait_until(context& c, const char* what, Done done) {
  if (done()) return;
  if (c.frame.active) [[unlikely]] wait_in_handler(c, what);
  backoff b;
  for (;;) {
    // A processor that is serving others' messages while it waits must not
    // doze off: back off only while nothing arrives.
    if (progress(c) != 0) b.reset();
    if (done()) return;
    b.pause();
  }
}

/// The context, for an operation that may wait (so not inside a handler).
inline context& blocking_context(const char* what) {
  context& c = ctx();
  if (c.frame.active) [[unlikely]] wait_in_handler(c, what);
  return c;
}

}  // namespace splitc::detail
