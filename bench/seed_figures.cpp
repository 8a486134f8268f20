// Looking up the seeds' published numbers (see seed_figures.hpp).
#include "seed_figures.hpp"

#include "timing.hpp"

#include <splitc/port/env.hpp>

#include <charconv>
#include <cmath>
#include <limits>

namespace bench {
namespace {

struct seed_figure {
  const char* machine;
  const char* key;
  double value;
  const char* unit;
  const char* citation;
};

constexpr seed_figure figures[] = {
#define SPLITC_SEED_FIGURE(machine, key, value, unit, citation) {#machine, key, value, unit, citation},
#include "seed_figures.def"
#undef SPLITC_SEED_FIGURE
};

/// Factor from `from` to `to`, NaN when they do not convert.
double unit_factor(std::string_view from, std::string_view to) {
  auto time_ns = [](std::string_view u) {
    if (u == "ns") return 1.0;
    if (u == "us") return 1e3;
    if (u == "ms") return 1e6;
    if (u == "s") return 1e9;
    return std::numeric_limits<double>::quiet_NaN();
  };
  if (from == to) return 1.0;
  return time_ns(from) / time_ns(to);
}

/// Whether the conditions after the name ("@p4@dataflow", or "") hold at `procs`.
bool conditions_hold(std::string_view conditions, int procs) {
  int wanted_procs = 2;
  while (!conditions.empty()) {
    conditions.remove_prefix(1);  // the '@'
    const std::size_t next = conditions.find('@');
    const std::string_view c = conditions.substr(0, next);
    conditions = next == std::string_view::npos ? std::string_view{} : conditions.substr(next);
    if (c.size() > 1 && c[0] == 'p') {
      int n = 0;
      const auto [end, ec] = std::from_chars(c.data() + 1, c.data() + c.size(), n);
      if (ec != std::errc{} || end != c.data() + c.size()) return false;
      wanted_procs = n;
    } else if (c != "dataflow") {
      return false;  // no other condition is recorded
    }
  }
  return procs == wanted_procs;
}

}  // namespace

std::optional<seed_match> find_seed_figure(std::string_view machine, std::string_view name,
                                           int procs, std::string_view unit) {
  if (machine == "cm5") machine = "cm5_cmam";
  for (const seed_figure& f : figures) {
    if (machine != f.machine) continue;
    const std::string_view key = f.key;
    const std::size_t at = key.find('@');
    if (key.substr(0, at) != name) continue;
    if (!conditions_hold(at == std::string_view::npos ? std::string_view{} : key.substr(at), procs))
      continue;
    const double factor = unit_factor(f.unit, unit);
    if (!std::isfinite(factor)) return std::nullopt;
    return seed_match{f.value * factor, f.key, f.citation};
  }
  return std::nullopt;
}

std::string sim_machine_id() {
  if constexpr (!virtual_clock) return "";
  std::string id(splitc::port::env::sim_machine.get());
  return id == "cm5" ? "cm5_cmam" : id;
}

bool sim_charges_computation() {
  if constexpr (!virtual_clock) return true;
  return splitc::port::env::sim_time.get() == "measured";
}

}  // namespace bench
