// The sim backend: the P processors of a job as fibers in one OS process,
// in virtual time (docs/sim.md).
//
// Every processor has its own runtime context (the core switches
// splitc_current_context with the running fiber) and its own clock. A
// message costs its sender and receiver the overheads of the chosen
// machine's LogGP model (SPLITC_SIM_MACHINE, docs/sim-machines.md) and
// arrives a latency later; a seeded scheduler runs the processors in virtual
// time order, so a seed in deterministic mode replays a run exactly.
//
// Every processor's segment has its own address for the whole job (segments(): processor p's
// at base + p × stride, sim_engine/include/splitc/sim_engine/segment_arena.hpp), so a switch
// maps nothing; a global pointer names its processor's copy of a place, the same offset in
// every segment (c_context.h). Peers' segments
// are reached only by messages (no direct access), so every remote access
// is charged. Statics are shared by all processors of the process:
// splitc::per_processor keeps a value per processor.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/port/am_forwarding.hpp>
#include <splitc/port/on_sim.hpp>

#include <cstddef>

namespace splitc::backends::sim {

class world;  // sim_engine/include/splitc/sim_engine/world.hpp

/// port::sim_members: one process for every processor (the core's state switched with the
/// running fiber), where their segments lie, the idle wait and the virtual clock -- what every
/// port on the engine has.
class sim_backend : public port::am_forwarding<sim_backend>, public port::sim_members {
 public:
  friend class port::am_forwarding<sim_backend>;
  static constexpr const char* name = "sim";
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = 64 * 1024,
      .max_long = 1024 * 1024,
      .ordered = false,  // fault injection (SPLITC_SIM_REORDER) reorders
      .direct_access = false,
  };

  /// In a processor's fiber: that processor's place. Outside any fiber (the
  /// program's own main calling init): runs the whole job of SPLITC_PROCS
  /// processors, each calling main again, and exits with its status.
  explicit sim_backend(start_arguments args);
  sim_backend(const sim_backend&) = delete;
  sim_backend& operator=(const sim_backend&) = delete;

  proc_t myproc() const noexcept { return myproc_; }
  proc_t procs() const noexcept { return procs_; }

  // request_/reply_ short, medium, long: port::am_forwarding, from send.

  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);

  segment_info segment() const noexcept { return segment_; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code);

 private:
  am_status send(proc_t to, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst);

  world* world_;
  proc_t myproc_ = 0;
  proc_t procs_ = 1;
  segment_info segment_{};
};

}  // namespace splitc::backends::sim
