// The point-to-point engine of splitc's MPI: the MPICH-on-T3D protocols (Brightwell 1996,
// layers/mpi/README.md) on splitc's active messages. Per processor (splitc::per_processor, so
// that it also runs on the sim, whose processors share statics):
//   - a sender holds K credits per receiver (the seed's one receive slot per pair: K = 1; the
//     default K = 16 lets several messages be in flight); a send without a credit waits in
//     the pending queue, in order, and goes out from the engine's progress;
//   - short messages (up to short_max bytes: 4 KiB by default, 256 on the seed's T3D) travel
//     with their header in one medium active message, whose handler is the "status written
//     last": it copies the data into the posted receive, or into the unexpected queue, and
//     returns the credit;
//   - long messages send the header first; the receiver grants a target (the user's buffer
//     when the receive is posted, else an eager temporary up to unexpected_cap bytes in all,
//     beyond which the grant waits for the receive: a rendezvous), and the sender pushes the
//     data in long active messages: from the loop of the layer's wait it is in, or else from
//     the grant's handler, so that a sender busy elsewhere (in a barrier) still delivers;
//   - every packet carries a per-pair sequence number, and the receiver handles a pair's
//     packets in that order, whatever order the backend delivered them in (udp, the sim and the
//     CM-5 ports do not keep it): MPI's non-overtaking rule;
//   - synchronous sends complete when the receive matches (an acknowledgement).
#pragma once

#include <smpi/mpi.h>

#include "landing.hpp"
#include "recycled.hpp"

#include <splitc/wait.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <vector>

namespace splitc::mpi {

enum class send_mode : std::uint8_t { standard, sync, ready };

struct incoming;

/// A send or a receive (an MPI_Request points at one).
struct request : recycled<request> {
  bool is_send = false;
  bool persistent = false;
  bool active = false;    ///< started and not yet completed by a wait or test
  bool complete = false;  ///< the operation is done (a wait may return)
  bool freed = false;     ///< MPI_Request_free called while active: delete on completion
  send_mode mode = send_mode::standard;
  int context = 0;
  int peer = 0;  ///< world rank: destination, source or MPI_ANY_SOURCE / MPI_PROC_NULL
  int tag = 0;
  const void* send_buffer = nullptr;
  void* receive_buffer = nullptr;
  std::size_t bytes = 0;  ///< send: the length; receive: the capacity
  // Sends: what is still awaited.
  bool awaiting_grant = false;
  bool awaiting_ack = false;
  // Receives: the matched message whose data is still arriving.
  incoming* matched = nullptr;
  MPI_Status status{};
  /// For a non-contiguous datatype: the packed bytes and how to unpack them (calls.cpp).
  std::vector<char> packed;
  void* unpack_to = nullptr;  ///< a receive of a non-contiguous datatype: the user's buffer
  const void* pack_from = nullptr;  ///< a send of one: the user's buffer (packed at each start)
  MPI_Datatype type = MPI_BYTE;
  int count = 0;
  MPI_Comm comm = MPI_COMM_WORLD;
};

/// A message as the receiver knows it: matched at once, or waiting in the unexpected queue.
struct incoming : recycled<incoming> {
  int context = 0;
  int source = 0;  ///< world rank
  int tag = 0;
  send_mode mode = send_mode::standard;
  std::uint64_t sender_request = 0;
  std::size_t length = 0;
  bool is_long = false;
  bool granted = false;
  std::size_t granted_bytes = 0;
  std::size_t arrived = 0;         ///< long: bytes pushed so far
  bool data_complete = false;
  landing_buffer temp;             ///< short data or an eager long grant's target
  /// Short data of at most sizeof(small) bytes, held here instead of in temp (no allocation).
  char small[64];
  /// Where a short message's data is held.
  char* short_data() noexcept { return temp ? temp.get() : small; }
  request* receive = nullptr;      ///< the receive it matched (null while unexpected)
};

/// Settings (layers/mpi/README.md): settings_from_environment gives them, defaults included;
/// the seed's are short_max = 256 and credits = 1.
struct settings {
  std::size_t short_max;
  int credits;
  std::size_t unexpected_cap;
};

/// The settings from the environment (SPLITC_SMPI_SHORT_MAX, _SLOTS, _UNEXPECTED_MAX); a
/// value out of range ends the job, naming it.
settings settings_from_environment();

/// Start the engine (collective: registers the handlers) and end it.
void start_engine(const settings& s);
void stop_engine();

/// Post a send or a receive; complete them in wait/test. A request to or from MPI_PROC_NULL
/// completes at once.
void start_send(request& r);
void start_receive(request& r);

/// Run the engine once: poll (handlers run), then send what waits for credits.
void progress();
/// What every wait of the layer does between polls: push the granted long sends' data from
/// the main line, send what waited for credits. Inside one of the layer's waits (between
/// enter_wait and leave_wait) a grant's handler leaves its data to this.
void move_queued_sends();
void enter_wait() noexcept;
void leave_wait() noexcept;

/// Wait, polling, until done() is true, moving the layer's queued sends meanwhile. Every wait
/// of the layer is one of these (a template: the predicate is inlined into splitc's loop).
template <class Done>
void wait_in_layer(const char* what, Done done) {
  enter_wait();
  splitc::wait_until(what, [&] {
    move_queued_sends();
    return done();
  });
  leave_wait();
}
/// Wait until `r` is complete (running the engine), naming `what` in a deadlock report.
void wait_for(request& r, const char* what);
/// Wait until every send of this processor has left its pending queue (before a collective,
/// which runs no MPI progress while it waits).
void drain_pending_sends();

/// Wait until every packet this processor sent has been handled by its receiver (every credit
/// back): MPI_Finalize, before its barrier, so that no reply of the engine is still in flight
/// when the engine stops.
void quiesce();

/// Probe: the first unexpected message that matches, or null (non-blocking).
const incoming* probe(int context, int source, int tag);

/// Fill `status` for a completed receive.
void finish_status(const request& r, MPI_Status* status);

}  // namespace splitc::mpi
