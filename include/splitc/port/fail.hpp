// The failure call of the porting kit, which the core uses too: print "splitc: processor P
// of N: <what>" on stderr and end the whole job with status 70 (the launcher takes the other
// processes down). A port reports every error of its layer this way, naming the cause.
#pragma once

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace splitc {

/// Exit status of a process that stops on a splitc error.
inline constexpr int error_exit_status = 70;

/// Print "splitc: processor P of N: <what>" on stderr and end the job (src/errors.cpp).
[[noreturn]] void fatal_error(std::string_view what);

namespace port {
/// fatal_error with a message formatted by fmt: port::fail("{}: {}", call, strerror(e)).
template <class... Args>
[[noreturn, gnu::cold, gnu::noinline]] void fail(fmt::format_string<Args...> format,
                                                 Args&&... args) {
  fatal_error(fmt::format(format, std::forward<Args>(args)...));
}
}  // namespace port

}  // namespace splitc
