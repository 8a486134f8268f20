// The per-process runtime context. All runtime state hangs off one object
// reached through one pointer (detail::current), so a later backend can run
// many virtual processors in one OS process by switching that pointer, and
// tests can build contexts in isolation. The core holds no other mutable
// globals.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/backend.hpp>
#include <splitc/c_context.h>
#include <splitc/detail/compose.hpp>
#include <splitc/counter.hpp>
#include <splitc/detail/mailbox.hpp>
#include <splitc/detail/range_allocator.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace splitc::port {
class watchdog;  // include/splitc/port/watchdog.hpp
}  // namespace splitc::port

namespace splitc {

/// A handler as the core registers it. It runs inside poll, must not block,
/// and may send at most one reply (and only from a request handler).
using handler_fn = void (*)(const am_message& message);

namespace detail {

struct split_phase_queue;  // src/split_phase.cpp

/// A message the backend had no room for; retried from the progress engine.
struct pending_message {
  am_kind kind;
  bool is_reply;
  proc_t destination;
  handler_id handler;
  int nargs;
  am_word args[am_max_args];
  std::vector<std::byte> payload;  ///< a copy of the data, unless it is lent
  void* destination_address;
  am_message token;  ///< for replies: the request's token (args/payload cleared)
  /// A lent source (a get's reply: the owner's memory, unmodified until the get completes):
  /// the data is read from there when the message goes, and `source_free` is counted down
  /// then, instead of a copy of up to a long message's bytes made now.
  const void* lent_source = nullptr;
  std::size_t lent_bytes = 0;
  counter* source_free = nullptr;

  const void* data() const noexcept { return lent_source != nullptr ? lent_source : payload.data(); }
  std::size_t bytes() const noexcept { return lent_source != nullptr ? lent_bytes : payload.size(); }
};

/// What the handler currently running may do.
struct handler_frame {
  bool active = false;
  bool is_request = false;
  bool replied = false;
  handler_id handler{};
  proc_t source = 0;
};

/// Shared runtime state at the start of every processor's segment (the same
/// address everywhere, so peers can reach it) -- the runtime part's first
/// bytes, which the collectives' mailboxes follow (see context::shared).
struct segment_header {
  counter store_received;  ///< library store counter: bytes received
  std::uint64_t reserved_[7];
};

/// Unmaps a private runtime part (context::shared).
struct private_part_deleter {
  std::size_t bytes = 0;
  void operator()(unsigned char* p) const noexcept;
};

/// MYPROC, PROCS and the library store counters live in the C-visible
/// prefix (c_context.h) so the C interface can inline the local fast path.
struct context : splitc_context_prefix {
  explicit context(start_arguments args);

  active_backend backend;

  counter get_put;             ///< library counter: gets and puts in flight
  counter store_sent_bytes;    ///< library counter: bytes of stores issued
  counter sources_lent;        ///< zero-copy replies whose source the backend still reads
  /// The runtime part: store_received, then the collectives' mailboxes. At
  /// the start of the segment; on a backend whose processors share one process
  /// (has_shared_process: the sim) in this processor's private memory instead,
  /// so that the sim's segment window is touched only by the program's own
  /// accesses (docs/sim.md, "One address, P segments"). Messages name its
  /// parts by offset or by role, never by address, so both placements work.
  segment_header* shared;
  std::unique_ptr<unsigned char, private_part_deleter> private_runtime_part;

  std::vector<handler_fn> handlers;
  handler_frame frame;
  std::deque<pending_message> pending;
  mailbox_state mail;          ///< channels of the collectives
  /// Collectives on the layer's own network this processor has passed (native_collectives.hpp):
  /// finalize's signature carries the count, so that a processor waiting in one sees a
  /// processor that skipped it and reached finalize.
  std::uint64_t native_collectives_passed = 0;
  /// Split-phase collectives (detail/split_phase.hpp): how many are in flight, those
  /// collectives themselves (src/split_phase.cpp), and -- while one of them runs -- how it
  /// gives the processor back when it must wait (wait_until calls it instead of waiting).
  int split_phase_in_flight = 0;
  std::uint64_t mailbox_traffic = 0;  ///< messages sent and consumed on any channels (a count)
  std::size_t staging_bytes = 0;      ///< the channels' staging buffers, all sets (mailbox.hpp)
  split_phase_queue* split_phase = nullptr;
  void (*collective_yield)(context&) = nullptr;
  /// Groups of processors sharing memory (has_host_members): this processor's group and every
  /// group's first processor, by processor; the barrier is hierarchical when there are fewer
  /// groups than processors (set by init).
  std::vector<proc_t> host_group;
  std::vector<proc_t> group_leaders;
  int leader_index = -1;  ///< this processor's place in group_leaders, if it leads its group
  bool hierarchical = false;
  /// SPLITC_BROADCAST_CHECK=before_return: every broadcast agrees on its root before anyone
  /// returns (agreed_broadcast), rather than checking later (set by init).
  bool broadcast_agreed = false;
  compose_state composed;      ///< composed messages being reassembled (detail/compose.hpp)
  std::size_t reserved_bytes;  ///< the segment's first bytes, kept for the runtime part
  range_allocator symmetric_heap;  ///< job-wide spread heap (used on processor 0)
  range_allocator private_heap;    ///< this processor's global_malloc space
  std::vector<unsigned char> procedure_result;  ///< an atomic procedure's result, at the owner
  std::uint64_t c_atomic_return = 0;  ///< set by atomic_return_i/_d inside a C atomic procedure
  /// The liveness watchdog (jobs of two or more; src/port/watchdog.cpp).
  std::unique_ptr<port::watchdog> watchdog;

  /// What the backend's poll delivers through. Kept built: made afresh on the
  /// stack at every poll, the 24-byte struct went to the poll in memory by a
  /// 16-byte load of two 8-byte stores just made -- a store-forwarding stall
  /// in every poll (docs/performance.md, "The poll's sink").
  am_sink sink() const noexcept { return sink_; }
  /// A handler at the end of the table (register_handler); the sink follows.
  void add_handler(handler_fn fn) {
    handlers.push_back(fn);
    refresh_sink();
  }
  static void deliver(void* self, const am_message& message);

 private:
  /// The sink again, for the table's new size: only the constructor and
  /// add_handler change it.
  void refresh_sink() noexcept { sink_ = {this, &context::deliver, handlers.size()}; }
  am_sink sink_{};
};

[[gnu::cold, noreturn]] void not_initialized();
/// A splitc call from a thread other than the one that called init (threads model: FUNNELED).
[[gnu::cold, noreturn]] void called_from_another_thread();
void exit_without_finalize(int status, void*);  ///< on_exit check (src/runtime.cpp)

/// The one pointer through which the core reaches its state.
inline context& ctx() noexcept {
  if (splitc_current_context == nullptr) [[unlikely]] not_initialized();
  return static_cast<context&>(*splitc_current_context);
}
/// For handlers, which only run inside an initialized runtime.
inline context& running() noexcept { return static_cast<context&>(*splitc_current_context); }

}  // namespace detail
}  // namespace splitc
