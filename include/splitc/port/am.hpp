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
#include <span>

#include <splitc/counter.hpp>

namespace splitc {

/// A processor number: 0 <= p < PROCS.
using proc_t = int;

/// One argument word of an active message (wide enough for a pointer).
using am_word = std::uint64_t;

/// The argument words the core's own messages and programs' am_request use at
/// most. A backend may carry fewer (caps.max_args >= am_min_args): the core
/// then sends what does not fit as a composed message (detail/compose.hpp).
inline constexpr int am_max_args = 8;
/// The fewest argument words a backend may carry: the CM-5's packet (a
/// handler plus four words), on which get, put and store of a word fit in one
/// packet as in the seed's Figure 2.
inline constexpr int am_min_args = 4;

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
/// The core reads every field.
struct capabilities {
  int max_args;            ///< argument words per message, am_min_args..am_max_args
  std::size_t max_medium;  ///< largest medium payload in bytes; 0: no medium messages
  std::size_t max_long;    ///< largest long payload in one message; 0: no long messages
  bool ordered;            ///< messages between a pair arrive in send order (the core never
                           ///< relies on it; the conformance suite checks what is declared)
  bool direct_access;      ///< peers' segments reachable by load/store (direct_address)
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
  /// Handlers registered so far (ids 0..handler_count-1): a backend that checks
  /// incoming packets before delivery may reject a message naming another.
  std::size_t handler_count;
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

/// The contract: the mandatory members. Each backend ends with
/// `static_assert(splitc::backend<X>)`. Everything else is optional (below): the
/// core detects it at compile time and otherwise uses its own reference
/// implementation on short messages.
template <class B>
concept backend = requires(B& b, const B& cb, proc_t p, handler_id h, const am_word* args,
                           int nargs, const am_message& token, am_sink sink, const void* local,
                           int code) {
  // Capabilities, known at compile time.
  { B::caps } -> std::convertible_to<capabilities>;
  // A short human-readable name ("smp", "udp", ...) for messages and reports.
  { B::name } -> std::convertible_to<const char*>;

  // Process identity.
  { cb.myproc() } noexcept -> std::same_as<proc_t>;
  { cb.procs() } noexcept -> std::same_as<proc_t>;

  // Short messages: a handler and up to caps.max_args argument words.
  { b.request_short(p, h, args, nargs) } -> std::same_as<am_status>;
  // A reply, addressed by the request's token (only from a request handler).
  { b.reply_short(token, h, args, nargs) } -> std::same_as<am_status>;

  // Progress: deliver what has arrived; returns how many messages ran.
  // Reliability work (retransmission, acknowledgements) happens here too.
  { b.poll(sink) } -> std::same_as<int>;

  // A barrier of the whole job that polls while it waits (start-up, finalize).
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

// ---- optional members ---------------------------------------------------------
// A backend defines the ones its layer does well; the core uses each where it
// is present and otherwise falls back to its reference implementation.

/// Medium messages (caps.max_medium > 0): arguments plus a payload copied into a
/// buffer the handler sees. When `ok` is returned the backend is done with src.
template <class B>
concept has_medium_messages = requires(B& b, proc_t p, handler_id h, const am_word* args,
                                       int nargs, const void* src, std::size_t len,
                                       const am_message& token) {
  { b.request_medium(p, h, args, nargs, src, len) } -> std::same_as<am_status>;
  { b.reply_medium(token, h, args, nargs, src, len) } -> std::same_as<am_status>;
};

/// Long messages (caps.max_long > 0): arguments plus a payload deposited at `dst`
/// on the receiver before its handler runs. When `ok` is returned the backend is
/// done with src.
template <class B>
concept has_long_messages = requires(B& b, proc_t p, handler_id h, const am_word* args,
                                     int nargs, const void* src, std::size_t len, void* dst,
                                     const am_message& token) {
  { b.request_long(p, h, args, nargs, src, len, dst) } -> std::same_as<am_status>;
  { b.reply_long(token, h, args, nargs, src, len, dst) } -> std::same_as<am_status>;
};

/// Zero-copy long messages: as request_long / reply_long, but the backend may go
/// on reading `src` after it returns `ok` (the layer sends from it in place, as
/// an MPI rendezvous does). The core adds 1 to `source_free` before the call; the
/// backend subtracts 1 (`source_free.add_local(-1)`) once it has finished with
/// `src` -- within the call, or in a later poll(). The core lends only sources
/// that stay as they are until then: the owner's memory a get's long reply
/// sends (finalize waits for those), and bulk_write's source (the call waits for
/// it) -- so a send that would otherwise wait for the receiver, inside a handler
/// too, returns at once. On no_resource nothing was started and the backend
/// leaves the counter alone.
template <class B>
concept has_zero_copy_long =
    has_long_messages<B> &&
    requires(B& b, proc_t p, handler_id h, const am_word* args, int nargs, const void* src,
             std::size_t len, void* dst, const am_message& token, counter& source_free) {
      { b.request_long_zero_copy(p, h, args, nargs, src, len, dst, source_free) }
          -> std::same_as<am_status>;
      { b.reply_long_zero_copy(token, h, args, nargs, src, len, dst, source_free) }
          -> std::same_as<am_status>;
    };

/// One-sided transfers (RMA) between local memory and a peer's memory, for
/// layers such as SHMEM or MPI RMA. `rma_reaches(p, addr, len)` says whether
/// [addr, addr+len) of processor p can be targeted (for example: inside the
/// symmetric segment); the core uses active messages for everything else.
/// Completion is counted on a splitc counter: the core adds 1 before the call,
/// the backend subtracts 1 (`ctr.add_local(-1)`) once the transfer is complete
/// at both ends -- within the call, or in a later poll(). A put has finished
/// reading `src` when it returns `ok`; a get writes `dst` until it completes.
/// Either may return no_resource (nothing started, the core retries).
template <class B>
concept has_rma = requires(B& b, const B& cb, proc_t p, void* dst, const void* src,
                           std::size_t len, counter& ctr) {
  { cb.rma_reaches(p, src, len) } noexcept -> std::same_as<bool>;
  { b.rma_put(p, dst, src, len, ctr) } -> std::same_as<am_status>;
  { b.rma_get(dst, p, src, len, ctr) } -> std::same_as<am_status>;
};

/// Optional with has_rma: `static constexpr bool rma_get_completes = true`
/// says rma_get has completed the transfer when it returns `ok` (SHMEM's get
/// blocks); the core then adds nothing to the counter and the backend leaves
/// it alone -- a get's cost is the layer's.
template <class B>
concept has_rma_get_in_call = has_rma<B> && requires {
  requires B::rma_get_completes;
};

/// Optional with has_rma: `rma_flush()` completes the RMA transfers issued so
/// far (their counters reach their final values: SHMEM's quiet) without
/// delivering messages. sync(), read and write call it before they wait, so
/// that a put and its sync cost the layer's put and completion, not a poll of
/// every mailbox as well; without it they poll.
template <class B>
concept has_rma_flush = has_rma<B> && requires(B& b) {
  { b.rma_flush() } -> std::same_as<void>;
};

/// Optional with has_rma: stores (Split-C's `:-`, bulk_store) as one-sided
/// transfers that tell the receiver what arrived without a message (SHMEM:
/// the data, a fence, then a put of a byte count -- a signalling put).
/// `rma_store(p, dst, src, len)` puts [src, src+len) at dst on p (rma_reaches
/// holds) and has finished reading src when it returns `ok`; it may return
/// no_resource (nothing started, the core retries). On the receiver,
/// `rma_stored_bytes()` returns how many bytes rma_store calls have completed
/// into it (visible to its loads) since its last call; the core adds them to
/// its store counter after every poll, so store_sync and all_store_sync count
/// them. Only stores counted on the library's counter take this path; those on
/// a counter of the program's travel as active messages.
template <class B>
concept has_rma_store = has_rma<B> && requires(B& b, proc_t p, void* dst, const void* src,
                                               std::size_t len) {
  { b.rma_store(p, dst, src, len) } -> std::same_as<am_status>;
  { b.rma_stored_bytes() } -> std::same_as<std::int64_t>;
};

/// The operations on a word that splitc's atomics ask of a layer's native
/// atomics, on the word's bits (a float's too): fetch_add (two's complement),
/// swap and compare_swap, which every layer with native atomics applies; and
/// fetch_and, fetch_or, fetch_xor, load and store, which a layer applies when it
/// says so in `native_atomic_ops` (below). The core composes the rest (min and
/// max, floating-point add; load and store where the layer lacks them) from
/// the layer's load and compare_swap, so that all atomics on a word reached
/// natively stay the layer's.
enum class native_atomic_op : std::uint8_t {
  fetch_add, swap, compare_swap, fetch_and, fetch_or, fetch_xor, load, store
};

/// The bit of `op` in a layer's `native_atomic_ops` mask.
constexpr unsigned native_atomic_bit(native_atomic_op op) noexcept {
  return 1u << static_cast<unsigned>(op);
}
/// What a layer that does not say applies: fetch_add, swap and compare_swap.
inline constexpr unsigned native_atomic_ops_required =
    native_atomic_bit(native_atomic_op::fetch_add) | native_atomic_bit(native_atomic_op::swap) |
    native_atomic_bit(native_atomic_op::compare_swap);

/// Atomics of the layer's own (OpenSHMEM's `shmem_atomic_*`, MPI_Fetch_and_op).
/// `native_atomic_reaches(p, addr, size)` says whether the layer applies all
/// three operations to the `size`-byte word (4 or 8 bytes, aligned) at `addr`
/// on processor p -- for example: inside the symmetric segment. The core then
/// applies *every* atomic on such a word through `native_atomic`, those of the
/// word's own processor included (a layer's atomics need not be atomic with
/// respect to the CPU's), and those on other words by an active message to the
/// owner. `native_atomic` returns the word's old value in its low `size` bytes
/// once the operation is done (it blocks; it may be called from a handler, so
/// it must not wait for this processor's own polls): `operand` is the addend,
/// the mask, the value swapped in or stored, or for compare_swap the value
/// expected, and `desired` the value compare_swap stores when the word held
/// `operand` (load returns the word and ignores both; store returns anything).
/// A layer that applies more than fetch_add, swap and compare_swap says which
/// in `static constexpr unsigned native_atomic_ops` (native_atomic_bit of each);
/// the core then asks it for those too.
template <class B>
concept has_native_atomics = requires(B& b, const B& cb, proc_t p, void* target,
                                      native_atomic_op op, std::size_t size,
                                      std::uint64_t operand, std::uint64_t desired) {
  { cb.native_atomic_reaches(p, static_cast<const void*>(target), size) } noexcept
      -> std::same_as<bool>;
  { b.native_atomic(p, target, op, size, operand, desired) } -> std::same_as<std::uint64_t>;
};

/// The operations layer B applies natively (native_atomic_ops, or the three required).
template <class B>
constexpr unsigned native_atomic_ops_of() noexcept {
  if constexpr (requires { B::native_atomic_ops; })
    return B::native_atomic_ops | native_atomic_ops_required;
  else
    return native_atomic_ops_required;
}

/// Ending the whole job from a failing process where the layer's launcher must
/// be told (MPI_Abort): called by the core's fatal-error path after the message
/// is written. Without it the process exits and the launcher ends the job.
template <class B>
concept has_abort_job = requires(int code) { B::abort_job(code); };

/// A layer initialised by the program before splitc::init (MPI_Init called by
/// the program): the core then skips the steps that must precede it.
template <class B>
concept has_layer_initialized = requires { { B::layer_initialized() } -> std::same_as<bool>; };

/// Waiting without spinning: a layer that can suspend the processor until a
/// message for it may have arrived (the sim backend's scheduler). The core's
/// waits call `wait_idle(sink, what)` after a poll that left their condition
/// false, instead of backing off; `what` names the operation waiting
/// ("barrier", "read", ...) for the layer's deadlock report.
template <class B>
concept has_idle_wait = requires(B& b, am_sink sink, const char* what) {
  { b.wait_idle(sink, what) } -> std::same_as<void>;
};

/// A clock of the layer's own (the sim backend's virtual time): what
/// `splitc::get_seconds()` reads instead of the host's monotonic clock.
template <class B>
concept has_virtual_clock = requires(const B& cb) {
  { cb.virtual_seconds() } noexcept -> std::same_as<double>;
};

/// The core's half of a processor switch on a layer whose processors share one process:
/// `save` takes the running processor's runtime state off (returns it) as the layer stops
/// running it, `restore` puts it back as the layer runs it again, and `ended` is called on the
/// processor when its program returned (or called exit(0)) without `finalize()` (the core
/// reports it and ends the job). The layer keeps the saved state per processor.
struct processor_switch {
  void* (*save)();
  void (*restore)(void* state);
  void (*ended)();
};

/// Where the segments of processors that share one process lie: processor p's at
/// base + p × stride, `stride` a power of two no smaller than segment().size, `span` = stride ×
/// the processor count. Each processor's segment() is its own; a global pointer names its
/// processor's copy of a place (c_context.h). All zero outside a running job (before the
/// layer has started its processors).
struct segments_apart {
  std::uintptr_t base = 0;
  std::size_t stride = 0;
  std::size_t span = 0;
};

/// Processors sharing one OS process (the sim backend's fibers): every
/// processor of the job sees the same statics. Declared as
/// `static constexpr bool shared_process = true`, with
/// `static void install_processor_switch(const processor_switch&)`, which the core calls
/// at every processor's `init()` before anything else, and through which the layer switches
/// `splitc_current_context` with the running processor, and `static segments_apart
/// segments()`, where the processors' segments lie (each at its own address: no processor
/// switch remaps memory), which the core publishes before it constructs the backend (so that
/// port::same_place_on serves the backend's own start). The core then keeps
/// `splitc::per_processor<T>` values per processor and leaves liveness to the backend (no
/// watchdog). (The kit's `port::sim_members`, on_sim.hpp, has them all for a port on the sim
/// engine.)
template <class B>
concept declares_shared_process = requires { B::shared_process; };
template <class B>
concept has_shared_process = requires(const processor_switch& hooks) {
  requires B::shared_process;
  { B::install_processor_switch(hooks) } -> std::same_as<void>;
  { B::segments() } -> std::same_as<segments_apart>;
};

/// The foreign launchers (MPI's, Slurm's) that may start the backend's processes, or that its
/// own launcher runs: `static constexpr unsigned foreign_launchers = ...`, an or of
/// port::foreign_launcher_kind (port/launcher_check.hpp). Without it, a process that such a
/// launcher started as one of several is refused, naming the backend's own launcher.
template <class B>
inline constexpr unsigned foreign_launchers = [] {
  if constexpr (requires { B::foreign_launchers; })
    return static_cast<unsigned>(B::foreign_launchers);
  else
    return 0u;
}();

/// The processors that share memory with this one (a same-host layer:
/// port/same_host.hpp), in increasing order, this one included. The core
/// groups its barrier by them: a gather to the group's first processor and a
/// release through shared memory, and between the groups' first processors the
/// network (collectives.hpp, hierarchical_barrier).
template <class B>
concept has_host_members = requires(const B& cb) {
  { cb.host_members() } noexcept -> std::convertible_to<std::span<const proc_t>>;
};

/// Direct access to a range in one question: where this process can load/store
/// [local, local + len) of processor p, or nullptr -- what direct_address of the
/// range's first and last bytes gives (the core asks it so without this member),
/// with one range check (port/segment.hpp, range_in_segment).
template <class B>
concept has_direct_range = requires(const B& cb, proc_t p, const void* local, std::size_t len) {
  { cb.direct_range(p, local, len) } noexcept -> std::same_as<void*>;
};

/// One copy from another process of this host (port/cross_memory.hpp): `peer_read` copies
/// `len` bytes at `src` in processor p's process -- any memory of it, not only its segment --
/// to `dst` here, false when it did not (the kernel refused; the core then gets the bytes by
/// a message). `peer_read_min(p)`: the smallest piece of a collective's stream worth reading
/// so from (and lending to) processor p (0: none is; the stream is staged, two copies): the
/// same for every p on smp, 0 for a processor of another host under the same-host layer
/// (port/same_host.hpp). The core reads only what p's message
/// names: a collective's source, which p keeps until the reader acknowledges it
/// (detail/mailbox.hpp, "Pieces read from the sender's memory").
template <class B>
concept has_peer_read = requires(B& b, const B& cb, proc_t p, const void* src, void* dst,
                                 std::size_t len) {
  { b.peer_read(p, src, dst, len) } noexcept -> std::same_as<bool>;
  { cb.peer_read_min(p) } noexcept -> std::same_as<std::size_t>;
};

/// Native collectives on a control network (the CM-5's): what the core gives a
/// backend's blocking collective to run while it waits. The backend's layer
/// delivers arrivals through `sink` while it waits (as in bootstrap_barrier);
/// after each core handler it runs there, the backend calls
/// `progress.run(progress.context)` (not nested) until it returns false, so
/// that what the handler queued (a composed or long reply) leaves while this
/// processor is inside the control network. `run` polls once and retries the
/// core's queued sends; it returns true while some are still queued (a long
/// reply whose receiver has no landing area free yet), which only a later
/// attempt sends -- and no later delivery may come to prompt it. docs/ports.md
/// "## CM-5", PORTING.md.
struct am_progress {
  void* context;
  bool (*run)(void* context);
};

/// A barrier of the layer's own (a hardware barrier) that delivers through
/// `sink` and runs `progress` while it waits: what `splitc::barrier()` uses.
template <class B>
concept has_native_barrier = requires(B& b, am_sink sink, am_progress progress) {
  { b.native_barrier(sink, progress) } -> std::same_as<void>;
};

/// The element types and operators of native reductions and scans.
enum class native_element : std::uint8_t { int32, uint32, int64, uint64, float32, float64 };
enum class native_op : std::uint8_t { add, max, min, bit_or, bit_and, bit_xor };
enum class native_collective : std::uint8_t { reduce_to_all, scan, exclusive_scan };

/// Reductions, scans and a small broadcast on the layer's own network, one value
/// at a time. `native_reduces(what, element, op)` says at compile time which it
/// combines (it must at least reduce uint32 with bit_or: the core's agreement
/// check); `native_combine` combines `value` (the element's bits in the low
/// bytes of the word) over every processor and returns this processor's result;
/// `native_broadcast` copies `len` <= `native_broadcast_bytes` bytes at `data`
/// from `root` to every processor. Each delivers and runs `progress` while it
/// waits, as native_barrier does.
template <class B>
concept has_native_reduce = requires(B& b, am_sink sink, am_progress progress, am_word value,
                                     void* data, std::size_t len, proc_t root) {
  requires B::native_reduces(native_collective::reduce_to_all, native_element::uint32,
                             native_op::bit_or);
  { B::native_broadcast_bytes } -> std::convertible_to<std::size_t>;
  { b.native_combine(sink, progress, native_collective::reduce_to_all, native_element::uint32,
                     native_op::bit_or, value) } -> std::same_as<am_word>;
  { b.native_broadcast(sink, progress, data, len, root) } -> std::same_as<void>;
};

}  // namespace splitc
