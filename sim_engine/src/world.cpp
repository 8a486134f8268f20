// The simulated job (world.hpp): fibers, clocks, the wire, the scheduler,
// and the reports of a job that cannot go on.
#include <splitc/sim_engine/world.hpp>

#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>

#include <fmt/format.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>

/// The program's own main, which every processor runs (as the processes of
/// the other backends do). An assembler name, because C++ may not name main.
int splitc_sim_program_main(int argc, char** argv) __asm__("main");

namespace splitc::backends::sim {

world* world::current_ = nullptr;  // per process: the one job it runs
splitc_sim_switch_hooks world::switch_hooks{};  // per process: installed by the runtime

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// processor::occupied mirrors which of p's queues hold something: the four functions below are
// the only code that adds to or takes from the queues and the alarms, and each keeps the bits.

/// Queue m for p on queue q.
void put_in(processor& p, int q, in_flight&& m) {
  p.inbox[q].push(std::move(m));
  p.occupied |= 1u << q;
}

/// A wake-up for p at `at_ns` (splitc_sim_wake).
void set_alarm(processor& p, double at_ns) {
  p.alarms.push(at_ns);
  p.occupied |= 1u << alarms_bit;
}

/// The wake-ups due by p's clock are spent (a wait of p returns: splitc_sim_wake).
void spend_alarms(processor& p) {
  if ((p.occupied & (1u << alarms_bit)) == 0) return;
  while (!p.alarms.empty() && p.alarms.top() <= p.clock_ns) p.alarms.pop();
  if (p.alarms.empty()) p.occupied &= ~(1u << alarms_bit);
}

/// Take the earliest message of p's queue q, keeping p.occupied.
in_flight take_first(processor& p, int q) {
  inbox_queue& inbox = p.inbox[q];
  in_flight m = std::move(const_cast<in_flight&>(inbox.top()));
  inbox.pop();
  if (inbox.empty()) p.occupied &= ~(1u << q);
  return m;
}

/// Whether p's queue q holds a message that has arrived by `until_ns`.
bool arrived_in(const processor& p, int q, double until_ns) noexcept {
  return (p.occupied & (1u << q)) != 0 && p.inbox[q].top().arrival_ns <= until_ns;
}

/// Polls that find nothing, job-wide, with no message sent or delivered in
/// between, after which the job is declared stuck -- unless a processor read
/// its clock since: then it may be in a timed loop (the bench's empty loop on a
/// machine of cheap polls), and only this much virtual time of it is stuck.
constexpr std::uint64_t stuck_polls = 20'000'000;
constexpr double stuck_timed_ns = 60e9;

std::uint64_t thread_cpu_ns() noexcept {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec);
}

double fraction(const port::env_var<port::env_type::number>& v) {
  const double f = v.get();
  if (f >= 1.0) port::fail("{}={} is not a fraction below 1", v.name, f);
  return f;
}

/// At exit: a processor that ends the process names itself (the scheduler's
/// own exit, at the end of the job, says nothing).
void on_process_exit(int status, void*) {
  world* w = world::current();
  if (w == nullptr || w->running() < 0) return;
  if (status != 0) {
    std::fflush(stdout);
    const std::string line = fmt::format("splitc: processor {} of {}: exit status {}; ending the job\n",
                                         w->running(), w->procs(), status);
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
    return;
  }
  // exit(0) before finalize leaves the others waiting: the same error as a return.
  if (world::switch_hooks.ended != nullptr) world::switch_hooks.ended();
}

}  // namespace

