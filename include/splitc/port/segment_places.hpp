// Porting kit: one place in every processor's segment. Where processors share one process
// (the sim engine's), each processor's segment has its own address and one place of the
// spread heap is at one offset in each (docs/sim.md, "P segments, P addresses"); the core's
// global pointers hold the copy on their processor. A port whose layer names a peer's memory
// by this processor's symmetric address (T3D SHMEM), or computes a place at a peer from its
// own copy (HPAM's staging buffers), moves the address with same_place_on. Everywhere else the
// copies are one address and this is the identity (compiled away).
#pragma once

#include <splitc/c_context.h>
#include <splitc/port/am.hpp>

namespace splitc::port {

/// `addr` moved to the same place in processor p's segment (itself outside the segments).
inline void* same_place_on(proc_t p, const void* addr) noexcept { return splitc_placed_(p, addr); }

}  // namespace splitc::port
