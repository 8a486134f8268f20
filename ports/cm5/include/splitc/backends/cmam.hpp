// The cmam backend: splitc on Berkeley's CMAM (emulations/cm5, cmam.h), the
// seed's first CM-5 port. The port is the CM-5 port template shared with
// cmaml (ports/cm5/include/splitc/backends/cm5_port.hpp); this names
// CMAM's calls (src/cmam_backend.cpp, against cmam.h and cmmd.h only): long
// messages through segments opened by a round trip (Luna 1994 §4.2.1).
#pragma once

#include <splitc/backends/cm5_port.hpp>

namespace splitc::backends::cm5 {

struct cmam_layer {
#ifdef SPLITC_SIM_SUBSTRATE
  static constexpr const char* name = "cmam_sim";
#else
  static constexpr const char* name = "cmam";
#endif
  /// One segment per long message: 256 KiB.
  static constexpr std::size_t max_long = 256 * 1024;
  static void request(int node, layer_handler h, long a0, long a1, long a2, long a3);
  static void reply(int node, layer_handler h, long a0, long a1, long a2, long a3);
  static int poll();
  static void poll_while_lt(volatile int* flag, int value);
  static int open_landing(void* addr, int nbytes, void* record);
  static void close_landing(int port);
  static void send_to_landing(int node, int port, int offset, const void* src, int nbytes);
  /// The barrier on the control network (native_barrier); broadcast, reduce
  /// and scan stay on the core's trees, flow-controlled by their mailboxes
  /// (the seed's CMAM port ran them as store trees, §4.3.1).
  static void barrier();
  static constexpr bool control_reductions = false;
  static constexpr std::size_t control_broadcast_bytes = 0;
  static int self();
  static int nodes();
  static void enroll(int node);
  static void set_error_hook(void (*hook)(const char*));
};

using cmam_backend = cm5_backend<cmam_layer>;

}  // namespace splitc::backends::cm5