world::world(int procs, int argc, char** argv)
    : procs_(procs),
      machine_(selected_machine()),
      measured_(port::env::sim_time.get() == "measured"),
      call_ns_(port::env::sim_call_ns.get(30 * 1000.0 / selected_machine().cpu_mhz)),
      lookahead_ns_(machine_.least_latency_ns()),
      segments_(procs),
      stack_size_(port::env::sim_stack_size.get()),
      procs_state_(static_cast<std::size_t>(procs)),
      random_(static_cast<std::uint64_t>(port::env::sim_seed.get())),
      drop_(fraction(port::env::sim_drop)),
      duplicate_(fraction(port::env::sim_duplicate)),
      reorder_(fraction(port::env::sim_reorder)),
      delay_(fraction(port::env::sim_delay)),
      delay_ns_(port::env::sim_delay_ns.get(10 * machine_.base_latency_ns())),
      retransmit_ns_(port::env::sim_retransmit_ns.get(20 * machine_.base_latency_ns())) {
  if (stack_size_ < 64 * 1024)
    port::fail("SPLITC_SIM_STACK_SIZE={} is too small: a processor needs at least 64 KiB",
                 stack_size_);
  if (const auto path = port::env::sim_trace.value()) {
    trace_ = std::fopen(std::string(*path).c_str(), "w");
    if (trace_ == nullptr)
      port::fail("SPLITC_SIM_TRACE={}: cannot write it: {}", *path, std::strerror(errno));
  }
  for (auto& p : procs_state_) {
    p.arguments.assign(argv, argv + argc);
    for (auto& a : p.arguments) p.argv.push_back(a.data());
    p.argv.push_back(nullptr);
  }
  faults_ = {&running_, procs, stack_size_};
  install_fault_handler(&faults_);
  on_exit(on_process_exit, nullptr);
}

world::~world() {
  if (trace_ != nullptr) std::fclose(trace_);
}

void world::run(int procs, int argc, char** argv) {
  current_ = new world(procs, argc, argv);
  for (proc_t p = 0; p < procs; ++p) {
    current_->start_fiber(p);
    current_->set_ready(p, 0);
  }
  current_->schedule();
  std::fflush(nullptr);
  delete current_;
  current_ = nullptr;
}

void world::run_job_and_exit(int argc, char** argv) {
  const int procs = port::env::procs.is_set() ? static_cast<int>(port::env::procs.get()) : 1;
  std::fflush(nullptr);
  run(procs, argc, argv);
  std::exit(0);
}

void world::start_fiber(proc_t p) {
  procs_state_[p].fiber = boost::context::fiber(
      std::allocator_arg, guarded_stack{stack_size_}, [this, p](boost::context::fiber&& sched) {
        processor& me = procs_state_[p];
        me.scheduler = std::move(sched);
        const int status = splitc_sim_program_main(static_cast<int>(me.argv.size()) - 1,
                                                   me.argv.data());
        if (status != 0) std::exit(status);  // names the processor (on_process_exit)
        if (switch_hooks.ended != nullptr) switch_hooks.ended();
        me.state = run_state::finished;
        return std::move(me.scheduler);
      });
}

// ---- the scheduler ------------------------------------------------------------------------

void world::set_ready(proc_t p, double key) {
  processor& q = procs_state_[p];
  if (q.key == key) return;  // already there
  if (q.key >= 0) ready_erase(q.ready_entry);
  q.key = key;
  q.ready_entry = ready_insert(key, p);
}

void world::unset_ready(proc_t p) {
  processor& q = procs_state_[p];
  if (q.key < 0) return;
  ready_erase(q.ready_entry);
  q.key = -1;
}

ready_set::iterator world::ready_insert(double key, proc_t p) {
  const ready_set::value_type value{key, p};
  const auto entry = ready_.insert(value).first;
  // Below max_choices entries the front is the whole set; beyond, the new entry enters it only
  // ahead of its last entry, which then leaves it.
  int j;
  if (front_size_ < max_choices) {
    j = front_size_++;
  } else if (value < front_[max_choices - 1].value) {
    j = max_choices - 1;
  } else {
    return entry;
  }
  for (; j > 0 && value < front_[j - 1].value; --j) front_[j] = front_[j - 1];
  front_[j] = {value, entry};
  return entry;
}

void world::ready_erase(ready_set::iterator entry) {
  const int last = front_size_ - 1;
  if (last < 0 || front_[last].value < *entry) {
    ready_.erase(entry);  // beyond the front
    return;
  }
  int j = 0;
  while (front_[j].entry != entry) ++j;
  const auto after = std::next(front_[last].entry);  // the set's next entry beyond the front
  for (; j < last; ++j) front_[j] = front_[j + 1];
  --front_size_;
  ready_.erase(entry);
  if (after != ready_.end()) front_[front_size_++] = {*after, after};
}

