// Fatal errors. splitc has one policy for misuse and failure: print a message
// that names the processor and the cause, then end the whole job with a
// non-zero status (the launcher takes the other processes down). Nothing
// hangs and nothing is silently corrupted. The call is the porting kit's
// (port/fail.hpp); the core calls it detail::fail.
#pragma once

#include <splitc/port/fail.hpp>

namespace splitc::detail {
using port::fail;
}  // namespace splitc::detail
