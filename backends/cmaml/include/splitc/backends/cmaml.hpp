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
  static void barrier();
  static int self();
  static int nodes();
  static void enroll(int node);
  static void set_error_hook(void (*hook)(const char*));
};

using cmaml_backend = cm5_backend<cmaml_layer>;

}  // namespace splitc::backends::cm5