double world::wake_time(const processor& p) const noexcept {
  double first = infinity;
  for (std::uint32_t bits = p.occupied; bits != 0; bits &= bits - 1) {
    const int q = std::countr_zero(bits);
    first = std::min(first, q == alarms_bit ? p.alarms.top() : p.inbox[q].top().arrival_ns);
  }
  return first == infinity ? infinity : std::max(p.clock_ns, first);
}

bool world::arrived(const processor& p) const noexcept { return wake_time(p) <= p.clock_ns; }

void world::schedule() {
  while (finished_ < procs_) {
    if (ready_.empty()) report_deadlock(false);
    // Everyone within one latency of the earliest may run: nothing can
    // reach them in their past. The seed picks among them.
    const double limit = front_[0].value.first + lookahead_ns_;
    proc_t choices[max_choices];
    int n = 0;
    for (; n < front_size_; ++n) {
      if (n > 0 && front_[n].value.first >= limit) break;
      choices[n] = front_[n].value.second;
    }
    resume(choices[n == 1 ? 0 : random_() % static_cast<std::uint64_t>(n)]);
  }
}

void world::resume(proc_t p) {
  processor& me = procs_state_[p];
  const double key = me.key;
  unset_ready(p);
  if (me.state == run_state::waiting) {  // woken by a message (or the barrier's end)
    me.clock_ns = std::max(me.clock_ns, key);
    me.state = run_state::runnable;
    spend_alarms(me);
  }
  running_ = p;
  land_puts(p);
  if (switch_hooks.restore != nullptr) switch_hooks.restore(me.runtime_state);
  if (measured_) me.cpu_mark_ns = thread_cpu_ns();
  me.fiber = std::move(me.fiber).resume();
  me.runtime_state = switch_hooks.save != nullptr ? switch_hooks.save() : nullptr;
  running_ = -1;
  switch (me.state) {
    case run_state::runnable: set_ready(p, me.clock_ns); break;
    case run_state::waiting:
      if (wake_time(me) != infinity) set_ready(p, wake_time(me));
      break;
    case run_state::finished: ++finished_; break;
  }
}

void world::yield(run_state state, const char* what) {
  processor& me = procs_state_[running_];
  me.state = state;
  me.waiting_for = what;
  me.scheduler = std::move(me.scheduler).resume();
}

bool world::ahead_of_others() const noexcept {
  if (ready_.empty()) return false;
  return procs_state_[running_].clock_ns > ready_.begin()->first + lookahead_ns_;
}

void world::charge_computation(bool library_call) {
  processor& me = procs_state_[running_];
  if (measured_) {
    const std::uint64_t now = thread_cpu_ns();
    me.clock_ns += static_cast<double>(now - me.cpu_mark_ns);
    me.cpu_mark_ns = now;
  } else if (library_call) {
    me.clock_ns += call_ns_;
  }
  if (library_call) me.received_on = -1;
}

// ---- the wire -----------------------------------------------------------------------------

double world::charge_send(const loggp& cost, proc_t to, std::size_t len, bool stream_data) {
  charge_computation(!stream_data);
  processor& me = procs_state_[running_];
  const double start = std::max(me.clock_ns, me.next_send_ns);
  me.clock_ns = start + (stream_data ? 0.0 : cost.send_overhead_ns) +
                static_cast<double>(len) * cost.ns_per_byte;
  me.next_send_ns = std::max(start + cost.gap_ns, me.clock_ns);
  return me.clock_ns + (to == running_ ? 0.0 : cost.latency_ns);
}

world::fate world::faults(proc_t to, double arrival, bool reorderable, bool unreliable) {
  fate f{arrival, false, false};
  if (to == running_) return f;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if (drop_ > 0) {
    if (unreliable)
      f.lost = u(random_) < drop_;
    else
      while (u(random_) < drop_) f.arrival_ns += retransmit_ns_;  // lost, sent again
  }
  if (delay_ > 0 && u(random_) < delay_) f.arrival_ns += u(random_) * delay_ns_;
  if (reorderable && reorder_ > 0 && u(random_) < reorder_) f.arrival_ns += u(random_) * delay_ns_;
  f.duplicated = duplicate_ > 0 && u(random_) < duplicate_;
  return f;
}

