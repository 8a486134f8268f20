// The simulated job: P processors as fibers, their clocks, the messages in
// flight between them, and the scheduler that runs them in virtual time
// (docs/sim.md).
//
// Scheduling is conservative: a processor runs only while its clock is less
// than one latency L past every other processor's, so no message can arrive
// in its past. Among the processors within that window the seeded generator
// picks which runs next (SPLITC_SIM_SEED); a run in deterministic mode is
// therefore the same on every run with the same seed, and other seeds try
// other interleavings.
#pragma once

#include "fiber_stacks.hpp"
#include "machine_model.hpp"
#include "segment_window.hpp"

#include <splitc/am.hpp>
#include <splitc/c_context.h>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace splitc::backends::sim {

/// A message on the simulated wire.
struct in_flight {
  double arrival_ns;
  std::uint64_t sequence;  ///< send order: breaks ties
  proc_t source;
  handler_id handler;
  am_kind kind;
  bool is_request;
  bool wire_copy;  ///< a duplicate made by the wire: the layer discards it
  int nargs;
  am_word args[am_max_args];
  void* destination;  ///< long messages: where the payload goes
  std::vector<std::byte> payload;
};

struct arrives_later {
  bool operator()(const in_flight& a, const in_flight& b) const noexcept {
    return a.arrival_ns > b.arrival_ns || (a.arrival_ns == b.arrival_ns && a.sequence > b.sequence);
  }
};

enum class run_state : std::uint8_t {
  runnable,          ///< ready at its clock
  waiting,           ///< suspended until a message arrives (or the bootstrap barrier ends)
  finished,          ///< returned from main
};

struct processor {
  boost::context::fiber fiber;      ///< the suspended processor (empty while it runs)
  boost::context::fiber scheduler;  ///< while it runs: where a yield returns to
  run_state state = run_state::runnable;
  double clock_ns = 0;
  double next_send_ns = 0;  ///< the gap: no send starts before this
  std::priority_queue<in_flight, std::vector<in_flight>, arrives_later> inbox;
  const char* waiting_for = "";
  splitc_context_prefix* context = nullptr;  ///< its runtime context while suspended
  bool in_barrier = false;  ///< in the bootstrap barrier
  std::uint64_t cpu_mark_ns = 0;  ///< measured mode: CPU time at the last charge
  double key = -1;                ///< its entry in the ready set, or -1
  std::vector<std::string> arguments;
  std::vector<char*> argv;
};

class world {
 public:
  /// The job of this process (one per process), or nullptr before it starts.
  static world* current() noexcept { return current_; }

  /// Run a job of `procs` processors, each calling the program's main with
  /// `argv`, to its end (a failing processor ends the process itself).
  static void run(int procs, int argc, char** argv);

  proc_t running() const noexcept { return running_; }
  int procs() const noexcept { return procs_; }
  segment_window& segments() noexcept { return segments_; }
  const machine_model& machine() const noexcept { return machine_; }

  // ---- called by the running processor (sim_backend) -------------------------------
  void send(proc_t to, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
            const void* src, std::size_t len, void* dst);
  int poll(am_sink sink);
  void wait_idle(const char* what);
  void bootstrap_barrier(am_sink sink);
  double clock_ns(proc_t p) const noexcept { return procs_state_[p].clock_ns; }

 private:
  world(int procs, int argc, char** argv);
  ~world();

  void schedule();  // the scheduler loop, until every processor has finished
  void start_fiber(proc_t p);
  void resume(proc_t p);
  void yield(run_state state, const char* what);
  void charge_computation();
  void set_ready(proc_t p, double key);
  void unset_ready(proc_t p);
  bool ahead_of_others() const noexcept;
  double wake_time(const processor& p) const noexcept;
  /// Every processor waits with nothing in flight, or (`polling_forever`) the
  /// running ones only poll and nothing is sent: name each processor's state, end the job.
  [[noreturn]] void report_deadlock(bool polling_forever);
  void note_activity() noexcept { empty_polls_ = 0; }
  void trace(const in_flight& m, proc_t to);

  static world* current_;

  int procs_;
  machine_model machine_;
  bool measured_;
  double call_ns_;
  double lookahead_ns_;
  segment_window segments_;
  std::size_t stack_size_;
  std::vector<processor> procs_state_;
  std::set<std::pair<double, proc_t>> ready_;
  proc_t running_ = -1;
  std::mt19937_64 random_;
  std::uint64_t sequence_ = 0;
  std::uint64_t empty_polls_ = 0;
  int in_barrier_ = 0;
  std::uint64_t barrier_epoch_ = 0;
  int finished_ = 0;
  // fault injection (fractions of packets) and its times
  double drop_, duplicate_, reorder_, delay_, delay_ns_, retransmit_ns_;
  std::FILE* trace_ = nullptr;
  fault_report faults_{};
};

}  // namespace splitc::backends::sim
