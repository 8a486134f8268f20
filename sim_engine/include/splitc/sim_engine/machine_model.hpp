// The LogGP cost model of one machine (docs/sim-machines.md): what the sim
// charges each processor's virtual clock for a message, a poll and the
// computation between them. A built-in machine (machine_models.def) costs
// every message alike; a model file (SPLITC_SIM_MACHINE=<path>,
// machine_model_file.cpp) may cost each kind of message and each range of
// sizes differently, and give the machine collective hardware.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace splitc::backends::sim {

/// The costs of one message (docs/sim-machines.md, "The model as the simulator charges it").
struct loggp {
  double send_overhead_ns;     ///< o_s: the sender's time to send one message
  double receive_overhead_ns;  ///< o_r: the receiver's time to take one and run its handler
  double latency_ns;           ///< L: injection to arrival
  double gap_ns;               ///< g: least time between two sends of one processor
  double ns_per_byte;          ///< G: per payload byte, at the sender
};

/// What the wire carries: the sim backend's active messages, an emulated
/// layer's raw packets, and the one-sided puts and gets (sim_engine.h).
enum class message_kind { active, packet, put, get };
inline constexpr std::size_t message_kinds = 4;
inline constexpr std::array<std::string_view, message_kinds> message_kind_names{"active", "packet",
                                                                              "put", "get"};

/// The costs of messages of `from_bytes` payload bytes and more (up to the next class's).
struct size_class {
  std::size_t from_bytes;
  loggp costs;
};

/// Operations of a machine's collective hardware (the CM-5's control network,
/// the T3D's barrier wire) that a model may cost.
inline constexpr std::array<std::string_view, 4> collective_operations{"barrier", "broadcast",
                                                                       "reduce", "scan"};

struct machine_model {
  std::string id;
  std::string description;
  /// Per message kind, size classes in increasing from_bytes, the first from 0.
  std::array<std::vector<size_class>, message_kinds> classes;
  std::size_t packet_bytes = 65536;  ///< largest payload of one packet of the raw layer
  double poll_ns = 0;                ///< an empty poll
  double cpu_mhz = 0;                ///< the node's clock (computation in deterministic mode)
  /// Cost of each collective_operations entry on the machine's collective
  /// hardware, where the model gives one (a layer with such hardware uses its own otherwise).
  std::array<std::optional<double>, collective_operations.size()> collective_ns{};

  /// The costs of one message of `kind` carrying `bytes` of payload.
  const loggp& costs(message_kind kind, std::size_t bytes) const noexcept;
  /// The least latency of any message: how far a processor may run ahead of the others.
  double least_latency_ns() const noexcept;
  /// The latency of the smallest active message: the scale of the fault injection's delays.
  double base_latency_ns() const noexcept { return costs(message_kind::active, 0).latency_ns; }
};

/// A built-in machine: the same costs for every kind and size of message.
machine_model uniform_machine(std::string_view id, std::string_view description, const loggp& costs,
                              std::size_t packet_bytes, double poll_ns, double cpu_mhz);

/// The ids of the built-in machines (machine_models.def), in table order.
std::vector<std::string_view> builtin_machine_ids();

/// The machine a model file describes (docs/sim-machines.md, "A machine of
/// your own"); a file that cannot be read or does not follow the format ends
/// the job with a message naming the file, the place and the cause.
machine_model read_machine_model_file(const std::string& path);

/// The machine SPLITC_SIM_MACHINE names: a built-in one (`cm5` is CMAM) or,
/// for a value with a '/', the model file at that path.
const machine_model& selected_machine();

}  // namespace splitc::backends::sim