void world::enqueue(proc_t to, int queue, in_flight&& m) {
  processor& target = procs_state_[to];
  put_in(target, queue, std::move(m));
  if (target.state == run_state::waiting && to != running_) set_ready(to, wake_time(target));
  note_activity();
}

void world::send(proc_t to, bool is_request, am_kind kind, handler_id h, const am_word* a, int n,
                 const void* src, std::size_t len, void* dst) {
  const loggp& cost = machine_.costs(message_kind::active, len);
  const fate f = faults(to, charge_send(cost, to, len), true, false);
  in_flight m{f.arrival_ns, sequence_++, running_, h, kind, is_request, false, n, {}, dst, {}};
  std::copy_n(a, n, m.args);
  if (len != 0) {
    m.payload.resize(len);
    std::memcpy(m.payload.data(), src, len);
  }
  if (f.duplicated)  // the layer's sequence numbers discard the copy
    enqueue(to, am_queue, in_flight{f.arrival_ns + cost.latency_ns, sequence_++, running_, h,
                                    kind, is_request, true, 0, {}, nullptr, {}});
  enqueue(to, am_queue, std::move(m));
  if (measured_) procs_state_[running_].cpu_mark_ns = thread_cpu_ns();
}

int world::poll(am_sink sink) {
  charge_computation();
  if (ahead_of_others()) yield(run_state::runnable, "");
  processor& me = procs_state_[running_];
  land_puts(running_);
  int delivered = 0;
  while (arrived_in(me, am_queue, me.clock_ns)) {
    in_flight m = take_first(me, am_queue);
    me.clock_ns = std::max(me.clock_ns, m.arrival_ns) +
                  machine_.costs(message_kind::active, m.payload.size()).receive_overhead_ns;
    note_activity();
    if (m.wire_copy) continue;  // the layer's sequence numbers discard it
    void* payload = m.payload.data();
    if (m.kind == am_kind::long_msg) {
      if (!m.payload.empty()) std::memcpy(m.destination, m.payload.data(), m.payload.size());
      payload = m.destination;
    }
    if (trace_ != nullptr) trace(m, running_);
    const am_message message{m.source, m.handler, m.kind, m.is_request, m.nargs, m.args,
                             payload, m.payload.size()};
    sink.deliver(sink.context, message);
    ++delivered;
  }
  if (delivered == 0) {
    me.clock_ns += machine_.poll_ns;
    if (polled_in_vain(me)) report_deadlock(true);
  }
  if (measured_) me.cpu_mark_ns = thread_cpu_ns();
  return delivered;
}

void world::bootstrap_barrier(am_sink sink) {
  processor& me = procs_state_[running_];
  me.in_barrier = true;
  const std::uint64_t epoch = barrier_epoch_;
  if (++in_barrier_ == procs_) {
    // The last to arrive: everyone leaves at the latest arrival's time.
    double t = 0;
    for (const auto& q : procs_state_) t = std::max(t, q.clock_ns);
    for (proc_t p = 0; p < procs_; ++p) {
      processor& q = procs_state_[p];
      q.in_barrier = false;
      q.clock_ns = t;
      if (p == running_) continue;
      q.state = run_state::runnable;
      set_ready(p, t);
    }
    in_barrier_ = 0;
    ++barrier_epoch_;
    return;
  }
  // Messages still in flight are delivered while waiting, as on every backend.
  while (barrier_epoch_ == epoch) {
    if (poll(sink) == 0 && barrier_epoch_ == epoch) yield(run_state::waiting, "the bootstrap barrier");
  }
}

// ---- an emulated layer's wire (sim_engine.h) ------------------------------------------

