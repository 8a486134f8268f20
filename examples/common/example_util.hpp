// Helpers shared by the example applications and their MPI twins: command-line
// options, wall-clock time, a deterministic random generator, summary
// statistics, and optional CPU binding. Nothing here depends on splitc or on
// MPI, so both versions of a program are built from the same code.
#pragma once

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace examples {

// ---- options: --name value, --name=value, --flag ---------------------------------

class options {
 public:
  options(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) args_.emplace_back(argv[i]);
    used_.assign(args_.size(), false);
  }

  /// True if --name appears (as a flag, without a value).
  bool flag(std::string_view name) {
    for (std::size_t i = 0; i < args_.size(); ++i)
      if (args_[i] == name) {
        used_[i] = true;
        return true;
      }
    return false;
  }
  /// The value of --name, or `fallback`.
  std::string text(std::string_view name, std::string fallback) {
    for (std::size_t i = 0; i < args_.size(); ++i) {
      const std::string& a = args_[i];
      if (a == name) {
        if (i + 1 >= args_.size()) die("option " + std::string(name) + " needs a value");
        used_[i] = used_[i + 1] = true;
        return args_[i + 1];
      }
      if (a.size() > name.size() && a.compare(0, name.size(), name) == 0 && a[name.size()] == '=') {
        used_[i] = true;
        return a.substr(name.size() + 1);
      }
    }
    return fallback;
  }
  long long integer(std::string_view name, long long fallback) {
    const std::string t = text(name, "");
    if (t.empty()) return fallback;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 0);
    // Accept k/M/G suffixes (powers of two) and 2^N.
    if (end != nullptr && *end != '\0') {
      if (*end == '^' && v == 2) {
        v = 1LL << std::strtoll(end + 1, &end, 10);
      } else if (*end == 'k' || *end == 'K') {
        v <<= 10, ++end;
      } else if (*end == 'M' || *end == 'm') {
        v <<= 20, ++end;
      } else if (*end == 'G' || *end == 'g') {
        v <<= 30, ++end;
      }
      if (*end != '\0') die("option " + std::string(name) + ": not a number: " + t);
    }
    return v;
  }
  double real(std::string_view name, double fallback) {
    const std::string t = text(name, "");
    if (t.empty()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == nullptr || *end != '\0') die("option " + std::string(name) + ": not a number: " + t);
    return v;
  }
  /// Call after reading every option: an argument nobody asked for is an error.
  void finish() const {
    for (std::size_t i = 0; i < args_.size(); ++i)
      if (!used_[i]) die("unknown argument: " + args_[i]);
  }

  [[noreturn]] static void die(const std::string& why) {
    std::fprintf(stderr, "error: %s\n", why.c_str());
    std::exit(2);
  }

 private:
  std::vector<std::string> args_;
  std::vector<bool> used_;
};

// ---- time -------------------------------------------------------------------------

inline double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct summary {
  double min = 0, median = 0, max = 0;
};
inline summary summarize(std::vector<double> v) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return {v.front(), med, v.back()};
}

// ---- a deterministic generator (splitmix64), identical in every version -----------

inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class rng {
 public:
  explicit rng(std::uint64_t seed) : state_(seed) {}
  rng(std::uint64_t seed, std::uint64_t stream)
      : state_(mix64(seed) ^ mix64(stream * 0x9e3779b97f4a7c15ULL + 1)) {}
  std::uint64_t next() { return mix64(state_ += 0x9e3779b97f4a7c15ULL); }
  std::uint32_t next32() { return static_cast<std::uint32_t>(next() >> 32); }
  /// Uniform in [0, n).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }
  /// Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// ---- CPU binding --------------------------------------------------------------------

/// Pin the calling process to one CPU of those it may use: the rank-th, cyclically.
/// Returns the CPU, or -1 if binding failed.
inline int bind_to_cpu(int rank) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.empty()) return -1;
  const int cpu = cpus[static_cast<std::size_t>(rank) % cpus.size()];
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return sched_setaffinity(0, sizeof one, &one) == 0 ? cpu : -1;
}

/// The 1-minute load average, or -1.
inline double load_average() {
  double l[1];
  return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

}  // namespace examples
