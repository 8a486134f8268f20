// Fatal errors. splitc has one policy for misuse and failure: print a message
// that names the processor and the cause, then end the whole job with a
// non-zero status (the launcher takes the other processes down). Nothing
// hangs and nothing is silently corrupted.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace splitc {

/// Exit status of a process that stops on a splitc error.
inline constexpr int error_exit_status = 70;

/// Print "splitc: processor P of N: <what>" on stderr and end the job.
[[noreturn]] void fatal_error(std::string_view what);

namespace detail {
template <class... Args>
[[noreturn, gnu::cold, gnu::noinline]] void fail(fmt::format_string<Args...> format,
                                                 Args&&... args) {
  fatal_error(fmt::format(format, std::forward<Args>(args)...));
}
}  // namespace detail

}  // namespace splitc