int world::open_channel(const char* name, bool ordered, bool unreliable) {
  for (std::size_t i = 0; i < channels_.size(); ++i) {
    if (channels_[i].name != name) continue;
    if (channels_[i].ordered != ordered || channels_[i].unreliable != unreliable)
      engine_fail("channel '{}' opened with other flags than before", name);
    return static_cast<int>(i);
  }
  if (channels_.size() == max_channels)
    engine_fail("channel '{}': a job has at most {} channels", name, max_channels);
  channels_.push_back({name, ordered, unreliable});
  return static_cast<int>(channels_.size()) - 1;
}

namespace {
std::uint64_t pair_key(int queue, proc_t from, proc_t to, int procs) {
  return (static_cast<std::uint64_t>(queue) * static_cast<std::uint64_t>(procs) +
          static_cast<std::uint64_t>(from)) * static_cast<std::uint64_t>(procs) +
         static_cast<std::uint64_t>(to);
}
}  // namespace

void world::send_packet(int ch, proc_t to, const void* data, std::size_t len,
                        std::size_t charged_bytes, bool stream_data) {
  const channel& c = channels_.at(static_cast<std::size_t>(ch));
  const loggp& cost = machine_.costs(message_kind::packet, charged_bytes);
  fate f = faults(to, charge_send(cost, to, charged_bytes, stream_data), !c.ordered,
                  c.unreliable);
  const int queue = ch + 1;
  if (c.ordered) {  // never before the previous packet of this pair
    double& last = last_arrival_[pair_key(queue, running_, to, procs_)];
    f.arrival_ns = std::max(f.arrival_ns, last);
    last = f.arrival_ns;
  }
  auto packet = [&](double arrival) {
    in_flight m{arrival, sequence_++, running_, handler_id{}, am_kind::medium_msg, true, false, 0, {}, nullptr, {}};
    m.payload.resize(len);
    if (len != 0) std::memcpy(m.payload.data(), data, len);
    m.charged_bytes = charged_bytes;
    return m;
  };
  // A reliable channel's duplicates are the layer's to discard: only an unreliable one shows them.
  if (!f.lost) enqueue(to, queue, packet(f.arrival_ns));
  if (f.duplicated && c.unreliable) enqueue(to, queue, packet(f.arrival_ns + cost.latency_ns));
  if (measured_) procs_state_[running_].cpu_mark_ns = thread_cpu_ns();
}

bool world::receive_packet(int ch, in_flight& out) {
  if (ch < 0 || static_cast<std::size_t>(ch) >= channels_.size())
    engine_fail("receive on channel {}, which is not open", ch);
  // An emulated layer's look at its network, one of the several checks of its own poll: what it
  // costs is the machine's, the poll or the receive overhead (docs/sim-machines.md).
  charge_computation(false);
  if (ahead_of_others()) yield(run_state::runnable, "");
  processor& me = procs_state_[running_];
  land_puts(running_);
  bool got = false;
  if (arrived_in(me, ch + 1, me.clock_ns)) {
    out = take_first(me, ch + 1);
    me.clock_ns = std::max(me.clock_ns, out.arrival_ns) +
                  machine_.costs(message_kind::packet, out.charged_bytes).receive_overhead_ns;
    note_activity();
    me.received_on = ch;
    got = true;
  } else if (me.received_on == ch) {
    // The look that ends a sweep of this channel after a packet: part of that packet's
    // receive, whose overhead the model took from the seed's measurement of whole receives.
    me.received_on = -1;
  } else {
    me.clock_ns += machine_.poll_ns;
    if (polled_in_vain(me)) report_deadlock(true);
  }
  if (measured_) me.cpu_mark_ns = thread_cpu_ns();
  return got;
}

void world::wait_any(const char* what) {
  charge_computation();
  // Puts that land now have changed this processor's memory: what it waits for may be there.
  processor& me = procs_state_[running_];
  if (land_puts(running_) > 0 || arrived(me)) {
    spend_alarms(me);
    return;
  }
  yield(run_state::waiting, what);
  land_puts(running_);
}

void world::wake(proc_t p, double at_ns) {
  if (p < 0 || p >= procs_)
    engine_fail("splitc_sim_wake: processor {} does not exist (the job has 0..{})", p, procs_ - 1);
  processor& q = procs_state_[p];
  set_alarm(q, at_ns);
  if (q.state == run_state::waiting && p != running_) set_ready(p, wake_time(q));
}

