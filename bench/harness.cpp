// splitc-bench's shared machinery (see harness.hpp): processor 1's server loop
// and processor 0's commands to it, the raw cache-line ping-pong, MPI rounds,
// progress and the median over rounds.
#include "harness.hpp"

#include "format.hpp"
#include "seed_figures.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <tuple>

namespace bench {

namespace {
constexpr auto relaxed = std::memory_order_relaxed;
std::atomic<u64> sink_count{0}, flushed{0}, done_count{0}, medium_bytes{0}, long_bytes{0},
    cmd_word{0}, cmd_arg{0};
u64 flushed_expected = 0, done_expected = 0;

/// Handlers run on one thread inside poll(); a plain load+store is enough.
inline void bump(std::atomic<u64>& a, u64 n = 1) { a.store(a.load(relaxed) + n, relaxed); }

void on_sink(const splitc::am_message&) { bump(sink_count); }
void on_echo(const splitc::am_message& m) {
  splitc::am_reply(m, H.pong, m.args[0], m.args[1], m.args[2], m.args[3]);
}
void on_pong(const splitc::am_message&) { bump(pongs); }
void on_cmd(const splitc::am_message& m) {
  cmd_arg.store(m.args[1], relaxed);
  cmd_word.store(m.args[0], relaxed);
}
void on_flush(const splitc::am_message& m) { splitc::am_reply(m, H.flushed); }
void on_flushed(const splitc::am_message&) { bump(flushed); }
void on_done(const splitc::am_message&) { bump(done_count); }
void on_medium(const splitc::am_message& m) {
  std::memcpy(medium_sink, m.payload, m.length);
  bump(medium_bytes, m.length);
}
void on_long(const splitc::am_message& m) { bump(long_bytes, m.length); }

// The ping-pong lines: processor 0 writes processor 1's ping line and spins on
// its own pong line; processor 1 the other way round.
constexpr u64 stop_value = ~u64{0};
std::atomic<u64>* ping_remote = nullptr;
std::atomic<u64>* pong_local = nullptr;
std::atomic<u64>* ping_local = nullptr;
std::atomic<u64>* pong_remote = nullptr;
u64 seq = 0;

/// Where this process can load/store `local` of processor p. The public API
/// has no raw pointer into a peer's segment (that is the point of global
/// pointers); the reference measurement needs one, and the porting
/// boundary's direct_address() is the backend's own answer.
void* raw_peer(splitc::proc_t p, void* local) {
  return splitc::detail::ctx().backend.direct_address(p, local);
}

/// Processor 1: echo every new ping value until the stop value.
void pingpong_responder(u64 last) {
  for (;;) {
    const u64 v = ping_local->load(std::memory_order_acquire);
    if (v == last) continue;
    if (v == stop_value) return;
    pong_remote->store(v, std::memory_order_release);
    last = v;
  }
}

void nap() {
  timespec t{0, 50000};
  nanosleep(&t, nullptr);
}
}  // namespace

handler_set H;
std::atomic<u64> pongs{0};
u64 pongs_expected = 0;
unsigned char* medium_sink = nullptr;

void register_handlers() {
  H.sink = splitc::register_handler(on_sink);
  H.echo = splitc::register_handler(on_echo);
  H.pong = splitc::register_handler(on_pong);
  H.cmd = splitc::register_handler(on_cmd);
  H.flush = splitc::register_handler(on_flush);
  H.flushed = splitc::register_handler(on_flushed);
  H.done = splitc::register_handler(on_done);
  H.medium = splitc::register_handler(on_medium);
  H.longm = splitc::register_handler(on_long);
}

void wait_for(const std::atomic<u64>& a, u64 want) {
  while (a.load(relaxed) < want) splitc::poll();
}
void flush() {
  splitc::am_request(1, H.flush);
  wait_for(flushed, ++flushed_expected);
}
void command(command_kind c, u64 arg) {
  splitc::am_request(1, H.cmd, static_cast<u64>(c), arg);
}
void wait_done() { wait_for(done_count, ++done_expected); }

void serve() {
  bool napping = false;  // while Open MPI measures: poll every 50 µs, not in a tight loop
  for (;;) {
    splitc::poll();
    const auto c = static_cast<command_kind>(cmd_word.load(relaxed));
    if (c == command_kind::none) {
      if (napping) nap();
      continue;
    }
    cmd_word.store(0, relaxed);
    const u64 arg = cmd_arg.load(relaxed);
    switch (c) {
      case command_kind::stop: return;
      case command_kind::pingpong: pingpong_responder(arg); break;
      case command_kind::store_sync: splitc::store_sync(static_cast<std::int64_t>(arg)); break;
      case command_kind::nap: napping = true; break;
      case command_kind::wake: napping = false; break;
      case command_kind::none: break;
    }
    splitc::am_request(0, H.done);
  }
}

void served_part(const std::function<void()>& measure) {
  const int me = splitc::myproc();
  if (me == 0) {
    measure();
    command(command_kind::stop);
  } else if (me == 1) {
    serve();
  }
  splitc::barrier();
}

bool have_pingpong() { return ping_remote != nullptr || ping_local != nullptr; }

void setup_pingpong(unsigned char* base) {
  const int me = splitc::myproc();
  if (me == 1) {
    auto* pong = static_cast<std::atomic<u64>*>(raw_peer(0, base + off_pong));
    if (pong == nullptr) return;
    ping_local = reinterpret_cast<std::atomic<u64>*>(base + off_ping);
    ping_local->store(0);
    pong_remote = pong;
  } else if (me == 0) {
    auto* ping = static_cast<std::atomic<u64>*>(raw_peer(1, base + off_ping));
    if (ping == nullptr) return;
    pong_local = reinterpret_cast<std::atomic<u64>*>(base + off_pong);
    pong_local->store(0);
    ping_remote = ping;
  }
}

member pingpong_member(const std::string& key) {
  member m;
  m.key = key;
  m.run = timed_loop(
      [](long) {
        const u64 s = ++seq;
        ping_remote->store(s, std::memory_order_release);
        while (pong_local->load(std::memory_order_acquire) != s) {
        }
      },
      nothing, nothing);
  m.enter = [] { command(command_kind::pingpong, seq); };
  m.leave = [] {
    ping_remote->store(stop_value, std::memory_order_release);
    wait_done();
    ping_remote->store(seq, std::memory_order_release);  // responder not running now
  };
  return m;
}

// ---- context -------------------------------------------------------------------

bool context::selected(const std::string& part) const {
  return cfg.only.empty() || std::find(cfg.only.begin(), cfg.only.end(), part) != cfg.only.end();
}

void context::add(row r) {
  if (!sim_machine.empty() && r.impl == "splitc") {
    if (const auto seed = find_seed_figure(sim_machine, r.name, splitc::procs(), r.unit)) {
      r.seed_value = seed->value;
      r.seed_ratio = r.value / seed->value;
      r.seed_key = seed->key;
      r.seed_citation = seed->citation;
    }
  }
  rows.push_back(std::move(r));
}

const row* context::find(const std::string& part, const std::string& name, std::size_t size,
                         const std::string& impl) const {
  for (const row& r : rows)
    if (r.part == part && r.name == name && r.size == size && r.impl == impl) return &r;
  return nullptr;
}

void context::progress(const std::string& part, const std::string& what) const {
  if (!cfg.progress || splitc::myproc() != 0) return;
  static const bool tty = isatty(2) != 0;
  static const std::int64_t t0 = host_now_ns();
  const double t = static_cast<double>(host_now_ns() - t0) / 1e9;
  if (tty)
    fmt::print(stderr, "\r\033[K[splitc-bench {:5.1f} s] {}: {}", t, part, what);
  else
    fmt::print(stderr, "[splitc-bench {:5.1f} s] {}: {}\n", t, part, what);
  std::fflush(stderr);
  if (tty && what == "done") fmt::print(stderr, "\r\033[K");
}

void quiet_barrier() {
  // On a virtual clock the host's scheduling shows in no timing, and 5 ms of the host's time
  // would make the number of all-reduces, and with it every later virtual time, differ from
  // run to run: a plain barrier.
  if constexpr (virtual_clock) {
    splitc::barrier();
    return;
  }
  splitc::counter done;
  splitc::barrier(splitc::team::world(), done);
  while (!splitc::is_sync(done)) {
    timespec t{0, 1000000};
    nanosleep(&t, nullptr);
  }
  const std::int64_t start = host_now_ns();
  while (splitc::reduce_to_all(host_now_ns() - start < 5000000 ? 1 : 0, splitc::ops::bit_or{}) != 0) {
  }
}

std::vector<mpi_result> context::reference_round(mpi_link& link,
                                                 const std::vector<mpi_command>& cmds,
                                                 bool served) {
  if (cfg.no_mpi || cmds.empty()) return {};
  if (served) {  // processor 1 naps while Open MPI has the CPUs
    command(command_kind::nap);
    wait_done();
  }
  auto out = link.run(cmds);
  if (served) {
    command(command_kind::wake);
    wait_done();
  }
  return out;
}

long context::mpi_iters(std::size_t size) const {
  if (cfg.smoke) return 1;
  // A run of ~target_run_ns at a few GB/s for transfers, 1000-2000 events for latencies.
  const double bytes = pol.target_run_ns * 4;  // ~4 GB/s
  const long by_size = static_cast<long>(bytes / static_cast<double>(std::max<std::size_t>(size, 1)));
  return std::clamp(by_size, 1L, cfg.quick ? 1000L : 2000L);
}
long context::mpi_window_iters(std::size_t size) const {
  // An event is a window of up to 64 messages: a few dozen windows per run
  // (small messages are latency-bound; more would only lengthen the run).
  return std::min(mpi_iters(size * 64), cfg.smoke ? 1L : 32L);
}
int context::mpi_runs() const { return cfg.smoke ? 1 : cfg.quick ? 10 : 30; }

bool local_work_is_timed() { return !virtual_clock || sim_charges_computation(); }

void print_not_applicable(const std::string& what) {
  fmt::print("\n{}: not applicable on the sim in deterministic mode (virtual time charges "
             "communication and a fixed cost per library call, not local work; "
             "SPLITC_SIM_TIME=measured charges it)\n",
             what);
  std::fflush(stdout);
}

// ---- rounds ----------------------------------------------------------------------

std::vector<row> median_over_rounds(const std::vector<std::vector<row>>& rounds) {
  if (rounds.size() == 1) return rounds[0];
  using key = std::tuple<std::string, std::string, std::string, std::size_t>;
  std::map<key, std::vector<const row*>> by_key;
  std::vector<key> order;
  for (const auto& rs : rounds)
    for (const row& r : rs) {
      key k{r.part, r.name, r.impl, r.size};
      auto& v = by_key[k];
      if (v.empty()) order.push_back(k);
      v.push_back(&r);
    }
  std::vector<row> out;
  for (const key& k : order) {
    auto v = by_key[k];
    std::sort(v.begin(), v.end(), [](const row* a, const row* b) {
      if (std::isnan(a->value)) return false;
      if (std::isnan(b->value)) return true;
      return a->value < b->value;
    });
    out.push_back(*v[(v.size() - 1) / 2]);  // the lower median: a value that was measured
  }
  return out;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  return fmt::format("{:.2f} {:.2f} {:.2f}", one, five, fifteen);
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

}  // namespace bench
