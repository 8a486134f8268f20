// The LogGP cost model of one machine (docs/sim-machines.md): what the sim
// charges each processor's virtual clock for a message, a poll and the
// computation between them.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace splitc::backends::sim {

struct machine_model {
  std::string_view id;
  std::string_view description;
  double send_overhead_ns;     ///< o_s: the sender's time to send one message
  double receive_overhead_ns;  ///< o_r: the receiver's time to take one and run its handler
  double latency_ns;           ///< L: injection to arrival
  double gap_ns;               ///< g: least time between two sends of one processor
  double ns_per_byte;          ///< G: per payload byte, at the sender
  std::size_t packet_bytes;    ///< largest payload of one packet of the raw layer
  double poll_ns;              ///< an empty poll
  double cpu_mhz;              ///< the node's clock (computation in deterministic mode)
};

/// Every machine of machine_models.def.
std::span<const machine_model> machine_models() noexcept;

/// The machine SPLITC_SIM_MACHINE names (`cm5` is CMAM).
const machine_model& selected_machine();

}  // namespace splitc::backends::sim