void world::exchange(const void* mine, std::size_t len, void* all, double cost_ns) {
  charge_computation();
  processor& me = procs_state_[running_];
  const std::uint64_t epoch = exchange_epoch_;
  std::vector<std::byte>& round = exchange_data_[epoch % 2];
  if (in_exchange_ == 0) {
    exchange_len_ = len;
    round.assign(len * static_cast<std::size_t>(procs_), std::byte{0});
  } else if (len != exchange_len_) {
    engine_fail("control network: processor {} contributes {} bytes where the others gave {}",
                 running_, len, exchange_len_);
  }
  if (len != 0) std::memcpy(round.data() + len * static_cast<std::size_t>(running_), mine, len);
  me.in_exchange = true;
  if (++in_exchange_ == procs_) {
    // The last to arrive: everyone leaves at the latest arrival's time plus the network's cost.
    double t = 0;
    for (const auto& q : procs_state_) t = std::max(t, q.clock_ns);
    t += cost_ns;
    for (proc_t p = 0; p < procs_; ++p) {
      processor& q = procs_state_[p];
      q.in_exchange = false;
      q.clock_ns = t;
      if (p == running_) continue;
      q.state = run_state::runnable;
      set_ready(p, t);
    }
    in_exchange_ = 0;
    ++exchange_epoch_;
  }
  while (exchange_epoch_ == epoch) yield(run_state::waiting, "the control network");
  if (len != 0) std::memcpy(all, round.data(), len * static_cast<std::size_t>(procs_));
  if (measured_) me.cpu_mark_ns = thread_cpu_ns();
}

void world::put(proc_t to, std::size_t offset, const void* src, std::size_t len) {
  check_segment_range("put to", to, offset, len);
  double arrival = charge_send(machine_.costs(message_kind::put, len), to, len);
  double& last = last_arrival_[pair_key(put_queue, running_, to, procs_)];
  arrival = std::max(arrival, last);  // successive puts to one target land in order
  last = arrival;
  in_flight m{arrival, sequence_++, running_, handler_id{}, am_kind::long_msg, true, false, 0, {}, nullptr, {}};
  m.payload.resize(len);
  if (len != 0) std::memcpy(m.payload.data(), src, len);
  m.offset = offset;
  if (to == running_) {
    segments_.write(to, offset, m.payload.data(), len);
    return;
  }
  enqueue(to, put_queue, std::move(m));
  if (measured_) procs_state_[running_].cpu_mark_ns = thread_cpu_ns();
}

void world::get(proc_t from, std::size_t offset, void* dst, std::size_t len) {
  check_segment_range("get from", from, offset, len);
  // The request crosses the network, the data comes back: no processor of the target's involved.
  const loggp& cost = machine_.costs(message_kind::get, len);
  double request_arrives = charge_send(cost, from, 0);
  if (from != running_) {
    // One processor's one-sided operations to one target arrive in order: a get does not
    // overtake a put before it (a model may cost puts slower than gets; emulations/t3d's
    // quiet is a get behind the puts).
    const auto last = last_arrival_.find(pair_key(put_queue, running_, from, procs_));
    if (last != last_arrival_.end()) request_arrives = std::max(request_arrives, last->second);
  }
  processor& me = procs_state_[running_];
  segments_.read(from, offset, dst, len);
  // What reached the target before the request did, over what its memory holds -- without
  // landing it there: the target may not have run that far, and a put landed early would
  // come before its own earlier writes (a mailbox slot it clears after the put arrived).
  std::vector<const in_flight*> arrived;
  for (const in_flight& m : procs_state_[from].inbox[put_queue].in_flight_items())
    if (m.arrival_ns <= request_arrives && m.offset < offset + len && m.offset + m.payload.size() > offset)
      arrived.push_back(&m);
  std::sort(arrived.begin(), arrived.end(),
            [](const in_flight* a, const in_flight* b) { return arrives_later{}(*b, *a); });
  for (const in_flight* m : arrived) {
    const std::size_t from_byte = std::max(m->offset, offset);
    const std::size_t to_byte = std::min(m->offset + m->payload.size(), offset + len);
    std::memcpy(static_cast<std::byte*>(dst) + (from_byte - offset),
                m->payload.data() + (from_byte - m->offset), to_byte - from_byte);
  }
  note_activity();  // traffic: a loop of gets while the others poll is no deadlock
  me.clock_ns = std::max(me.clock_ns, request_arrives + static_cast<double>(len) * cost.ns_per_byte +
                                          (from == running_ ? 0.0 : cost.latency_ns));
  if (measured_) me.cpu_mark_ns = thread_cpu_ns();
}

