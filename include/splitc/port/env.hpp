// Porting kit: reading SPLITC_* environment variables. Every backend and the
// runtime parse sizes, integers, numbers and flags here, so a bad value is
// reported the same way everywhere:
//   SPLITC_SEGMENT_SIZE='-1' is not a size (expected e.g. 512M, 2G)
// An unset or empty variable takes the caller's default.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace splitc::port {

/// "4096", "0x1000", "512k", "512M", "2G", "1T" (binary multiples, either
/// case): the byte count, or nothing for anything else (a sign, a fraction,
/// another suffix, trailing text, a value beyond 64 bits).
std::optional<std::size_t> parse_size(std::string_view text) noexcept;
/// A whole decimal number, optionally negative ("-1", "42").
std::optional<long> parse_integer(std::string_view text) noexcept;
/// A non-negative decimal number ("10", "0.5", "1e-3").
std::optional<double> parse_number(std::string_view text) noexcept;
/// "1", "yes", "true", "on" or "0", "no", "false", "off" (any case); any
/// other whole number counts as true when non-zero.
std::optional<bool> parse_flag(std::string_view text) noexcept;

// The variable's value, or `fallback` when it is unset or empty; a value
// that does not parse ends the job (fatal_error) with the message above.
std::size_t env_size(const char* name, std::size_t fallback);
long env_integer(const char* name, long fallback);
double env_number(const char* name, double fallback);
bool env_flag(const char* name, bool fallback);

/// The variable's value when set and not empty.
std::optional<std::string_view> env_value(const char* name) noexcept;

/// End the job with "NAME='VALUE' <problem>" (the one format for bad values).
[[noreturn]] void bad_env_value(const char* name, std::string_view value, std::string_view problem);

}  // namespace splitc::port
