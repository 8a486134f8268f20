// Number and size formatting for splitc-bench's terminal tables.
#pragma once

#include "timing.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <string>

namespace bench {

inline std::string format_size(std::size_t n) {
  if (n >= (std::size_t{1} << 20) && n % (std::size_t{1} << 20) == 0)
    return fmt::format("{} MiB", n >> 20);
  if (n >= 1024 && n % 1024 == 0) return fmt::format("{} KiB", n >> 10);
  return fmt::format("{} B", n);
}

/// The unit of the tables' times: virtual nanoseconds on the sim.
inline const char* ns_label() { return virtual_clock ? "virtual ns" : "ns"; }

/// A time in ns with about three significant digits.
inline std::string format_ns(double ns) {
  if (!std::isfinite(ns)) return "—";
  if (std::abs(ns) >= 100) return fmt::format("{:.0f}", ns);
  if (std::abs(ns) >= 10) return fmt::format("{:.1f}", ns);
  return fmt::format("{:.2f}", ns);
}
inline std::string format_ratio(double r) {
  if (!std::isfinite(r)) return "—";
  if (r >= 10) return fmt::format("{:.1f}", r);
  if (r >= 0.1) return fmt::format("{:.2f}", r);
  return fmt::format("{:.3f}", r);
}
inline std::string format_ci(const summary& s) {
  if (!std::isfinite(s.ci_rel)) return "—";
  return fmt::format("{:.1f}%{}", 100 * s.ci_rel, s.converged ? "" : "*");
}
/// MB/s = 10^6 bytes per second, as the seed's figures.
inline double mb_per_s(std::size_t bytes, double ns_per_transfer) {
  return static_cast<double>(bytes) / ns_per_transfer * 1e3;
}
inline std::string format_mbs(double v) {
  if (!std::isfinite(v)) return "—";
  if (v >= 100) return fmt::format("{:.0f}", v);
  return fmt::format("{:.1f}", v);
}

/// Pad a UTF-8 string to `width` columns (code points counted, so "—", "×"
/// and "±" take one column each).
inline std::string pad(const std::string& s, std::size_t width, bool right = true) {
  std::size_t cols = 0;
  for (unsigned char ch : s)
    if ((ch & 0xC0) != 0x80) ++cols;
  if (cols >= width) return s;
  const std::string fill(width - cols, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace bench
