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

#include <splitc/sim_engine/fiber_stacks.hpp>
#include <splitc/sim_engine/machine_model.hpp>
#include <splitc/sim_engine/segment_arena.hpp>

#include <splitc/port/am.hpp>
#include <splitc/sim_engine.h>

#include <fmt/format.h>

#include <boost/context/fiber.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace splitc::backends::sim {

/// An error of an emulated layer's call into the engine: "splitc: processor
/// N of P: sim: <what>" (the running processor, also in a plain C program,
/// which has no splitc context), and the job ends.
template <class... Args>
[[noreturn, gnu::cold]] void engine_fail(fmt::format_string<Args...> format, Args&&... args) {
  const std::string what = fmt::format(format, std::forward<Args>(args)...);
  splitc_sim_fail("sim", what.c_str());
}

/// A message on the simulated wire: the sim backend's active messages, an
/// emulated layer's raw packets (sim_engine.h: payload only), or a one-sided
/// put (payload, landing at `offset` in the target's segment).
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
  std::size_t offset = 0;  ///< one-sided puts: where in the target's segment
  std::size_t charged_bytes = 0;  ///< packets: the payload bytes the model charges (send_packet)
};

struct arrives_later {
  bool operator()(const in_flight& a, const in_flight& b) const noexcept {
    return a.arrival_ns > b.arrival_ns || (a.arrival_ns == b.arrival_ns && a.sequence > b.sequence);
  }
};

/// Arrived or in flight, earliest first; `in_flight_items` shows all of them, in no order.
class inbox_queue : public std::priority_queue<in_flight, std::vector<in_flight>, arrives_later> {
 public:
  const std::vector<in_flight>& in_flight_items() const noexcept { return c; }
};

/// What a processor can receive: the sim backend's messages (queue 0), the
/// channels of an emulated layer (1 .. max_channels), one-sided puts (last).
inline constexpr int max_channels = 8;
inline constexpr int am_queue = 0;
inline constexpr int put_queue = max_channels + 1;
inline constexpr int queues = max_channels + 2;
/// processor::occupied's bit for its alarms.
inline constexpr int alarms_bit = queues;
static_assert(alarms_bit < 32);

/// An emulated layer's channel (sim_engine.h: splitc_sim_channel).
struct channel {
  std::string name;
  bool ordered;
  bool unreliable;
};

enum class run_state : std::uint8_t {
  runnable,          ///< ready at its clock
  waiting,           ///< suspended until a message arrives (or the bootstrap barrier ends)
  finished,          ///< returned from main
};

/// The processors that may run, earliest key (virtual time) first, then by number.
using ready_set = std::set<std::pair<double, proc_t>>;

struct processor {
  boost::context::fiber fiber;      ///< the suspended processor (empty while it runs)
  boost::context::fiber scheduler;  ///< while it runs: where a yield returns to
  run_state state = run_state::runnable;
  /// Bit q set while inbox[q] holds a message, bit alarms_bit while an alarm is set: what a
  /// wake-up time or a poll looks at first, beside the state and clock it reads anyway, so that
  /// it reads no queue that is empty (a processor's ten queues and their vectors span four
  /// cache lines, which at a thousand processors are seldom in the cache). Kept by the helpers
  /// at the top of world.cpp, the only code that changes the queues and the alarms.
  std::uint32_t occupied = 0;
  double clock_ns = 0;
  double next_send_ns = 0;  ///< the gap: no send starts before this
  inbox_queue inbox[queues];
  const char* waiting_for = "";
  void* runtime_state = nullptr;  ///< the runtime's state while suspended (the switch hooks')
  bool in_barrier = false;  ///< in the bootstrap barrier
  bool in_exchange = false;  ///< in a control-network exchange
  /// A layer's wake-ups without a packet (splitc_sim_wake), earliest first: each ends a
  /// wait at its time, and a wait that returns consumes those due by then.
  std::priority_queue<double, std::vector<double>, std::greater<>> alarms;
  /// The channel whose last receive took a packet, with nothing else since (or -1): the
  /// check that then finds it empty ends the same receive, whose cost o_r already holds.
  int received_on = -1;
  std::uint64_t cpu_mark_ns = 0;  ///< measured mode: CPU time at the last charge
  double key = -1;                ///< its entry in the ready set, or -1
  ready_set::iterator ready_entry;  ///< that entry, while key >= 0 (erased without a search)
  std::vector<std::string> arguments;
  std::vector<char*> argv;
};

class world {
 public:
  /// The job of this process (one per process), or nullptr before it starts.
  static world* current() noexcept { return current_; }
  /// The runtime's switch hooks (splitc_sim_set_switch_hooks); all null until installed.
  static splitc_sim_switch_hooks switch_hooks;

  /// Run a job of `procs` processors, each calling the program's main with
  /// `argv`, to its end (a failing processor ends the process itself).
  static void run(int procs, int argc, char** argv);
  /// Run the job of SPLITC_PROCS processors (1 when unset) and exit with
  /// status 0: what the program's own main does on its first call into the
  /// sim backend or an emulation on the engine.
  [[noreturn]] static void run_job_and_exit(int argc, char** argv);

  proc_t running() const noexcept { return running_; }
  int procs() const noexcept { return procs_; }
  segment_arena& segments() noexcept { return segments_; }
  const machine_model& machine() const noexcept { return machine_; }