void world::land_puts() { land_puts(running_); }

int world::land_puts(proc_t p) { return land_puts(p, procs_state_[p].clock_ns); }

int world::land_puts(proc_t p, double until_ns) {
  processor& target = procs_state_[p];
  int landed = 0;
  while (arrived_in(target, put_queue, until_ns)) {
    const in_flight m = take_first(target, put_queue);
    segments_.write(p, m.offset, m.payload.data(), m.payload.size());
    note_activity();
    ++landed;
  }
  return landed;
}

bool world::polled_in_vain(const processor& me) noexcept {
  if (++empty_polls_ == 1) quiet_since_ns_ = me.clock_ns;
  return empty_polls_ > stuck_polls && (!clock_read_ || me.clock_ns - quiet_since_ns_ >= stuck_timed_ns);
}

void world::check_segment_range(const char* what, proc_t p, std::size_t offset, std::size_t len) {
  if (p < 0 || p >= procs_)
    engine_fail("{} processor {}: no such processor (the job has {})", what, p, procs_);
  const std::size_t size = segments_.size();
  if (offset > size || len > size - offset)
    engine_fail("{} processor {}: bytes {}..{} lie outside its segment of {} bytes", what, p,
                 offset, offset + len, size);
}

void world::trace(const in_flight& m, proc_t to) {
  static constexpr const char* kinds[] = {"short", "medium", "long"};
  std::fprintf(trace_, "%.1f %d %d %u %s %s %zu\n", procs_state_[to].clock_ns, m.source, to,
               static_cast<unsigned>(m.handler), m.is_request ? "request" : "reply",
               kinds[static_cast<int>(m.kind)], m.payload.size());
}

// ---- a job that cannot go on ----------------------------------------------------------

void world::report_deadlock(bool polling_forever) {
  std::fflush(stdout);
  double latest = 0;
  for (const auto& q : procs_state_) latest = std::max(latest, q.clock_ns);
  std::string text;
  if (!polling_forever)
    text = fmt::format(
        "splitc: sim: deadlock at virtual time {:.0f} ns: every processor waits and no message "
        "is in flight to any of them\n",
        latest);
  else
    text = fmt::format(
        "splitc: sim: no progress: {} polls found nothing and no message was sent for {:.1f} s "
        "(virtual time {:.0f} ns); the processors poll for messages that cannot come\n",
        empty_polls_, (latest - quiet_since_ns_) * 1e-9, latest);
  // One line per state, naming its processors as ranges.
  std::map<std::string, std::vector<proc_t>> by_state;
  for (proc_t p = 0; p < procs_; ++p) {
    const processor& q = procs_state_[p];
    std::string what;
    switch (q.state) {
      case run_state::finished: what = "finished"; break;
      case run_state::runnable: what = p == running_ ? "polling" : "running"; break;
      case run_state::waiting: what = fmt::format("waiting in {}", q.waiting_for); break;
    }
    by_state[what].push_back(p);
  }
  for (const auto& [what, list] : by_state) {
    std::string names;
    for (std::size_t i = 0; i < list.size();) {
      std::size_t j = i;
      while (j + 1 < list.size() && list[j + 1] == list[j] + 1) ++j;
      if (!names.empty()) names += ", ";
      names += i == j ? fmt::format("{}", list[i]) : fmt::format("{}-{}", list[i], list[j]);
      i = j + 1;
    }
    text += fmt::format("  processor{} {}: {}\n", list.size() == 1 ? "" : "s", names, what);
  }
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, text.data(), text.size());
  _exit(error_exit_status);
}

}  // namespace splitc::backends::sim
