// Internal to the core's sources: telling this processor's watcher (the liveness watchdog of
// the processor after it, port/watchdog.hpp) that the process is ending with an error it has
// reported, so that the watcher does not report its disappearance a second time.
#pragma once

namespace splitc::detail {

/// Called by fatal_error (src/errors.cpp) and by a failing exit (src/runtime.cpp).
void tell_watcher_failing() noexcept;

}  // namespace splitc::detail