  // ---- called by the running processor (sim_backend) -------------------------------
  void send(proc_t to, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
            const void* src, std::size_t len, void* dst);
  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);
  double clock_ns(proc_t p) const noexcept { return procs_state_[p].clock_ns; }
  /// The running processor reads its clock (a program's timer): a loop that then polls
  /// for a while may be a timed one, not a deadlock (polled_in_vain).
  double read_clock_ns() noexcept {
    clock_read_ = true;
    return procs_state_[running_].clock_ns;
  }

  // ---- called by the running processor (an emulated layer: sim_engine.cpp) --------------
  int open_channel(const char* name, bool ordered, bool unreliable);
  /// A packet of `len` bytes, charged as a message of `charged_bytes` payload bytes; with
  /// `stream_data`, a data packet of a layer's stream: those bytes alone, no o_s and no
  /// library call's computation.
  void send_packet(int channel, proc_t to, const void* data, std::size_t len,
                   std::size_t charged_bytes, bool stream_data = false);
  /// The next arrived packet of `channel`, moved out; false (charging a poll) when none.
  bool receive_packet(int channel, in_flight& out);
  void wait_any(const char* what);
  void wake(proc_t p, double at_ns);
  void charge(double ns) { procs_state_[running_].clock_ns += ns; }
  void exchange(const void* mine, std::size_t len, void* all, double cost_ns);
  void put(proc_t to, std::size_t offset, const void* src, std::size_t len);
  void get(proc_t from, std::size_t offset, void* dst, std::size_t len);
  void land_puts();

 private:
  world(int procs, int argc, char** argv);
  ~world();

  void schedule();  // the scheduler loop, until every processor has finished
  void start_fiber(proc_t p);
  void resume(proc_t p);
  void yield(run_state state, const char* what);
  /// The computation before a call: SPLITC_SIM_CALL_NS in deterministic time (not for an
  /// emulated layer's receive from its network, `library_call` false), the CPU time the fiber
  /// used in measured time.
  void charge_computation(bool library_call = true);
  void set_ready(proc_t p, double key);
  void unset_ready(proc_t p);
  /// The ready set's changes, which keep front_ its first entries.
  ready_set::iterator ready_insert(double key, proc_t p);
  void ready_erase(ready_set::iterator entry);
  bool ahead_of_others() const noexcept;
  double wake_time(const processor& p) const noexcept;
  bool arrived(const processor& p) const noexcept;
  /// Charge a send of `len` payload bytes at `cost` to the running processor; its arrival time at `to`.
  double charge_send(const loggp& cost, proc_t to, std::size_t len, bool stream_data = false);
  /// The wire's faults on one packet: its arrival time, and whether it is lost / duplicated.
  struct fate {
    double arrival_ns;
    bool lost;
    bool duplicated;
  };
  fate faults(proc_t to, double arrival, bool reorderable, bool unreliable);
  void enqueue(proc_t to, int queue, in_flight&& m);
  /// Land p's puts that arrived by its clock (or by `until_ns`); how many.
  int land_puts(proc_t p);
  int land_puts(proc_t p, double until_ns);
  void check_segment_range(const char* what, proc_t p, std::size_t offset, std::size_t len);
  /// Every processor waits with nothing in flight, or (`polling_forever`) the
  /// running ones only poll and nothing is sent: name each processor's state, end the job.
  [[noreturn]] void report_deadlock(bool polling_forever);
  void note_activity() noexcept {
    empty_polls_ = 0;
    clock_read_ = false;
  }
  /// Count an empty poll; true when polls have found nothing for long enough to call it stuck.
  bool polled_in_vain(const processor& me) noexcept;
  void trace(const in_flight& m, proc_t to);

  static world* current_;

  int procs_;
  machine_model machine_;
  bool measured_;
  double call_ns_;
  double lookahead_ns_;
  segment_arena segments_;
  std::size_t stack_size_;
  std::vector<processor> procs_state_;
  ready_set ready_;
  /// Processors the scheduler chooses among, at most (the earliest ones).
  static constexpr int max_choices = 16;
  /// The ready set's first min(max_choices, size) entries in order, each value copied beside
  /// its position: a scheduling decision reads these, not the tree.
  struct front_entry {
    ready_set::value_type value;  ///< (key, processor)
    ready_set::iterator entry;
  };
  front_entry front_[max_choices];
  int front_size_ = 0;
  proc_t running_ = -1;
  std::mt19937_64 random_;
  std::uint64_t sequence_ = 0;
  std::uint64_t empty_polls_ = 0;
  double quiet_since_ns_ = 0;  ///< virtual time of the first of the empty polls counted
  bool clock_read_ = false;    ///< a processor read its clock since the last activity
  int in_barrier_ = 0;
  std::uint64_t barrier_epoch_ = 0;
  std::vector<channel> channels_;
  /// Ordered channels and puts: the last arrival time per (channel, source, target).
  std::unordered_map<std::uint64_t, double> last_arrival_;
  // the control network (exchange): contributions of the current and the previous round
  std::vector<std::byte> exchange_data_[2];
  std::size_t exchange_len_ = 0;
  int in_exchange_ = 0;
  std::uint64_t exchange_epoch_ = 0;
  int finished_ = 0;
  // fault injection (fractions of packets) and its times
  double drop_, duplicate_, reorder_, delay_, delay_ns_, retransmit_ns_;
  std::FILE* trace_ = nullptr;
  fault_report faults_{};
};

}  // namespace splitc::backends::sim
