// The porting boundary: the small active-message interface every backend
// implements. Everything above it (global memory, bulk transfer, counters,
// collectives, the heap, atomics) is written once in the core on top of these
// operations. A backend states what it can do in a constexpr `capabilities`
// record; the core asks for optional fast paths (direct load/store into a
// peer's segment) through that record, never by copying core code.
//
// Read PORTING.md before implementing a backend.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace splitc {

/// A processor number: 0 <= p < PROCS.
using proc_t = int;

/// One argument word of an active message (wide enough for a pointer).
using am_word = std::uint64_t;

/// The core never sends more argument words than this; a backend must accept
/// at least `capabilities::max_args` of them (>= 8).
inline constexpr int am_max_args = 8;

/// Handlers are named by their index in the per-process handler registry,
/// which every process fills in the same order. Raw function addresses never
/// cross the wire: address-space layout randomisation would break them.
enum class handler_id : std::uint16_t {};

/// Result of an attempt to send. A backend never blocks forever inside a send:
/// when it has no room it says `no_resource` and the core queues the message
/// and retries from its progress engine.
enum class am_status : std::uint8_t { ok, no_resource };

/// The three forms of active message.
enum class am_kind : std::uint8_t {
  short_msg,   ///< argument words only
  medium_msg,  ///< arguments + payload copied into a buffer the handler sees
  long_msg,    ///< arguments + payload deposited at an address the sender names
};

/// What a backend can do; every backend defines `static constexpr capabilities caps`.
struct capabilities {
  int max_args;                 ///< argument words per message (>= 8)
  std::size_t max_medium;       ///< largest medium payload in bytes
  std::size_t max_long;         ///< largest long payload in one message
  bool ordered;                 ///< messages between a pair arrive in send order
  bool reliable;                ///< the layer itself never loses messages
  bool direct_access;           ///< peers' segments reachable by load/store
  bool native_barrier;          ///< bootstrap_barrier is fast enough for barrier()
  bool separate_reply_network;  ///< replies cannot be blocked by requests
};

/// An incoming message as a handler sees it. It doubles as the reply token:
/// a request handler replies by passing it back to the backend's reply calls.
struct am_message {
  proc_t source;          ///< the sending processor
  handler_id handler;     ///< which handler runs
  am_kind kind;
  bool is_request;        ///< false inside a reply handler
  int nargs;
  const am_word* args;
  void* payload;          ///< medium: a buffer valid during the handler; long: where the data was put
  std::size_t length;     ///< payload bytes
};

/// Where a backend delivers messages: the core's dispatcher, a plain function
/// pointer plus context (no virtual call, no allocation).
struct am_sink {
  void* context;
  void (*deliver)(void* context, const am_message& message);
};

/// The memory a processor exposes for direct access and the spread heap: it
/// starts at the same virtual address on every processor.
struct segment_info {
  void* base;
  std::size_t size;
};

/// How a process learns its place in the job. Each backend fills it from its
/// launcher's environment.
struct start_arguments {
  int* argc;
  char*** argv;
};

/// The contract. Each backend ends with `static_assert(splitc::backend<X>)`.
template <class B>
concept backend = requires(B& b, const B& cb, proc_t p, handler_id h, const am_word* args,
                           int nargs, const void* src, std::size_t len, void* dst,
                           const am_message& token, am_sink sink, void* out,
                           const void* local, int code) {
  // Capabilities, known at compile time.
  { B::caps } -> std::convertible_to<capabilities>;
  // A short human-readable name ("smp", "udp", ...) for messages and reports.
  { B::name } -> std::convertible_to<const char*>;

  // Process identity.
  { cb.myproc() } noexcept -> std::same_as<proc_t>;
  { cb.procs() } noexcept -> std::same_as<proc_t>;

  // Requests, in three forms.
  { b.request_short(p, h, args, nargs) } -> std::same_as<am_status>;
  { b.request_medium(p, h, args, nargs, src, len) } -> std::same_as<am_status>;
  { b.request_long(p, h, args, nargs, src, len, dst) } -> std::same_as<am_status>;

  // Replies, addressed by the request's token (only from a request handler).
  { b.reply_short(token, h, args, nargs) } -> std::same_as<am_status>;
  { b.reply_medium(token, h, args, nargs, src, len) } -> std::same_as<am_status>;
  { b.reply_long(token, h, args, nargs, src, len, dst) } -> std::same_as<am_status>;

  // Progress: deliver what has arrived; returns how many messages ran.
  // Reliability work (retransmission, acknowledgements) happens here too.
  { b.poll(sink) } -> std::same_as<int>;

  // Bootstrap: every process contributes `len` bytes; `out` receives
  // procs()*len bytes in processor order. Collective, and it polls while it waits.
  { b.bootstrap_exchange(src, len, out, sink) } -> std::same_as<void>;
  { b.bootstrap_barrier(sink) } -> std::same_as<void>;

  // The symmetric segment (spread heap) of this process.
  { cb.segment() } noexcept -> std::same_as<segment_info>;

  // Direct access: the address at which this process can load/store the
  // object that lives at `local` on processor p, or nullptr when there is no
  // such path (always nullptr when caps.direct_access is false).
  { cb.direct_address(p, local) } noexcept -> std::same_as<void*>;

  // Leave the job: `code` is this process's exit status.
  { b.finish(code) } -> std::same_as<void>;
};

}  // namespace splitc
