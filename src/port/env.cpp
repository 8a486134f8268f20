// Porting kit: parsing SPLITC_* environment variables (include/splitc/port/env.hpp).
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

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

std::optional<std::string_view> env_value(const char* name) noexcept {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string_view(v);
}

void bad_env_value(const char* name, std::string_view value, std::string_view problem) {
  fatal_error(fmt::format("{}='{}' {}", name, value, problem));
}

std::size_t env_size(const char* name, std::size_t fallback) {
  const auto v = env_value(name);
  if (!v) return fallback;
  if (const auto n = parse_size(*v)) return *n;
  bad_env_value(name, *v, "is not a size (expected e.g. 512M, 2G)");
}

long env_integer(const char* name, long fallback) {
  const auto v = env_value(name);
  if (!v) return fallback;
  if (const auto n = parse_integer(*v)) return *n;
  bad_env_value(name, *v, "is not a whole number (expected e.g. 0, 42)");
}

double env_number(const char* name, double fallback) {
  const auto v = env_value(name);
  if (!v) return fallback;
  if (const auto n = parse_number(*v)) return *n;
  bad_env_value(name, *v, "is not a non-negative number (expected e.g. 10, 0.5)");
}

bool env_flag(const char* name, bool fallback) {
  const auto v = env_value(name);
  if (!v) return fallback;
  if (const auto b = parse_flag(*v)) return *b;
  bad_env_value(name, *v, "is not a flag (expected 1 or 0, yes or no)");
}

}  // namespace splitc::port
