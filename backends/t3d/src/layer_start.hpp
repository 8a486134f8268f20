// What differs between the layers the T3D port runs on, before the layer is
// started: each layer's launch source (t3d_launch.cpp on the emulation,
// backends/shmem/src/shmem_launch.cpp on OpenSHMEM) defines these.
#pragma once

#include <splitc/am.hpp>

#include <cstddef>

namespace splitc::backends::t3d {

/// Called by the constructor before start_pes: make the layer ready to give
/// `symmetric_bytes` of shmalloc space (OpenSHMEM: the heap size, the flags
/// this host needs, address randomisation off under a plain oshrun).
void prepare_layer(start_arguments args, std::size_t symmetric_bytes);

/// Has start_pes run and the layer not yet been finalised?
bool layer_is_up() noexcept;
void set_layer_up(bool up) noexcept;

}  // namespace splitc::backends::t3d
