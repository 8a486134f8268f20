// The machines the sim can charge for, from machine_models.def, and the one
// SPLITC_SIM_MACHINE selects.
#include <splitc/sim_engine/machine_model.hpp>

#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>

#include <array>

namespace splitc::backends::sim {
namespace {

constexpr machine_model models[] = {
#define SPLITC_SIM_MACHINE(id, description, o_s, o_r, latency, gap, per_byte, packet, poll, mhz) \
  {#id, description, o_s, o_r, latency, gap, per_byte, packet, poll, mhz},
#include "machine_models.def"
#undef SPLITC_SIM_MACHINE
};

}  // namespace

std::span<const machine_model> machine_models() noexcept { return models; }

const machine_model& selected_machine() {
  std::string_view name = port::env::sim_machine.get();
  if (name == "cm5") name = "cm5_cmam";  // the implementation the seed describes (Luna 1994, §4)
  for (const machine_model& m : models)
    if (m.id == name) return m;
  port::fail("SPLITC_SIM_MACHINE={}: no such machine in the sim's table", name);
}

}  // namespace splitc::backends::sim
