// Fatal errors: one message naming the processor and the cause, then the
// process exits non-zero and the launcher ends the rest of the job.
#include <splitc/detail/context.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/watchdog.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/bulk.hpp>
#include <splitc/collectives.hpp>
#include <splitc/memory_wait.hpp>
#include <splitc/per_processor.hpp>

#include "failing_watcher.hpp"
#include "finalize_barrier.hpp"

#include <fmt/format.h>
#include <string>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace splitc {
namespace detail {
void tell_watcher_failing() noexcept {
  if (splitc_process_context == nullptr) return;
  auto& c = *static_cast<context*>(splitc_process_context);
  if (c.watchdog) c.watchdog->failing();
}
}  // namespace detail

namespace {
/// A backend whose launcher must be told (MPI_Abort) ends the job itself.
template <class B>
void abort_through_backend(int code) {
  if constexpr (has_abort_job<B>) B::abort_job(code);
}
}  // namespace

void fatal_error(std::string_view what) {
  std::string where;
  // This thread's processor, or (on a thread that makes no splitc calls: a helper, or a
  // thread that called in by mistake) the process's.
  const splitc_context_prefix* const c =
      splitc_current_context != nullptr ? splitc_current_context : splitc_process_context;
  if (c != nullptr) {
    where = fmt::format("processor {} of {}", c->myproc, c->procs);
  } else if (const auto me = port::env::myproc.value()) {
    where = fmt::format("processor {}", *me);
  } else {
    where = "processor 0";
  }
  std::fflush(stdout);
  const std::string line = fmt::format("splitc: {}: {}\n", where, what);
  // One write, so lines from several processes do not interleave.
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
  detail::tell_watcher_failing();
  abort_through_backend<active_backend>(error_exit_status);
  _exit(error_exit_status);
}

