// Starting the t3d_sim backend (the T3D port on the T3D SHMEM emulation's
// sim variant, emulations/t3d/src/wire_sim.c): the symmetric heap is the
// engine's segment, so the splitc segment takes what the mailboxes leave of
// it. Launching is the engine's (SPLITC_SIM_LAUNCH_SOURCE). The idle wait is
// the engine's too: it sleeps until a put lands in this processor's memory.
#include <splitc/backends/t3d.hpp>
#include <splitc/sim_engine.h>

#include <algorithm>

#include "layer_start.hpp"

namespace splitc::backends::t3d {

void prepare_layer(start_arguments, std::size_t) {}

std::size_t segment_bytes(std::size_t wanted, std::size_t mailbox_bytes) {
  std::size_t heap = 0;
  splitc_sim_segment(&heap);
  constexpr std::size_t granule = std::size_t{64} << 10, slack = std::size_t{1} << 20;
  const std::size_t room = heap > mailbox_bytes + slack ? (heap - mailbox_bytes - slack) / granule * granule : 0;
  return std::min(wanted, room);
}

void t3d_backend::layer_wait(const char* what) { splitc_sim_wait(what); }

}  // namespace backends::t3d
