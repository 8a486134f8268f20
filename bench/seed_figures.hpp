// The seeds' published numbers (bench/seed_figures.def) as splitc-bench looks
// them up on the sim: the figure of the selected machine for a row, with the
// seed's unit converted to the row's, so each row can be printed next to the
// number the simulator should predict (docs/sim.md, "The seed's tables in
// virtual time").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace bench {

/// A seed figure matched to a row, in the row's unit.
struct seed_match {
  double value;          ///< in the row's unit
  std::string key;       ///< the key as recorded ("barrier@p4")
  std::string citation;  ///< where it is published
};

/// The figure recorded for `machine` (a row of machine_models.def; `cm5` is
/// `cm5_cmam`) under the row name `name` at `procs` processors, converted to
/// `unit` ("ns", "us", "MB/s"). A key matches when its name is `name` and its
/// conditions hold: `@pN` when procs is N (no `@p`: 2 processors),
/// `@dataflow` always (splitc's collectives send as soon as their data is
/// there, no barrier before each; the other column of Table 10 is keyed by the
/// barrier_then_* rows). Nothing when no key matches or the units do not convert.
std::optional<seed_match> find_seed_figure(std::string_view machine, std::string_view name,
                                           int procs, std::string_view unit);

/// The machine the sim charges for (SPLITC_SIM_MACHINE, `cm5` as
/// `cm5_cmam`), or "" on a backend without a virtual clock.
std::string sim_machine_id();
/// Whether the sim charges the CPU time a processor used between messages
/// (SPLITC_SIM_TIME=measured) rather than a fixed cost per library call: only
/// then does local computation (Table 7, memcpy) take virtual time.
bool sim_charges_computation();

}  // namespace bench
