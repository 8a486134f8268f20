// The NX calls the NXAM port makes (the rest of the port is the same for MPL:
// ports/nxam/src/nxam_backend.cpp). Underscore forms, so that an error
// comes back here (-1 and errno) and becomes splitc's error.
#pragma once

#include <nx.h>

#include <cerrno>
#include <cstddef>

namespace splitc::backends::nxam::layer {

inline constexpr const char* vendor = "nx";
inline constexpr const char* test_call = "msgdone";
inline constexpr const char* send_call = "isend";
inline constexpr const char* send_now_call = "csend";
inline constexpr const char* receive_call = "irecvx";
/// The sim engine's machine model for the _sim port (SPLITC_SIM_MACHINE
/// overrides it): the Paragon's costs (sim_engine/src/machine_models.def).
inline constexpr const char* sim_machine = "paragon";

using msg_id = long;
/// What a posted receive needs besides its buffer: irecvx's info array, which
/// NX fills when the message arrives (its length is then at INFO_COUNT, with
/// no infocount() call after the msgdone).
struct selector {
  long info[NX_INFO_LENGTH] = {};
};

/// NXAM's message types: one for every packet, and a range for the data of
/// long messages (a per-destination counter; received with the sender's
/// node as selector, so two senders may use the same number).
inline constexpr long am_type = 1000;
inline constexpr long data_type_first = 2000;
inline constexpr long data_type_count = 1000000;

inline int self() { return static_cast<int>(mynode()); }
inline int procs() { return static_cast<int>(numnodes()); }

/// A receive of `type` from `node` (-1: any) into buf; < 0 on error.
inline msg_id post(void* buf, std::size_t cap, long type, int node, selector& s) {
  return _irecvx(type, static_cast<char*>(buf), static_cast<long>(cap), node, -1, s.info);
}
/// -1 not yet, -2 error, else the message's length.
inline long arrived(msg_id id, const selector& s) {
  const long done = _msgdone(id);
  if (done == 0) return -1;
  if (done < 0) return -2;
  return s.info[INFO_COUNT];
}
inline msg_id send(const void* buf, std::size_t len, int node, long type) {
  return _isend(type, static_cast<char*>(const_cast<void*>(buf)), static_cast<long>(len), node, 0);
}
/// 1 done, 0 not yet, -1 error.
inline long sent(msg_id id) { return _msgdone(id); }
/// A blocking send (a small packet: it returns at once); < 0 on error.
inline long send_now(const void* buf, std::size_t len, int node, long type) {
  return _csend(type, static_cast<char*>(const_cast<void*>(buf)), static_cast<long>(len), node, 0);
}
inline void cancel(msg_id id) { _msgcancel(id); }

/// The text of the layer's last error (errno of an underscore call).
inline const char* error_text() {
  switch (errno) {
    case EQMSGLONG: return "EQMSGLONG: the message is longer than the receive";
    case EQTYPE: return "EQTYPE: message type or type selector out of range";
    case EQMID: return "EQMID: not a message id in use";
    case EQNODE: return "EQNODE: node number out of range";
    case EQCOUNT: return "EQCOUNT: negative count";
    case EQPTYPE: return "EQPTYPE: process type is not this application's";
    default: return "unknown error";
  }
}

}  // namespace splitc::backends::nxam::layer
