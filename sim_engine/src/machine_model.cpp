// The machines the sim can charge for: the built-in ones of
// machine_models.def, the costs of one message under a model, and the
// machine SPLITC_SIM_MACHINE selects (a built-in one or a model file).
#include <splitc/sim_engine/machine_model.hpp>

#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace splitc::backends::sim {
namespace {

struct builtin_machine {
  std::string_view id;
  std::string_view description;
  loggp costs;
  std::size_t packet_bytes;
  double poll_ns;
  double cpu_mhz;
};

constexpr builtin_machine builtins[] = {
#define SPLITC_SIM_MACHINE(id, description, o_s, o_r, latency, gap, per_byte, packet, poll, mhz) \
  {#id, description, {o_s, o_r, latency, gap, per_byte}, packet, poll, mhz},
#include "machine_models.def"
#undef SPLITC_SIM_MACHINE
};

machine_model builtin(std::string_view name) {
  if (name == "cm5") name = "cm5_cmam";  // the implementation the seed describes (Luna 1994, §4)
  for (const builtin_machine& m : builtins)
    if (m.id == name)
      return uniform_machine(m.id, m.description, m.costs, m.packet_bytes, m.poll_ns, m.cpu_mhz);
  port::fail("SPLITC_SIM_MACHINE={}: no such machine; the sim has {} and cm5, or give the path "
             "of a machine model file (a value with a '/', docs/sim-machines.md)",
             name, fmt::join(builtin_machine_ids(), ", "));
}

}  // namespace

const loggp& machine_model::costs(message_kind kind, std::size_t bytes) const noexcept {
  const std::vector<size_class>& c = classes[static_cast<std::size_t>(kind)];
  // The last class that starts at or below `bytes` (the first starts at 0).
  auto it = std::upper_bound(c.begin(), c.end(), bytes,
                             [](std::size_t n, const size_class& s) { return n < s.from_bytes; });
  return std::prev(it)->costs;
}

double machine_model::least_latency_ns() const noexcept {
  double least = classes[0].front().costs.latency_ns;
  for (const auto& kind : classes)
    for (const size_class& s : kind) least = std::min(least, s.costs.latency_ns);
  return least;
}

machine_model uniform_machine(std::string_view id, std::string_view description, const loggp& costs,
                              std::size_t packet_bytes, double poll_ns, double cpu_mhz) {
  machine_model m;
  m.id = id;
  m.description = description;
  for (auto& kind : m.classes) kind = {size_class{0, costs}};
  m.packet_bytes = packet_bytes;
  m.poll_ns = poll_ns;
  m.cpu_mhz = cpu_mhz;
  return m;
}

std::vector<std::string_view> builtin_machine_ids() {
  std::vector<std::string_view> ids;
  for (const builtin_machine& m : builtins) ids.push_back(m.id);
  return ids;
}

const machine_model& selected_machine() {
  // Read once per process: a model file is parsed before the first processor runs.
  static const machine_model selected = [] {
    const std::string name = port::env::sim_machine.get();
    if (name.find('/') != std::string::npos) return read_machine_model_file(name);
    return builtin(name);
  }();
  return selected;
}

}  // namespace splitc::backends::sim
