// Output of splitc-microbench: human-readable tables on stdout and, with
// --json FILE, one JSON object per line per measurement.
#pragma once

#include "timing.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <string>

namespace bench {

/// One line of --json output.
struct record {
  std::string name;       ///< e.g. "read_spread_heap", "bulk_get", "pingpong_rt"
  std::size_t size = 8;   ///< bytes moved per operation
  double value = NAN;     ///< in `unit`
  std::string unit;       ///< "ns" or "MB/s" (10^6 bytes per second)
  double ratio = NAN;     ///< value / reference_value
  std::string reference;  ///< what the ratio is taken against
  double reference_value = NAN;
  summary stats;          ///< runs behind `value`
  std::string am_reference;  ///< AM-path operations: the raw AM pattern they are compared with
  double am_ratio = NAN;
};

class json_sink {
 public:
  json_sink() = default;
  bool open(const std::string& path, std::string backend, int procs, std::string mode) {
    out_.open(path, std::ios::out | std::ios::trunc);
    backend_ = std::move(backend);
    procs_ = procs;
    mode_ = std::move(mode);
    return out_.good();
  }
  bool active() const { return out_.is_open(); }

  void write(const record& r) {
    if (!active()) return;
    auto num = [](double v) -> nlohmann::json {
      return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
    };
    nlohmann::json j;
    j["name"] = r.name;
    j["size"] = r.size;
    j["value"] = num(r.value);
    j["unit"] = r.unit;
    j["ratio"] = num(r.ratio);
    j["reference"] = r.reference;
    j["reference_value"] = num(r.reference_value);
    if (!r.am_reference.empty()) {
      j["am_reference"] = r.am_reference;
      j["am_ratio"] = num(r.am_ratio);
    }
    j["ci95_rel"] = num(r.stats.ci_rel);
    j["ci95_abs"] = num(r.unit == "ns" ? r.stats.ci_abs : NAN);
    j["runs_kept"] = r.stats.kept;
    j["runs_dropped"] = r.stats.dropped;
    j["iters_per_run"] = r.stats.iters;
    j["converged"] = r.stats.converged;
    j["backend"] = backend_;
    j["procs"] = procs_;
    j["mode"] = mode_;
    out_ << j.dump() << '\n';
    out_.flush();
  }
  /// A free-form line (the bars).
  void write(const nlohmann::json& j) {
    if (!active()) return;
    out_ << j.dump() << '\n';
    out_.flush();
  }

 private:
  std::ofstream out_;
  std::string backend_;
  int procs_ = 0;
  std::string mode_;
};

inline std::string format_size(std::size_t n) {
  if (n >= (std::size_t{1} << 20) && n % (std::size_t{1} << 20) == 0)
    return fmt::format("{} MiB", n >> 20);
  if (n >= 1024 && n % 1024 == 0) return fmt::format("{} KiB", n >> 10);
  return fmt::format("{} B", n);
}

/// A time in ns with three significant digits.
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

/// Pad a UTF-8 string to `width` columns (fmt pads by code points since v9,
/// but "—" and "×" in headers are counted here explicitly to stay safe).
inline std::string pad(const std::string& s, std::size_t width, bool right = true) {
  std::size_t cols = 0;
  for (unsigned char ch : s)
    if ((ch & 0xC0) != 0x80) ++cols;
  if (cols >= width) return s;
  const std::string fill(width - cols, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace bench
