// Start-up and shut-down of a splitc process, and the small runtime calls
// that are not inlined (poll, barrier, handler registration).
#include <splitc/port/launch.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/external_launch.hpp>
#include <splitc/port/launcher_check.hpp>
#include <splitc/port/watchdog.hpp>
#include <splitc/atomics.hpp>
#include <splitc/collectives.hpp>
#include <splitc/runtime.hpp>

#include "failing_watcher.hpp"
#include "finalize_barrier.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <bit>
#include <cstdlib>
#include <time.h>
#include <cstring>
#include <span>
#include <string>
#include <vector>

extern "C" {
SPLITC_THREAD_LOCAL_ splitc_context_prefix* splitc_current_context = nullptr;
splitc_context_prefix* splitc_process_context = nullptr;
struct splitc_segment_places splitc_segment_places = {0, 0, 0};
}

namespace splitc {
namespace detail {

void register_global_memory_handlers(context& c);  // src/global_memory.cpp
void register_mailbox_handlers(context& c);        // src/mailbox.cpp
void register_heap_handlers(context& c);           // src/spread_heap.cpp
void init_heaps(context& c);                       // src/spread_heap.cpp
void register_atomic_handlers(context& c);         // src/atomics.cpp
void register_compose_handlers(context& c);        // src/compose.cpp
void register_put_signal_handlers(context& c);     // src/put_signal.cpp
void register_vector_transfer_handlers(context& c);  // src/vector_transfer.cpp

namespace {
constexpr std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

/// The segments of processors that share one process apart by what the backend said (published
/// by note_segments_apart before the backend was constructed) and wide enough for `size`.
template <class B>
void check_segments_apart([[maybe_unused]] std::size_t size) {
  if constexpr (has_shared_process<B>) {
    const std::size_t stride = std::size_t{1} << splitc_segment_places.shift;
    if (splitc_segment_places.span == 0 || stride < size)
      fail("the backend's segments lie {} bytes apart, less than a segment's {}",
           splitc_segment_places.span == 0 ? 0 : stride, size);
  }
}
}  // namespace

/// Where processors share one process: where their segments lie, for global pointers
/// (c_context.h; every processor sets the same figures). Before the backend is constructed,
/// so that its own start may move addresses with port::same_place_on; nothing before the
/// layer runs the job (the program's own main on the sim engine).
template <class B>
void note_segments_apart() {
  if constexpr (has_shared_process<B>) {
    const segments_apart apart = B::segments();
    if (apart.span == 0) return;
    if (!std::has_single_bit(apart.stride) || apart.span % apart.stride != 0)
      fail("the backend's segments lie {} bytes apart over {} bytes, not a power of two apart",
           apart.stride, apart.span);
    splitc_segment_places = {apart.base, apart.span,
                             static_cast<unsigned>(std::countr_zero(apart.stride))};
  }
}

void private_part_deleter::operator()(unsigned char* p) const noexcept {
  munmap(p, bytes);
}

context::context(start_arguments args) : splitc_context_prefix{}, backend(args) {
  myproc = backend.myproc();
  procs = backend.procs();
  const segment_info seg = backend.segment();
  const auto nprocs = static_cast<std::size_t>(procs);
  const std::size_t runtime_bytes =
      round_up(sizeof(segment_header), 64) + mailbox_state::region_bytes(nprocs);
  reserved_bytes = round_up(runtime_bytes, 65536);
  if (reserved_bytes >= seg.size)
    fail("the segment ({} bytes) is too small for the runtime's {} bytes", seg.size, reserved_bytes);
  auto* runtime_part = static_cast<unsigned char*>(seg.base);
  static_assert(!has_shared_process<active_backend> || !active_backend::caps.direct_access,
                "a backend whose processors share one process keeps the runtime part (the "
                "collectives' mailboxes) in private memory, where direct_address cannot reach it: "
                "it must not declare direct_access");
  if constexpr (has_shared_process<active_backend>) {
    check_segments_apart<active_backend>(seg.size);
    // Zero-filled and committed only where touched, as the segment is.
    void* p = mmap(nullptr, runtime_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      fail("cannot map the runtime's {} bytes: {}", runtime_bytes, std::strerror(errno));
    runtime_part = static_cast<unsigned char*>(p);
    private_runtime_part = {runtime_part, private_part_deleter{runtime_bytes}};
  }
  shared = reinterpret_cast<segment_header*>(runtime_part);
  store_sent = store_sent_bytes.storage();
  store_received = shared->store_received.storage();
  mail.region = runtime_part + round_up(sizeof(segment_header), 64);
  mail.procs = nprocs;
  mail.sent.assign(nprocs, 0);
  mail.received.assign(nprocs, 0);
  mail.acked_seen.assign(nprocs, 0);
  mail.source_read_until.assign(nprocs, 0);
  handlers.assign(static_cast<std::size_t>(builtin::count), nullptr);
  refresh_sink();
  register_global_memory_handlers(*this);
  register_mailbox_handlers(*this);
  register_heap_handlers(*this);
  register_atomic_handlers(*this);
  register_put_signal_handlers(*this);
  register_vector_transfer_handlers(*this);
  register_compose_handlers(*this);
  init_heaps(*this);
}

namespace {

/// The program to start again on every processor: the path this one was started by, when it
/// names this very executable (so that the processors see the same argv[0]: a program that
/// is a link to another, as the test programs are to their backend's driver, may act on it),
/// else /proc/self/exe.
char* self_program(char* argv0) {
  static char self[] = "/proc/self/exe";
  struct stat named {}, running {};
  if (argv0 != nullptr && std::strchr(argv0, '/') != nullptr && ::stat(argv0, &named) == 0 &&
      ::stat(self, &running) == 0 && named.st_dev == running.st_dev &&
      named.st_ino == running.st_ino)
    return argv0;
  return self;
}

/// Started plainly with SPLITC_PROCS=N (N > 1): launch the job from here.
[[noreturn]] void launch_self(int procs, char** argv) {
  port::launch_options options;
  options.procs = procs;
  port::announce_launcher(active_backend::name);
  std::vector<char*> args;
  args.push_back(self_program(argv[0]));
  for (char** a = argv + 1; *a != nullptr; ++a) args.push_back(*a);
  args.push_back(nullptr);
  std::exit(port::launch_job(options, args.data()));
}

/// Has the program initialised the backend's layer itself (MPI_Init before init)?
template <class B>
bool layer_initialized() {
  if constexpr (has_layer_initialized<B>)
    return B::layer_initialized();
  else
    return false;
}

}  // namespace

/// Every processor contributes `len` bytes; `all` receives procs*len bytes in
/// processor order. Built on the core's own reduction (each processor fills its
/// slot of a zeroed array, the slots are or-ed together), so a backend needs no
/// exchange of its own.
void exchange_all(context& c, const void* mine, std::size_t len, void* all) {
  const std::size_t words = (len + 7) / 8;
  std::vector<std::uint64_t> slots(words * static_cast<std::size_t>(c.procs), 0);
  std::memcpy(slots.data() + words * static_cast<std::size_t>(c.myproc), mine, len);
  reduce_to_all(std::span<std::uint64_t>(slots), ops::bit_or{});
  for (proc_t q = 0; q < c.procs; ++q)
    std::memcpy(static_cast<unsigned char*>(all) + len * static_cast<std::size_t>(q),
                slots.data() + words * static_cast<std::size_t>(q), len);
}

/// The groups of processors sharing memory (has_host_members): every processor says which
/// processor leads its group (its first), in one exchange; the barrier is hierarchical when
/// there are fewer groups than processors and SPLITC_HIERARCHICAL is on.
/// (A template, so that `if constexpr` discards the call on backends without the member.)
template <class B>
void learn_host_groups(context& c, const B& backend) {
  if constexpr (has_host_members<B>) {
    const std::span<const proc_t> members = backend.host_members();
    c.host_group.assign(members.begin(), members.end());
    if (c.procs == 1 || c.host_group.empty()) return;
    const auto mine = static_cast<std::int32_t>(c.host_group.front());
    std::vector<std::int32_t> leader_of(static_cast<std::size_t>(c.procs));
    exchange_all(c, &mine, sizeof mine, leader_of.data());
    // Every group agrees on its members (else the barrier would wait for the wrong ones).
    const auto led = std::count(leader_of.begin(), leader_of.end(), mine);
    for (proc_t q : c.host_group) {
      if (leader_of[static_cast<std::size_t>(q)] != mine ||
          led != static_cast<std::ptrdiff_t>(c.host_group.size())) {
        fail("{}: the processors sharing memory disagree: this one's group starts at {}, "
             "processor {}'s at {} ({} processors name {} as theirs, this one counts {})",
             active_backend::name, mine, q, leader_of[static_cast<std::size_t>(q)], led, mine,
             c.host_group.size());
      }
    }
    for (proc_t q = 0; q < c.procs; ++q) {
      if (leader_of[static_cast<std::size_t>(q)] != q) continue;
      if (q == c.myproc) c.leader_index = static_cast<int>(c.group_leaders.size());
      c.group_leaders.push_back(q);
    }
    c.hierarchical = port::env::hierarchical.get() &&
                     c.group_leaders.size() < static_cast<std::size_t>(c.procs);
  } else {
    (void)c;
    (void)backend;
  }
}

/// More of the job's processes on this host than processors online: waiters yield at once
/// rather than spin (port/backoff.hpp). The host's processes are the backend's shared-memory
/// group where it knows one, else what the launcher says (Open MPI's mpirun, MPICH's hydra),
/// else all of them (splitc-run starts every process on this host). No message: a layer's
/// first messages are the program's (an exchange here once changed what the nx and mpl
/// emulations' bad-input tests saw first). SPLITC_YIELD_WHEN_IDLE=1 or 0 says it instead:
/// the job's own count cannot see other jobs on the same cores.
void learn_oversubscription(context& c) {
  const std::string_view mode = port::env::yield_when_idle.get();
  if (mode != "auto") {
    port::oversubscribed = mode == "1";
    return;
  }
  if (c.procs == 1) return;
  std::size_t here = c.host_group.size();
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (here != 0) break;
    if (const char* v = std::getenv(name)) here = static_cast<std::size_t>(std::strtoul(v, nullptr, 10));
  }
  if (here == 0) here = static_cast<std::size_t>(c.procs);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  port::oversubscribed = online > 0 && here > static_cast<std::size_t>(online);
}

void exit_without_finalize(int status, void*) {
  // A failing exit is already the launcher's business (the watcher is told: it does not
  // report it again); a successful one without finalize would leave the others waiting.
  if (status != 0 && splitc_current_context != nullptr) tell_watcher_failing();
  if (status == 0 && splitc_current_context != nullptr)
    fail("the process exited without calling finalize(); the other processors would wait for "
         "it forever");
}

/// The core's half of a processor switch (port/am.hpp, processor_switch): the one pointer
/// to the runtime's state follows the running processor.
processor_switch processor_switch_of_the_core() {
  return {
      .save = []() -> void* {
        void* state = splitc_current_context;
        splitc_current_context = nullptr;
        return state;
      },
      .restore =
          [](void* state) { splitc_current_context = static_cast<splitc_context_prefix*>(state); },
      .ended = [] { exit_without_finalize(0, nullptr); },
  };
}

/// Given to B's layer when its processors share one process (has_shared_process).
template <class B>
void install_processor_switch() {
  if constexpr (has_shared_process<B>) B::install_processor_switch(processor_switch_of_the_core());
}

}  // namespace detail

void init(int& argc, char**& argv) {
  if (splitc_current_context != nullptr) detail::fail("init called twice");
  // A second thread's init (its own thread-local pointer is null): one runtime per process.
  if (splitc_process_context != nullptr && !has_shared_process<active_backend>)
    detail::called_from_another_thread();
  // Processors sharing one process: their layer switches this processor's state with it.
  detail::install_processor_switch<active_backend>();
  detail::note_segments_apart<active_backend>();
  // Under a foreign launcher started by splitc-run: a supervisor that names our death. Under
  // a shared process (the sim engine's backends) it supervises the whole job's one process:
  // the backend names who fails, the supervisor sees an _exit(0) before finalize.
  port::supervise_rank_if_asked(!detail::layer_initialized<active_backend>(),
                                has_shared_process<active_backend>);
  // A launcher of another backend (or a foreign mpirun) is refused before anything starts.
  port::check_launcher(active_backend::name, foreign_launchers<active_backend>);
  if (!port::env::job.is_set()) {
    if (const auto n = port::env::procs.value()) {
      const auto procs = port::parse_integer(*n);
      if (!procs || *procs < 1 || *procs > 4096)
        detail::fail("SPLITC_PROCS={} is not a processor count (1..4096)", *n);
      // Processors sharing one process are started by their backend, under a launcher all the
      // same: it learns whether the job reached finalize.
      if (*procs > 1) detail::launch_self(static_cast<int>(*procs), argv);
    }
  }
  splitc_current_context = new detail::context(start_arguments{&argc, &argv});
  splitc_process_context = splitc_current_context;
  // (Under a shared process the backend checks each processor's end itself.)
  if constexpr (!has_shared_process<active_backend>) on_exit(detail::exit_without_finalize, nullptr);
  // Everyone attached before anyone sends.
  auto& c = detail::ctx();
  if (c.myproc == 0) port::warn_unknown_variables();  // a misspelt SPLITC_* name, once per job
  c.broadcast_agreed = port::env::broadcast_check.get() == "before_return";
  c.backend.bootstrap_barrier(c.sink());
  detail::learn_host_groups(c, c.backend);
  if constexpr (!has_shared_process<active_backend>) detail::learn_oversubscription(c);
  // Silent and vanished processors end the job, on every backend.
  // (Under a shared process the backend's scheduler sees every processor's state.)
  if (c.procs > 1 && !has_shared_process<active_backend>) {
    c.watchdog = std::make_unique<port::watchdog>(
        c.myproc, c.procs, [&c](const void* mine, std::size_t len, void* all) {
          detail::exchange_all(c, mine, len, all);
        });
  }
}

bool initialized() noexcept { return splitc_current_context != nullptr; }

void finalize() {
  auto& c = detail::ctx();
  // Split-phase collectives not yet synced still complete (every member reaches this point).
  if (c.split_phase_in_flight != 0) detail::finish_every_split_phase(c);
  {
    // A barrier of finalize's own kind: a processor still in a program collective is named.
    // Never the layer's native barrier (the CM-5's control network), where no signature
    // travels: the mailboxes', signed also with the native collectives passed, which a
    // processor waiting in one of them judges (finalize_barrier.hpp).
    auto g = detail::world_group("finalize", detail::finalize_signature);
    if constexpr (has_native_barrier<active_backend>) {
      g.native = false;
      g.signature = detail::finalize_signature_after(c.native_collectives_passed);
    }
    detail::barrier_on(g);
  }
  // Replies that handlers queued go out before the backend's barrier, which only polls, and
  // the backend finishes reading what zero-copy replies lent it.
  detail::wait_until(c, "finalize",
                     [&] { return c.pending.empty() && c.sources_lent.value() == 0; });
  // From here on this processor may leave: its watcher must not take that for an early exit.
  if (c.watchdog) c.watchdog->finalizing();
  if constexpr (!has_shared_process<active_backend>) port::tell_supervisor_finalized();
  // The backend's own barrier last: nobody leaves while a message to it may still be in flight.
  c.backend.bootstrap_barrier(c.sink());
  // Processors sharing one process: the job has finalized once all have passed that barrier.
  if constexpr (has_shared_process<active_backend>) port::tell_supervisor_finalized();
  c.backend.finish(0);
  detail::release_split_phase(c);
  c.watchdog.reset();
  delete &c;
  splitc_current_context = nullptr;
  splitc_process_context = nullptr;
}

namespace {
/// Polls in a row that ran no handler on this thread, while the host is oversubscribed.
thread_local unsigned idle_polls = 0;
/// Empty polls in a row before each further one yields: a reply is usually a few polls away.
constexpr unsigned idle_polls_before_yield = 16;
}  // namespace

void poll() { (void)detail::poll_in_loop(detail::ctx()); }

int detail::poll_in_loop(context& c) {
  const int ran = detail::progress(c);
  // A program's own polling loop (`while (!flag) poll();`, `while (!is_sync());`, a loop on
  // is_store_sync or a memory test, MPI_Test's or MPI_Iprobe's loop in a layer above) on a
  // host with more of the job's processes than cores: spinning there keeps the process it
  // waits for off the CPU, so after a few empty polls each empty poll yields, as Open MPI's
  // progress does when it yields when idle. Never a sleep: a program that computes
  // between polls loses nothing but the yield. The yield is timed, so that a slow one tells
  // this process's waits to sleep for a while (port/backoff.hpp); here a yield stays a yield,
  // since spinning instead would be slower still. Processors sharing one process (the sim)
  // switch in their own poll.
  if constexpr (!has_shared_process<active_backend>) {
    if (!port::oversubscribed) return ran;
    if (ran != 0) {
      idle_polls = 0;
    } else if (++idle_polls > idle_polls_before_yield) {
      port::yield_cpu();
    }
  }
  return ran;
}

namespace detail {
void barrier_on(collective_group& g) {
  if (g.members != nullptr) {
    dissemination_barrier(g);
    return;
  }
  if constexpr (has_native_barrier<active_backend>) {
    if (g.native) {
      native_barrier(g.c);  // the layer's own (the CM-5's control network)
      return;
    }
  }
  if (g.c.hierarchical)
    hierarchical_barrier(g);  // groups sharing memory, then the network
  else
    dissemination_barrier(g);
}
}  // namespace detail

void barrier() {
  auto g = detail::world_group("barrier",
                               detail::collective_signature<detail::collective_kind::barrier, void, void>);
  detail::barrier_on(g);
}

const char* backend_name() noexcept { return active_backend::name; }

namespace {
/// "splitc-linked-backend=<name>" (port::linked_backend_tag) as one string.
constexpr auto make_linked_backend_tag() {
  std::array<char, port::linked_backend_tag.size() + 64> tag{};
  std::size_t n = 0;
  for (const char ch : port::linked_backend_tag) tag[n++] = ch;
  for (const char* name = active_backend::name; *name != '\0' && n + 1 < tag.size(); ++name)
    tag[n++] = *name;
  return tag;
}
}  // namespace
/// In every program's file (this object is always linked): the default launcher
/// reads it to start the program with its own backend's launcher.
[[gnu::used]] extern const std::array<char, port::linked_backend_tag.size() + 64>
    splitc_linked_backend_tag = make_linked_backend_tag();

namespace {
/// The layer's own clock where it has one (a template: `if constexpr` discards the call).
template <class B>
double layer_seconds(const B& backend) noexcept {
  if constexpr (has_virtual_clock<B>)
    return backend.virtual_seconds();
  else
    return -1;
}
}  // namespace

double get_seconds() noexcept {
  if (has_virtual_clock<active_backend> && splitc_current_context != nullptr)
    return layer_seconds(detail::running().backend);
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

segment_info my_segment() noexcept {
  auto& c = detail::ctx();
  const segment_info seg = c.backend.segment();
  return {static_cast<char*>(seg.base) + c.reserved_bytes, seg.size - c.reserved_bytes};
}

handler_id register_handler(handler_fn fn) {
  auto& c = detail::blocking_context("register_handler");
  if (fn == nullptr) detail::fail("register_handler: null handler");
  if (c.handlers.size() >= 65535) detail::fail("register_handler: too many handlers");
  // Collective: everyone registers the same function at the same index. Each
  // processor adds it before taking part in the check, so once anyone has
  // finished the check, everyone has it and may be sent to it.
  c.add_handler(fn);
  const std::int64_t offset = detail::function_offset(reinterpret_cast<const void*>(fn));
  const std::int64_t low = reduce_to_all(offset, ops::min{});
  const std::int64_t high = reduce_to_all(offset, ops::max{});
  if (low != high)
    detail::fail("register_handler: processors registered different functions as handler {}",
                 c.handlers.size() - 1);
  return static_cast<handler_id>(c.handlers.size() - 1);
}

}  // namespace splitc
