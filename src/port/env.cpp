// Porting kit: parsing and reading the environment variables of the table
// (include/splitc/port/env.hpp, env_vars.def); the warning for unknown ones.
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace splitc::port {

std::optional<std::size_t> parse_size(std::string_view text) noexcept {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  unsigned long long n = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  const auto [end, error] = std::from_chars(first, last, n, base);
  if (error != std::errc{} || end == first) return std::nullopt;
  int shift = 0;
  if (end != last) {
    if (last - end != 1) return std::nullopt;
    switch (*end) {
      case 'k': case 'K': shift = 10; break;
      case 'm': case 'M': shift = 20; break;
      case 'g': case 'G': shift = 30; break;
      case 't': case 'T': shift = 40; break;
      default: return std::nullopt;
    }
  }
  if (shift != 0 && n > (~0ULL >> shift)) return std::nullopt;
  return static_cast<std::size_t>(n << shift);
}

std::optional<long> parse_integer(std::string_view text) noexcept {
  long n = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, n, 10);
  if (error != std::errc{} || end != last || text.empty()) return std::nullopt;
  return n;
}

std::optional<double> parse_number(std::string_view text) noexcept {
  if (text.empty() || text.front() == '-' || text.front() == '+' ||
      std::isspace(static_cast<unsigned char>(text.front())))
    return std::nullopt;
  const std::string copy(text);  // strtod needs a terminated string
  char* end = nullptr;
  const double n = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(n) || n < 0) return std::nullopt;
  return n;
}

std::optional<bool> parse_flag(std::string_view text) noexcept {
  std::string lower;
  for (const char ch : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (lower == "yes" || lower == "true" || lower == "on") return true;
  if (lower == "no" || lower == "false" || lower == "off") return false;
  if (const auto n = parse_integer(text)) return *n != 0;
  return std::nullopt;
}

void bad_env_value(const char* name, std::string_view value, std::string_view problem) {
  fatal_error(fmt::format("{}='{}' {}", name, value, problem));
}

namespace {

std::optional<std::string_view> raw(const char* name) noexcept {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string_view(v);
}

bool computed_default(const env_entry& e) noexcept { return e.fallback[0] == '('; }

std::vector<std::string_view> choices_of(const env_entry& e) {
  std::vector<std::string_view> words;
  std::string_view rest = e.choices;
  while (!rest.empty()) {
    const auto bar = rest.find('|');
    words.push_back(rest.substr(0, bar));
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
  }
  return words;
}

// Parse `text` as the row's type; `from_table` says whose text it is (a bad
// default in the table is the tree's bug, not the user's).
template <env_type T>
typename env_value_of<T>::type parse_as(const env_entry& e, std::string_view text, bool from_table) {
  auto bad = [&](std::string_view problem) -> typename env_value_of<T>::type {
    if (from_table)
      fatal_error(fmt::format("internal: the default of {} in env_vars.def ('{}') {}", e.name,
                              text, problem));
    bad_env_value(e.name, text, problem);
  };
  if constexpr (T == env_type::flag) {
    if (const auto b = parse_flag(text)) return *b;
    return bad("is not a flag (expected 1 or 0, yes or no)");
  } else if constexpr (T == env_type::integer) {
    if (const auto n = parse_integer(text)) return *n;
    return bad("is not a whole number (expected e.g. 0, 42)");
  } else if constexpr (T == env_type::size) {
    if (const auto n = parse_size(text)) return *n;
    return bad("is not a size (expected e.g. 512M, 2G)");
  } else if constexpr (T == env_type::address) {
    if (const auto n = parse_size(text)) return *n;
    return bad("is not an address (expected e.g. 0x100000000000)");
  } else if constexpr (T == env_type::number) {
    if (const auto n = parse_number(text)) return *n;
    return bad("is not a non-negative number (expected e.g. 10, 0.5)");
  } else if constexpr (T == env_type::text) {
    return std::string(text);
  } else if constexpr (T == env_type::choice) {
    for (const std::string_view w : choices_of(e))
      if (w == text) return w;
    std::string list;
    for (const std::string_view w : choices_of(e)) list += (list.empty() ? "" : ", ") + std::string(w);
    return bad("is not one of " + list);
  } else {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      const std::size_t start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i > start) words.emplace_back(text.substr(start, i - start));
    }
    return words;
  }
}

}  // namespace

template <env_type T>
std::optional<std::string_view> env_var<T>::value() const noexcept {
  return raw(name);
}

template <env_type T>
typename env_var<T>::value_type env_var<T>::get() const {
  const env_entry& e = entry();
  if (const auto v = value()) return parse_as<T>(e, *v, false);
  const bool empty_is_a_value = T == env_type::text || T == env_type::words;
  if (computed_default(e) || (e.fallback[0] == '\0' && !empty_is_a_value))
    fatal_error(fmt::format("internal: {} has no fixed default in env_vars.def; its reader must "
                            "give one (get(fallback)) or test is_set()",
                            name));
  return parse_as<T>(e, e.fallback, true);
}

template <env_type T>
typename env_var<T>::value_type env_var<T>::get(const value_type& fallback) const {
  const env_entry& e = entry();
  if (e.fallback[0] != '\0' && !computed_default(e) && parse_as<T>(e, e.fallback, true) != fallback)
    fatal_error(fmt::format("internal: the reader of {} has another default than env_vars.def ('{}')",
                            name, e.fallback));
  if (const auto v = value()) return parse_as<T>(e, *v, false);
  return fallback;
}

template struct env_var<env_type::flag>;
template struct env_var<env_type::integer>;
template struct env_var<env_type::size>;
template struct env_var<env_type::address>;
template struct env_var<env_type::number>;
template struct env_var<env_type::text>;
template struct env_var<env_type::choice>;
template struct env_var<env_type::words>;

const env_entry* find_env_entry(std::string_view name) noexcept {
  for (const env_entry& e : env_table)
    if (name == e.name) return &e;
  return nullptr;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

void warn_unknown_variables() {
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view kv = *e;
    if (kv.rfind("SPLITC_", 0) != 0) continue;
    const std::string_view name = kv.substr(0, kv.find('='));
    if (find_env_entry(name) != nullptr) continue;
    const env_entry* nearest = nullptr;
    std::size_t best = 4;  // further than 3 edits is not a misspelling
    for (const env_entry& t : env_table) {
      const std::size_t d = edit_distance(name, t.name);
      if (d < best) {
        best = d;
        nearest = &t;
      }
    }
    const std::string hint =
        nearest != nullptr ? fmt::format(" (did you mean {}?)", nearest->name) : std::string();
    const std::string line = fmt::format(
        "splitc: warning: {} is not a splitc variable{}; it is ignored (docs/environment.md)\n",
        name, hint);
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
  }
}

}  // namespace splitc::port
