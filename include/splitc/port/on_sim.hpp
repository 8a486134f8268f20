// For a port whose vendor layer is emulated on the sim engine (its <name>_sim
// variant, built with SPLITC_SIM_SUBSTRATE: link splitc::sim_engine): the
// members that make it a sim citizen, and its segment. On real processes a
// port maps its segment with the kit (port/segment.hpp) and has none of these.
//
//   class my_backend : public splitc::port::sim_members { ... };   // under the macro
//   segment_ = splitc::port::sim_segment();
#pragma once

#ifndef SPLITC_SIM_SUBSTRATE
#error "splitc/port/on_sim.hpp is for ports built on the sim engine (link splitc::sim_engine)"
#endif

#include <splitc/port/am.hpp>
#include <splitc/sim_engine.h>

#include <cstddef>
#include <cstdint>

namespace splitc::port {

/// PORTING.md's optional members, as the sim backend has them: one process for
/// every processor, each with its segment at its own address (has_shared_process), an idle wait that lets the others run
/// (has_idle_wait), the processor's virtual clock (has_virtual_clock).
struct sim_members {
  static constexpr bool shared_process = true;
  static void install_processor_switch(const processor_switch& hooks) {
    const splitc_sim_switch_hooks engine{hooks.save, hooks.restore, hooks.ended};
    splitc_sim_set_switch_hooks(&engine);
  }
  static segments_apart segments() {
    if (splitc_sim_in_job() == 0) return {};  // the program's own main, before the job
    void* base = nullptr;
    std::size_t stride = 0;
    splitc_sim_segment_places(&base, &stride);
    return {reinterpret_cast<std::uintptr_t>(base), stride,
            stride * static_cast<std::size_t>(splitc_sim_procs())};
  }
  /// Whole pages of this processor's segment given back, reading as zero afterwards
  /// (PORTING.md, discard_segment_pages).
  static void discard_segment_pages(void* at, std::size_t len) { splitc_sim_discard(at, len); }
  void wait_idle(am_sink, const char* what) { splitc_sim_wait(what); }
  double virtual_seconds() const noexcept { return splitc_sim_timer_ns() * 1e-9; }
};

/// The running processor's segment (each processor's at its own address: sim_engine.h).
inline segment_info sim_segment() {
  std::size_t size = 0;
  void* base = splitc_sim_segment(&size);
  return {base, size};
}

}  // namespace splitc::port
