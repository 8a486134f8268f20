// Porting kit: reading splitc's environment variables. Every variable is a
// row of one table (include/splitc/port/env_vars.def: name, type, default,
// who reads it, meaning); each row becomes a typed handle here,
// splitc::port::env::<id>, and is read only through it:
//
//   const std::size_t size = port::env::segment_size.get();   // "1G" when unset
//   if (const auto rv = port::env::udp_rendezvous.value()) ...  // set and not empty
//
// so every backend, the runtime, the tools and the layers parse the same way
// and report a bad value in one format:
//   SPLITC_SEGMENT_SIZE='-1' is not a size (expected e.g. 512M, 2G)
// The documentation table (docs/environment.md) is produced from the same
// rows (tests/docs/env_doc.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// End the job with "NAME='VALUE' <problem>" (the one format for bad values).
[[noreturn]] void bad_env_value(const char* name, std::string_view value, std::string_view problem);

// ---- the table ---------------------------------------------------------------------

enum class env_type { flag, integer, size, address, number, text, choice, words };

/// One row of env_vars.def.
struct env_entry {
  const char* name;
  env_type type;
  const char* fallback;  ///< "" none; "(...)" a description of a computed default
  const char* choices;   ///< choice: the words, separated by '|'
  const char* group;     ///< who reads it: core, job, smp, udp, sim, mpi, dolib, smpi, acl,
                         ///< tests
  const char* meaning;
};

enum class env_id : std::size_t {
#define SPLITC_ENV(id, name, type, fallback, choices, group, meaning) id,
#include <splitc/port/env_vars.def>
#undef SPLITC_ENV
};

inline constexpr env_entry env_table[] = {
#define SPLITC_ENV(id, name, type, fallback, choices, group, meaning) \
  {name, env_type::type, fallback, choices, #group, meaning},
#include <splitc/port/env_vars.def>
#undef SPLITC_ENV
};

/// What a variable of each type reads as.
template <env_type T> struct env_value_of;
template <> struct env_value_of<env_type::flag> { using type = bool; };
template <> struct env_value_of<env_type::integer> { using type = long; };
template <> struct env_value_of<env_type::size> { using type = std::size_t; };
template <> struct env_value_of<env_type::address> { using type = std::size_t; };
template <> struct env_value_of<env_type::number> { using type = double; };
template <> struct env_value_of<env_type::text> { using type = std::string; };
template <> struct env_value_of<env_type::choice> { using type = std::string_view; };
template <> struct env_value_of<env_type::words> { using type = std::vector<std::string>; };

/// A handle on one row: the only way to read a variable.
template <env_type T>
struct env_var {
  using value_type = typename env_value_of<T>::type;
  env_id id;
  const char* name;

  const env_entry& entry() const noexcept { return env_table[static_cast<std::size_t>(id)]; }
  /// The raw value when set and not empty.
  std::optional<std::string_view> value() const noexcept;
  bool is_set() const noexcept { return value().has_value(); }
  /// The parsed value, or the table's default when unset or empty (a row
  /// whose default the reader computes must use get(fallback)). A value that
  /// does not parse ends the job naming the variable.
  value_type get() const;
  /// The same with the reader's default; where the table gives a fixed
  /// default, `fallback` must be it (a difference ends the job: the
  /// documentation would be wrong).
  value_type get(const value_type& fallback) const;
};

namespace env {
#define SPLITC_ENV(id, name, type, fallback, choices, group, meaning) \
  inline constexpr env_var<env_type::type> id{env_id::id, name};
#include <splitc/port/env_vars.def>
#undef SPLITC_ENV
}  // namespace env

/// The row of the variable called `name`, or nullptr.
const env_entry* find_env_entry(std::string_view name) noexcept;

/// One line on stderr for each SPLITC_* variable in the environment that is
/// not in the table (a misspelling: "SPLITC_SEGMENT_SIZ"), naming the nearest
/// known name. Called by init() on processor 0.
void warn_unknown_variables();

}  // namespace splitc::port
