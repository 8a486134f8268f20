// The cmaml backend: splitc on the CM-5's CMAML (emulations/cm5, cmaml.h), as
// the seed's second CM-5 port. The port itself is cm5_port.hpp; this names
// the layer's calls it uses (defined in src/cmaml_backend.cpp against
// cmaml.h and cmmd.h only).
#pragma once

#include <splitc/backends/cm5_port.hpp>

namespace splitc::backends::cm5 {

struct cmaml_layer {
#ifdef SPLITC_SIM_SUBSTRATE
  static constexpr const char* name = "cmaml_sim";
#else
  static constexpr const char* name = "cmaml";
#endif
  /// One landing area (a receive port) per long message: 256 KiB.
  static constexpr std::size_t max_long = 256 * 1024;
  static void request(int node, layer_handler h, long a0, long a1, long a2, long a3);
  static void reply(int node, layer_handler h, long a0, long a1, long a2, long a3);
  static int poll();
  static void poll_while_lt(volatile int* flag, int value);
  static int open_landing(void* addr, int nbytes, void* record);
  static void close_landing(int port);
  static void send_to_landing(int node, int port, int offset, const void* src, int nbytes);
  /// Every collective on the control network (the seed's CMAML port):
  /// CMMD_sync_with_nodes, CMMD_reduce_*, CMMD_scan_*, CMMD_bc_to_nodes.
  static void barrier();
  static constexpr bool control_reductions = true;
  static constexpr std::size_t control_broadcast_bytes = 64;
  /// What CMMD combines: its 32-bit and floating types in one operation, 64-bit
  /// integers in several (sums as four 16-bit limbs, bitwise as two halves,
  /// max / min as the high halves then the low ones -- reductions only).
  static constexpr bool control_reduces(native_collective what, native_element e,
                                        native_op op) noexcept {
    switch (e) {
      case native_element::int32:
      case native_element::uint32: return true;
      case native_element::float32:
      case native_element::float64:
        return op == native_op::add || op == native_op::max || op == native_op::min;
      case native_element::int64:
      case native_element::uint64:
        return op == native_op::add || op == native_op::bit_or || op == native_op::bit_and ||
               op == native_op::bit_xor || what == native_collective::reduce_to_all;
    }
    return false;
  }
  static am_word control_combine(native_collective what, native_element e, native_op op,
                                 am_word value);
  static void control_broadcast(void* data, int len, bool is_root);
  static int self();
  static int nodes();
  static void enroll(int node);
  static void set_error_hook(void (*hook)(const char*));
};

using cmaml_backend = cm5_backend<cmaml_layer>;

}  // namespace splitc::backends::cm5
