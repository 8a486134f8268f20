// The MPL calls the NXAM port makes on the SP-1 (the rest of the port is the
// NX one: ports/nxam/src/nxam_backend.cpp). MPL reports errors by -1 (or
// < -1 from mpc_status) and mperrno, which come back here and become
// splitc's error.
#pragma once

#include <mpl.h>

#include <cstddef>

namespace splitc::backends::nxam::layer {

inline constexpr const char* vendor = "mpl";
inline constexpr const char* test_call = "mpc_status";
inline constexpr const char* send_call = "mpc_send";
inline constexpr const char* send_now_call = "mpc_bsend";
inline constexpr const char* receive_call = "mpc_recv";
/// The sim engine's machine model for the _sim port (SPLITC_SIM_MACHINE
/// overrides it): the SP-1's costs (sim_engine/src/machine_models.def).
inline constexpr const char* sim_machine = "sp1";

using msg_id = long;
/// mpc_recv's source and type: selectors in, the message's values out (at completion).
struct selector {
  int source = DONTCARE;
  int type = DONTCARE;
};

inline constexpr long am_type = 1000;
inline constexpr long data_type_first = 2000;
inline constexpr long data_type_count = 1000000;

inline int self() {
  int tasks = 0, task = 0;
  mpc_environ(&tasks, &task);
  return task;
}
inline int procs() {
  int tasks = 0, task = 0;
  mpc_environ(&tasks, &task);
  return tasks;
}

inline msg_id post(void* buf, std::size_t cap, long type, int node, selector& s) {
  s.source = node;
  s.type = static_cast<int>(type);
  int id = -1;
  if (mpc_recv(static_cast<char*>(buf), static_cast<int>(cap), &s.source, &s.type, &id) < 0)
    return -1;
  return id;
}
/// -1 not yet, -2 error, else the message's length.
inline long arrived(msg_id id, selector&) {
  const int n = mpc_status(static_cast<int>(id));
  return n < -1 ? -2 : n;
}
inline msg_id send(const void* buf, std::size_t len, int node, long type) {
  int id = -1;
  if (mpc_send(static_cast<char*>(const_cast<void*>(buf)), static_cast<int>(len), node,
               static_cast<int>(type), &id) < 0)
    return -1;
  return id;
}
/// 1 done, 0 not yet, -1 error.
inline long sent(msg_id id) {
  const int n = mpc_status(static_cast<int>(id));
  return n == -1 ? 0 : n < -1 ? -1 : 1;
}
/// A blocking send (a small packet: it returns at once); < 0 on error.
inline long send_now(const void* buf, std::size_t len, int node, long type) {
  return mpc_bsend(static_cast<char*>(const_cast<void*>(buf)), static_cast<int>(len), node,
                   static_cast<int>(type));
}
/// MPL cannot cancel a receive: wait for none, leave it to the end of the job.
inline void cancel(msg_id) {}

inline const char* error_text() {
  switch (mperrno) {
    case MPE_TRUNC: return "MPE_TRUNC: the message is longer than the receive";
    case MPE_TYPE: return "MPE_TYPE: message type out of range";
    case MPE_MSGID: return "MPE_MSGID: not a message id in use";
    case MPE_TASK: return "MPE_TASK: task number out of range";
    case MPE_LEN: return "MPE_LEN: negative length";
    case MPE_GROUP: return "MPE_GROUP: not a group";
    default: return "unknown error";
  }
}

}  // namespace splitc::backends::nxam::layer
