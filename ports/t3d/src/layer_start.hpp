// What differs between the layers the T3D port runs on, around the layer's
// start: each layer's launch source (t3d_launch.cpp on the emulation's
// processes, t3d_sim_layer.cpp on its sim variant,
// src/shmem_launch.cpp on OpenSHMEM) defines these.
#pragma once

#include <splitc/port/am.hpp>

#include <cstddef>

namespace splitc::backends::t3d {

/// Symmetric space beyond the segment, for the mailboxes (about 70 KB per PE).
inline constexpr std::size_t mailbox_reserve = std::size_t{64} << 20;

/// Called by the constructor before start_pes: make the layer ready to give
/// `symmetric_bytes` of shmalloc space (OpenSHMEM: the heap size, the flags
/// this host needs, address randomisation off under a plain oshrun).
void prepare_layer(start_arguments args, std::size_t symmetric_bytes);

/// After start_pes: how many bytes of the symmetric space the segment may
/// take, when it wants `wanted` and the mailboxes need `mailbox_bytes`.
std::size_t segment_bytes(std::size_t wanted, std::size_t mailbox_bytes);

/// Has start_pes run and the layer not yet been finalised? (The port's own state,
/// in t3d_backend.cpp; the same on every layer.)
bool layer_is_up() noexcept;

}  // namespace splitc::backends::t3d