namespace detail {

void not_initialized() {
  if (splitc_process_context != nullptr) called_from_another_thread();
  fatal_error("splitc is not initialized: call splitc::init() (or splitc_init) first");
}

void called_from_another_thread() {
  fatal_error(fmt::format(
      "splitc was called from thread {}, not the thread that called init: one thread per "
      "process makes splitc calls (MPI's FUNNELED; docs/api.md, \"Threads\")",
      static_cast<unsigned long>(::gettid())));
}

void per_processor_outside_job(const char* api) {
  if (splitc_process_context != nullptr) called_from_another_thread();
  fatal_error(fmt::format("{} used outside the job (before init() or after finalize()): there "
                          "is no running processor whose value it would be",
                          api));
}

void bad_processor(context& c, proc_t p, const char* op) {
  fail("{}: processor number {} is out of range (the job has processors 0..{})", op, p,
       c.procs - 1);
}

void null_target(context&, proc_t p, const char* op) {
  fail("{}: null global pointer dereferenced (processor {}, address 0)", op, p);
}

void bad_length(context&, std::size_t len, const char* op) {
  fail("{}: impossible length {} bytes (negative or larger than {} bytes)", op,
       static_cast<long long>(len) < 0 ? fmt::format("{}", static_cast<long long>(len))
                                       : fmt::format("{}", len),
       max_bulk_length);
}

void bad_wait(const char* what, const char* why) { fail("{}: {}", what, why); }

void bad_count(context&, long long n, const char* what, const char* op) {
  fail("{}: negative {} {}", op, what, n);
}

void bad_reply(context& c) {
  if (!c.frame.active) fail("a reply was sent outside any handler");
  if (!c.frame.is_request)
    fail("handler {} (a reply handler) tried to send; reply handlers may not send",
         static_cast<unsigned>(c.frame.handler));
  fail("handler {} replied twice to processor {}; a request handler may reply at most once",
       static_cast<unsigned>(c.frame.handler), c.frame.source);
}

void bad_am_target(context& c, proc_t p, handler_id h) {
  if (static_cast<unsigned>(p) >= static_cast<unsigned>(c.procs))
    fail("active message to processor {}, which is out of range (the job has processors 0..{})", p,
         c.procs - 1);
  if (static_cast<std::size_t>(h) < static_cast<std::size_t>(builtin::count))
    fail("active message names handler {}, which is one of the runtime's own; use a handler "
         "from register_handler",
         static_cast<unsigned>(h));
  fail("active message names handler {}, but only {} handlers are registered",
       static_cast<unsigned>(h), c.handlers.size());
}

void bad_am_length(context&, std::size_t len, std::size_t max, const char* op) {
  fail("{}: payload of {} bytes exceeds the backend's limit of {} bytes", op, len, max);
}

void wait_in_handler(context& c, const char* what) {
  fail("{} called inside handler {}; handlers run inside poll and must not wait", what,
       static_cast<unsigned>(c.frame.handler));
}

namespace {
/// "processor 5" for the world, "processor 5 (rank 2 of a team of 4)" on a team.
std::string who(const collective_group& g, proc_t rank) {
  if (g.members == nullptr) return fmt::format("processor {}", rank);
  return fmt::format("processor {} (rank {} of a team of {})", g.proc(rank), rank, g.size);
}
}  // namespace

void collective_mismatch(collective_group& g, proc_t from, std::size_t got, std::size_t expected) {
  fail("collective mismatch: {} sent {} bytes where {} were expected (every member must call "
       "the same collectives in the same order with the same counts and types)",
       who(g, from), got, expected);
}

namespace {
/// The root a broadcast message names, if `got` is a message of the broadcast signed
/// `base` (its signature without the root).
bool broadcast_root_of(const collective_group& g, std::uint64_t got, std::uint64_t base,
                       proc_t* root) {
  const std::uint64_t theirs = root_unmix(got ^ base);
  if (theirs >= static_cast<std::uint64_t>(g.size)) return false;
  *root = static_cast<proc_t>(theirs);
  return true;
}
[[noreturn]] void roots_differ(const collective_group& g, proc_t from, proc_t theirs, proc_t ours) {
  fail("collective mismatch: {} broadcasts from root {}, {} from root {} (every member must "
       "name the same root)",
       who(g, from), theirs, who(g, g.rank), ours);
}
}  // namespace

void collective_kind_mismatch(collective_group& g, proc_t from, std::uint64_t got) {
  proc_t theirs = -1;
  // The same broadcast, checked before returning on one side only.
  if (g.root >= 0 && (got ^ g.signature) == agreed_broadcast_mark)
    fail("collective mismatch: {} checks broadcasts {}, {} {} (SPLITC_BROADCAST_CHECK must be "
         "the same on every processor)",
         who(g, from), g.c.broadcast_agreed ? "pipelined" : "before_return", who(g, g.rank),
         g.c.broadcast_agreed ? "before_return" : "pipelined");
  // The same broadcast with another root differs only in the root's part.
  if (g.root >= 0 && broadcast_root_of(g, got, g.signature ^ root_mix(g.root), &theirs))
    roots_differ(g, from, theirs, g.root);
  // A member that named another root in the broadcast this one has finished.
  if (g.mail.last_broadcast_root >= 0 &&
      broadcast_root_of(g, got, g.mail.last_broadcast_signature, &theirs) &&
      theirs != g.mail.last_broadcast_root)
    roots_differ(g, from, theirs, g.mail.last_broadcast_root);
  // finalize's barrier met a collective of the program: one processor skipped a collective
  // (or called one the others did not) before finalize.
  if (is_finalize_signature(got))
    fail("collective mismatch: {} has reached finalize() while this processor is in a "
         "collective (every processor must call the same collectives before finalize)",
         who(g, from));
  if (is_finalize_signature(g.signature))
    fail("collective mismatch: {} is in a collective while this processor has reached "
         "finalize() (every processor must call the same collectives before finalize)",
         who(g, from));
  fail("collective mismatch: {} is in a different collective, or the same one with another "
       "element type or operator (every member must call the same collectives in the same "
       "order with the same types)",
       who(g, from));
}

void finalize_skipped_native(proc_t from) {
  fail("collective mismatch: processor {} has reached finalize() while this processor is in a "
       "collective on the layer's own network (every processor must call the same collectives "
       "before finalize)",
       from);
}

void bad_root(collective_group& g, proc_t root, const char* what) {
  if (g.members == nullptr)
    fail("{}: root processor {} is out of range (the job has processors 0..{})", what, root,
         g.size - 1);
  fail("{}: root rank {} is out of range (the team has ranks 0..{})", what, root, g.size - 1);
}

}  // namespace detail
}  // namespace splitc
