// splitc-microbench: the Libsplit-C report's §5 measurements — Table 4
// (overhead and latency of active messages and of the five global-memory
// operations) and Figures 10–15 (bandwidth of active messages and of the five
// bulk operations) — for the backend this program is built against, together
// with the machine's own limits measured in the same run: a raw cache-line
// ping-pong between the two processes and single-thread memcpy.
//
//   splitc-run -n 2 splitc-microbench [--json FILE] [--quick] [--smoke]
//
// Processor 0 measures against processor 1. Processor 1 serves: it polls,
// runs handlers and, on command, runs the raw ping-pong responder or a
// store_sync. Processors 2.. wait in the final barrier, so P > 2 also works.
// The method (bench/timing.hpp) is the seed's; see docs/performance.md.
#include "report.hpp"
#include "timing.hpp"

#include <splitc/splitc.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

using u64 = std::uint64_t;
using bench::member;
using bench::nothing;
using bench::timed_loop;
constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;
constexpr auto relaxed = std::memory_order_relaxed;

/// N in "N operations, then sync()" (get, put) and "N requests, then wait for
/// the N replies" (AM send+receive): enough that the one-way latency (~0.6 µs
/// here) spreads to a couple of ns per operation.
constexpr int block_ops = 256;
/// One-way operations (AM send, store) per timed loop at most: the smp ring
/// holds 16,384 cells of 64 bytes and a 4-word message takes one, so the
/// sender measures its own overhead, not back-pressure from the receiver.
constexpr long max_one_way = 8192;
constexpr std::size_t medium_max = splitc::active_backend::caps.max_medium;
constexpr std::size_t long_max = splitc::active_backend::caps.max_long;

// What this program uses of its spread-heap region (offsets from the region's
// page-aligned start, which is the same address on every processor).
constexpr std::size_t off_ping = 0;        // proc 1's copy: proc 0 writes, proc 1 spins
constexpr std::size_t off_pong = 256;      // proc 0's copy: proc 1 writes, proc 0 spins
constexpr std::size_t off_publish = 1024;  // proc 1: addresses of its non-segment targets
constexpr std::size_t off_scalars = 4096;  // block_ops 8-byte targets
constexpr std::size_t off_bulk = 2 * MiB;  // bulk transfers

// ---- handlers and their state ------------------------------------------------

std::atomic<u64> sink_count{0}, pongs{0}, flushed{0}, done_count{0}, medium_bytes{0},
    long_bytes{0}, cmd_word{0}, cmd_arg{0};
unsigned char* medium_sink = nullptr;  // proc 1: where medium payloads are copied

struct handler_set {
  splitc::handler_id sink, echo, pong, cmd, flush, flushed, done, medium, longm;
} H;

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

// ---- processor 0 → processor 1 control -----------------------------------------

enum class command_kind : u64 { none = 0, stop, pingpong, store_sync };

u64 pongs_expected = 0, flushed_expected = 0, done_expected = 0;

void wait_for(const std::atomic<u64>& a, u64 want) {
  while (a.load(relaxed) < want) splitc::poll();
}
/// Returns once processor 1 has run every request sent before (rings are ordered).
void flush() {
  splitc::am_request(1, H.flush);
  wait_for(flushed, ++flushed_expected);
}
void command(command_kind c, u64 arg = 0) {
  splitc::am_request(1, H.cmd, static_cast<u64>(c), arg);
}
void wait_done() { wait_for(done_count, ++done_expected); }

// ---- the raw cache-line ping-pong ------------------------------------------------

constexpr u64 stop_value = ~u64{0};
std::atomic<u64>* ping_remote = nullptr;  // proc 0's view of proc 1's ping line
std::atomic<u64>* pong_local = nullptr;   // proc 0's pong line
std::atomic<u64>* ping_local = nullptr;   // proc 1's ping line
std::atomic<u64>* pong_remote = nullptr;  // proc 1's view of proc 0's pong line
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
  std::atomic<u64>* ping = ping_local;
  std::atomic<u64>* pong = pong_remote;
  for (;;) {
    const u64 v = ping->load(std::memory_order_acquire);
    if (v == last) continue;
    if (v == stop_value) return;
    pong->store(v, std::memory_order_release);
    last = v;
  }
}

/// Processor 1's main loop: poll, and run commands in the main line.
void serve() {
  for (;;) {
    splitc::poll();
    const auto c = static_cast<command_kind>(cmd_word.load(relaxed));
    if (c == command_kind::none) continue;
    cmd_word.store(0, relaxed);
    const u64 arg = cmd_arg.load(relaxed);
    switch (c) {
      case command_kind::stop: return;
      case command_kind::pingpong: pingpong_responder(arg); break;
      case command_kind::store_sync: splitc::store_sync(static_cast<std::int64_t>(arg)); break;
      case command_kind::none: break;
    }
    splitc::am_request(0, H.done);
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

// ---- the benchmark ------------------------------------------------------------

struct config {
  std::string json_path;
  bool quick = false;
  bool smoke = false;
  std::size_t max_size = 64 * MiB;
};

struct targets {
  splitc::global_ptr<u64> heap;     // proc 1's spread heap
  splitc::global_ptr<u64> outside;  // proc 1's static array (outside the segments)
  splitc::global_ptr<void> heap_bulk;
  splitc::global_ptr<void> outside_bulk;  // proc 1's malloc'd buffer
  unsigned char* peer_bulk_local;         // heap_bulk's local address (for AM long)
  unsigned char* src;                     // proc 0's buffers
  unsigned char* dst;
};

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

class benchmark {
 public:
  benchmark(const config& cfg, const targets& t) : cfg_(cfg), t_(t) {
    if (cfg.smoke) {
      policy_.smoke = true;
      mode_ = "smoke";
    } else if (cfg.quick) {
      policy_.target_run_ns = 50e3;
      policy_.min_runs = 30;
      policy_.max_runs = 300;
      policy_.ci_target = 0.05;
      policy_.budget_s = 0.25;
      mode_ = "quick";
    } else {
      mode_ = "default";
    }
  }

  bool open_json() {
    if (cfg_.json_path.empty()) return true;
    return json_.open(cfg_.json_path, splitc::backend_name(), splitc::procs(), mode_);
  }

  void run() {
    const std::int64_t start = bench::now_ns();
    fmt::print("splitc-microbench: backend {}, {} processors; processor 0 measures against "
               "processor 1; mode {}\n",
               splitc::backend_name(), splitc::procs(), mode_);
    fmt::print("machine: {}, {} online CPUs; load average {} (other work on the machine "
               "skews every number)\n",
               cpu_model(), sysconf(_SC_NPROCESSORS_ONLN), load_average());
    fmt::print("method (seed §5): timed loop minus empty loop, ÷ iterations; calibration runs "
               "thrown out;\n  runs > 3× the mean of the next three dropped; ≥ {} runs kept "
               "and 95% CI ≤ {:.0f}% of the mean\n  (or {:.2f} s per measurement spent: "
               "marked *); compared measurements interleaved run by run\n",
               policy_.min_runs, 100 * policy_.ci_target, policy_.budget_s);
    std::fflush(stdout);

    const bench::summary pp_start = standalone_pingpong("pingpong_rt_start");
    fmt::print("\nraw cache-line ping-pong round trip at start: {} ns ({})\n",
               bench::format_ns(pp_start.mean), regime(pp_start.mean));
    std::fflush(stdout);

    table4();
    bandwidth();
    const bench::summary pp_end = standalone_pingpong("pingpong_rt_end");
    fmt::print("\nraw cache-line ping-pong round trip at end: {} ns ({})\n",
               bench::format_ns(pp_end.mean), regime(pp_end.mean));
    bars();
    fmt::print("\ntotal time {:.1f} s; load average at the end {}\n",
               static_cast<double>(bench::now_ns() - start) / 1e9, load_average());
    std::fflush(stdout);
  }

 private:
  static const char* regime(double rt) {
    if (!std::isfinite(rt)) return "not measured";
    return rt < 300 ? "the \"near\" regime" : "the \"far\" regime";
  }

  bench::summary standalone_pingpong(const std::string& key) {
    if (ping_remote == nullptr) return {};
    member pp = pingpong_member(key);
    bench::run_group({&pp}, policy_);
    json_.write(bench::record{.name = key,
                              .size = 8,
                              .value = pp.result.mean,
                              .unit = "ns",
                              .ratio = 1,
                              .reference = key,
                              .reference_value = pp.result.mean,
                              .stats = pp.result});
    return pp.result;
  }

  // -- Table 4 ---------------------------------------------------------------

  struct row {
    std::string label;
    const member* direct = nullptr;  // to a peer's spread heap
    const member* am = nullptr;      // outside the segments (or the raw AM itself)
    const member* am_ref = nullptr;  // raw AM of the same pattern (AM-path rows)
    const member* pp = nullptr;      // ping-pong of the same group
    std::string am_ref_name;
  };

  void table4() {
    const auto heap = t_.heap;
    const auto outside = t_.outside;
    static u64 got[block_ops];

    // Group 1, one-way: AM send overhead and store.
    member pp1 = pingpong_member("pingpong_rt");
    member am_send;
    am_send.key = "am_send_overhead";
    am_send.max_iters = max_one_way;
    am_send.run = timed_loop(
        [](long i) { splitc::am_request(1, H.sink, static_cast<u64>(i), u64{1}, u64{2}, u64{3}); },
        nothing, [](long) { flush(); });
    auto store_member = [](std::string key, splitc::global_ptr<u64> target) {
      member m;
      m.key = std::move(key);
      m.max_iters = max_one_way;
      m.run = timed_loop(
          [target](long i) {
            splitc::store(target + (i & (block_ops - 1)), static_cast<u64>(i));
          },
          nothing,
          [](long n) {
            command(command_kind::store_sync, static_cast<u64>(n) * sizeof(u64));
            wait_done();
          });
      return m;
    };
    member store_d = store_member("store_spread_heap", heap);
    member store_a = store_member("store_outside", outside);
    group({&pp1, &am_send, &store_d, &store_a});

    // Group 2, pipelined: AM send+receive overhead, get and put.
    member pp2 = pingpong_member("pingpong_rt");
    member am_sr;
    am_sr.key = "am_send_recv_overhead";
    am_sr.divide = block_ops;
    am_sr.run = timed_loop(
        [](long) {
          for (int j = 0; j < block_ops; ++j)
            splitc::am_request(1, H.echo, static_cast<u64>(j), u64{1}, u64{2}, u64{3});
          pongs_expected += block_ops;
          wait_for(pongs, pongs_expected);
        },
        nothing, nothing);
    auto get_member = [](std::string key, splitc::global_ptr<u64> source) {
      member m;
      m.key = std::move(key);
      m.divide = block_ops;
      m.run = timed_loop(
          [source](long) {
            for (int j = 0; j < block_ops; ++j) splitc::get(&got[j], source + j);
            splitc::sync();
          },
          nothing, nothing);
      return m;
    };
    auto put_member = [](std::string key, splitc::global_ptr<u64> target) {
      member m;
      m.key = std::move(key);
      m.divide = block_ops;
      m.run = timed_loop(
          [target](long i) {
            for (int j = 0; j < block_ops; ++j)
              splitc::put(target + j, static_cast<u64>(i + j));
            splitc::sync();
          },
          nothing, nothing);
      return m;
    };
    member get_d = get_member("get_spread_heap", heap);
    member get_a = get_member("get_outside", outside);
    member put_d = put_member("put_spread_heap", heap);
    member put_a = put_member("put_outside", outside);
    group({&pp2, &am_sr, &get_d, &get_a, &put_d, &put_a});

    // Group 3, blocking: AM round trip, read and write.
    member pp3 = pingpong_member("pingpong_rt");
    member am_rt;
    am_rt.key = "am_round_trip";
    am_rt.run = timed_loop(
        [](long i) {
          splitc::am_request(1, H.echo, static_cast<u64>(i), u64{1}, u64{2}, u64{3});
          wait_for(pongs, ++pongs_expected);
        },
        nothing, nothing);
    auto read_member = [](std::string key, splitc::global_ptr<u64> source) {
      member m;
      m.key = std::move(key);
      m.run = timed_loop(
          [source](long) {
            const u64 v = splitc::read(source);
            bench::escape(v);
          },
          nothing, nothing);
      return m;
    };
    auto write_member = [](std::string key, splitc::global_ptr<u64> target) {
      member m;
      m.key = std::move(key);
      m.run = timed_loop([target](long i) { splitc::write(target, static_cast<u64>(i)); },
                         nothing, nothing);
      return m;
    };
    member read_d = read_member("read_spread_heap", heap);
    member read_a = read_member("read_outside", outside);
    member write_d = write_member("write_spread_heap", heap);
    member write_a = write_member("write_outside", outside);
    group({&pp3, &am_rt, &read_d, &read_a, &write_d, &write_a});

    // The table, in the seed's row order.
    const std::vector<row> rows = {
        {"AM send overhead", nullptr, &am_send, nullptr, &pp1, ""},
        {"store", &store_d, &store_a, &am_send, &pp1, "AM send"},
        {"AM send+receive overhead", nullptr, &am_sr, nullptr, &pp2, ""},
        {"get", &get_d, &get_a, &am_sr, &pp2, "AM s+r"},
        {"put", &put_d, &put_a, &am_sr, &pp2, "AM s+r"},
        {"AM round trip (latency)", nullptr, &am_rt, nullptr, &pp3, ""},
        {"read", &read_d, &read_a, &am_rt, &pp3, "AM RT"},
        {"write", &write_d, &write_a, &am_rt, &pp3, "AM RT"},
    };
    fmt::print("\nTable 4 analogue: overhead and latency, 8-byte values, processor 0 → 1 (ns)\n");
    fmt::print("  ×RT: ÷ the raw cache-line ping-pong round trip measured interleaved with the row\n");
    fmt::print("  ×AM: ÷ the raw active message of the same pattern (get/put: AM send+receive; "
               "store: AM send; read/write: AM round trip)\n");
    fmt::print("  get/put: {} operations then sync(), ÷ {}; store: sender's cost, the receiver's "
               "store_sync outside the timed loop\n",
               block_ops, block_ops);
    fmt::print("\n{}{}{}\n", bench::pad("", 26, false),
               bench::pad("to a peer's spread heap", 27, false),
               "outside the segments (active messages)");
    fmt::print("{}{}{}{}{}{}{}{}\n", bench::pad("operation", 26, false), bench::pad("time", 9),
               bench::pad("±CI", 8), bench::pad("×RT", 8), bench::pad("time", 11),
               bench::pad("±CI", 8), bench::pad("×RT", 8), bench::pad("×AM", 16));
    for (const row& r : rows) {
      const double pp = r.pp->result.mean;
      std::string line = bench::pad(r.label, 26, false);
      if (r.direct != nullptr) {
        const auto& s = r.direct->result;
        line += bench::pad(bench::format_ns(s.mean), 9) + bench::pad(bench::format_ci(s), 8) +
                bench::pad(bench::format_ratio(s.mean / pp), 8);
        emit(r.direct->key, s, pp, nullptr, "");
      } else {
        line += bench::pad("", 25);
      }
      const auto& s = r.am->result;
      line += bench::pad(bench::format_ns(s.mean), 11) + bench::pad(bench::format_ci(s), 8) +
              bench::pad(bench::format_ratio(s.mean / pp), 8);
      if (r.am_ref != nullptr) {
        line += bench::pad(fmt::format("{} ({})",
                                       bench::format_ratio(s.mean / r.am_ref->result.mean),
                                       r.am_ref_name),
                           16);
      }
      emit(r.am->key, s, pp, r.am_ref, r.am_ref_name);
      fmt::print("{}\n", line);
    }
    fmt::print("raw cache-line ping-pong RT, interleaved with each group: one-way rows {} ns "
               "(±{}), pipelined rows {} ns (±{}), blocking rows {} ns (±{})\n",
               bench::format_ns(pp1.result.mean), bench::format_ci(pp1.result),
               bench::format_ns(pp2.result.mean), bench::format_ci(pp2.result),
               bench::format_ns(pp3.result.mean), bench::format_ci(pp3.result));
    for (const member* p : {&pp1, &pp2, &pp3}) emit(p->key, p->result, p->result.mean, nullptr, "");
    std::fflush(stdout);

    bar_.am_rt = am_rt.result.mean;
    bar_.pp_rt = pp3.result.mean;
    bar_.read_direct = read_d.result.mean;
    bar_.am_pairs = {{"get", get_a.result.mean, "AM send+receive", am_sr.result.mean},
                     {"put", put_a.result.mean, "AM send+receive", am_sr.result.mean},
                     {"store", store_a.result.mean, "AM send", am_send.result.mean},
                     {"read", read_a.result.mean, "AM round trip", am_rt.result.mean},
                     {"write", write_a.result.mean, "AM round trip", am_rt.result.mean}};
  }

  void group(std::vector<member*> members) {
    if (ping_remote == nullptr) {  // no raw path: drop the ping-pong member
      members.erase(std::remove_if(members.begin(), members.end(),
                                   [](member* m) { return m->key.rfind("pingpong", 0) == 0; }),
                    members.end());
    }
    bench::run_group(std::move(members), policy_);
  }

  void emit(const std::string& key, const bench::summary& s, double pp, const member* am_ref,
            const std::string& am_ref_name) {
    bench::record r{.name = key,
                    .size = 8,
                    .value = s.mean,
                    .unit = "ns",
                    .ratio = s.mean / pp,
                    .reference = "pingpong_rt",
                    .reference_value = pp,
                    .stats = s};
    if (am_ref != nullptr) {
      r.am_reference = am_ref->key;
      r.am_ratio = s.mean / am_ref->result.mean;
      (void)am_ref_name;
    }
    json_.write(r);
  }

  // -- Figures 10–15 -----------------------------------------------------------

  std::vector<std::size_t> sizes() const {
    std::vector<std::size_t> v;
    const std::size_t top = std::min(cfg_.max_size, cfg_.smoke ? 256 * KiB : cfg_.max_size);
    if (cfg_.smoke) {
      for (std::size_t s : {std::size_t{8}, 4 * KiB, 256 * KiB})
        if (s <= top) v.push_back(s);
      return v;
    }
    const std::size_t step = cfg_.quick ? 4 : 2;
    for (std::size_t s = 8; s <= top; s *= step) v.push_back(s);
    if (v.empty() || v.back() != top) v.push_back(top);
    return v;
  }

  void bandwidth() {
    const auto sz = sizes();
    fmt::print("\nFigures 10–15 analogue: bandwidth, MB/s (10^6 B/s), processor 0 → 1; "
               "(ratio to single-thread memcpy of the same size, same run)\n");
    fmt::print("  a transfer of n bytes is repeated; get/put end with sync(), store with the "
               "receiver's store_sync, AM with a flushing round trip (all timed)\n");
    const std::vector<std::string> spread_cols = {"bulk_store", "bulk_get", "bulk_put",
                                                  "bulk_read", "bulk_write"};
    const std::vector<std::string> am_cols = {"am_medium", "am_long", "bulk_put_malloc",
                                              "bulk_get_malloc"};
    struct line {
      std::size_t size;
      std::vector<std::string> a, b;
      std::string memcpy_text;
    };
    std::vector<line> lines;

    auto header = [&](const std::vector<std::string>& cols) {
      std::string h = bench::pad("size", 8) + bench::pad("memcpy", 9);
      for (const auto& c : cols) h += bench::pad(c, 17);
      return h;
    };
    fmt::print("\n{}\n", header(spread_cols));
    std::fflush(stdout);

    for (std::size_t s : sz) {
      auto m = bandwidth_members(s);
      std::vector<member*> all;
      for (auto& x : m) all.push_back(&x);
      bench::run_group(all, policy_);

      const double ref_ns = m[0].result.mean;
      const double ref = bench::mb_per_s(s, ref_ns);
      json_.write(bench::record{.name = "memcpy",
                                .size = s,
                                .value = ref,
                                .unit = "MB/s",
                                .ratio = 1,
                                .reference = "memcpy",
                                .reference_value = ref,
                                .stats = m[0].result});
      line l{s, {}, {}, bench::format_mbs(ref)};
      for (std::size_t k = 1; k < m.size(); ++k) {
        const double v = bench::mb_per_s(s, m[k].result.mean);
        json_.write(bench::record{.name = m[k].key,
                                  .size = s,
                                  .value = v,
                                  .unit = "MB/s",
                                  .ratio = v / ref,
                                  .reference = "memcpy",
                                  .reference_value = ref,
                                  .stats = m[k].result});
        const std::string cell =
            fmt::format("{} ({}){}", bench::format_mbs(v), bench::format_ratio(v / ref),
                        m[k].result.converged ? "" : "*");
        (k <= spread_cols.size() ? l.a : l.b).push_back(cell);
        if (s == cfg_.max_size && m[k].key == "bulk_get") bar_.get_ratio = v / ref;
        if (s == cfg_.max_size && m[k].key == "bulk_put") bar_.put_ratio = v / ref;
        if (s == cfg_.max_size && m[k].key == "bulk_get") bar_.get_mbs = v;
        if (s == cfg_.max_size && m[k].key == "bulk_put") bar_.put_mbs = v;
      }
      if (s == cfg_.max_size) bar_.memcpy_mbs = ref;
      std::string text = bench::pad(bench::format_size(s), 8) + bench::pad(l.memcpy_text, 9);
      for (const auto& c : l.a) text += bench::pad(c, 17);
      fmt::print("{}\n", text);
      std::fflush(stdout);
      lines.push_back(std::move(l));
    }

    fmt::print("\nFigure 10 analogue and active-message paths: AM medium (handler copies the "
               "payload out), AM long into the peer's spread heap,\n  bulk_put/bulk_get to a "
               "malloc'd buffer outside the segments (fragmented into long AMs of {} KiB)\n",
               long_max / KiB);
    fmt::print("\n{}\n", header(am_cols));
    for (const line& l : lines) {
      std::string text = bench::pad(bench::format_size(l.size), 8) + bench::pad(l.memcpy_text, 9);
      for (const auto& c : l.b) text += bench::pad(c, 17);
      fmt::print("{}\n", text);
    }
    fmt::print("(* = 95% CI above target when the time budget ran out)\n");
    std::fflush(stdout);
  }

  /// memcpy first (the reference), then the five bulk operations to the peer's
  /// spread heap, then the active-message paths.
  std::vector<member> bandwidth_members(std::size_t s) const {
    const targets t = t_;
    auto make = [](std::string key, bench::run_fn run) {
      member m;
      m.key = std::move(key);
      m.min_iters = 1;
      m.max_iters = 1L << 22;
      m.run = std::move(run);
      return m;
    };
    auto sync_all = [](long) { splitc::sync(); };
    std::vector<member> m;
    m.push_back(make("memcpy", timed_loop([t, s](long) { std::memcpy(t.dst, t.src, s); },
                                          nothing, nothing)));
    m.push_back(make("bulk_store",
                     timed_loop([t, s](long) { splitc::bulk_store(t.heap_bulk, t.src, s); },
                                [s](long n) {
                                  command(command_kind::store_sync, static_cast<u64>(n) * s);
                                  wait_done();
                                },
                                nothing)));
    m.push_back(make("bulk_get",
                     timed_loop([t, s](long) { splitc::bulk_get(t.dst, t.heap_bulk, s); },
                                sync_all, nothing)));
    m.push_back(make("bulk_put",
                     timed_loop([t, s](long) { splitc::bulk_put(t.heap_bulk, t.src, s); },
                                sync_all, nothing)));
    m.push_back(make("bulk_read",
                     timed_loop([t, s](long) { splitc::bulk_read(t.dst, t.heap_bulk, s); },
                                nothing, nothing)));
    m.push_back(make("bulk_write",
                     timed_loop([t, s](long) { splitc::bulk_write(t.heap_bulk, t.src, s); },
                                nothing, nothing)));
    m.push_back(make("am_medium", timed_loop(
                                      [t, s](long) {
                                        for (std::size_t off = 0; off < s; off += medium_max)
                                          splitc::am_request_medium(
                                              1, H.medium, t.src + off,
                                              std::min(medium_max, s - off));
                                      },
                                      [](long) { flush(); }, nothing)));
    m.push_back(make("am_long", timed_loop(
                                    [t, s](long) {
                                      for (std::size_t off = 0; off < s; off += long_max)
                                        splitc::am_request_long(1, H.longm, t.src + off,
                                                                std::min(long_max, s - off),
                                                                t.peer_bulk_local + off);
                                    },
                                    [](long) { flush(); }, nothing)));
    m.push_back(make("bulk_put_malloc",
                     timed_loop([t, s](long) { splitc::bulk_put(t.outside_bulk, t.src, s); },
                                sync_all, nothing)));
    m.push_back(make("bulk_get_malloc",
                     timed_loop([t, s](long) { splitc::bulk_get(t.dst, t.outside_bulk, s); },
                                sync_all, nothing)));
    return m;
  }

  // -- the bars ------------------------------------------------------------------

  struct am_pair {
    std::string op;
    double value;
    std::string raw;
    double raw_value;
  };
  struct bar_numbers {
    double am_rt = NAN, pp_rt = NAN, read_direct = NAN;
    double get_ratio = NAN, put_ratio = NAN, get_mbs = NAN, put_mbs = NAN, memcpy_mbs = NAN;
    std::vector<am_pair> am_pairs;
  } bar_;

  void bars() {
    fmt::print("\nBars (the issue's targets), from this run:\n");
    auto verdict = [](double v, double limit, bool at_most) {
      if (!std::isfinite(v)) return "not measured";
      return (at_most ? v <= limit : v >= limit) ? "met" : "NOT met";
    };
    auto line = [&](const std::string& name, const std::string& text, double v, double limit,
                    bool at_most) {
      const char* what = verdict(v, limit, at_most);
      fmt::print("  {:<44} {}  → {}\n", name, text, what);
      nlohmann::json j;
      j["name"] = "bar_" + name;
      j["value"] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
      j["limit"] = limit;
      j["at_most"] = at_most;
      j["met"] = std::string(what) == "met";
      j["mode"] = mode_;
      json_.write(j);
    };
    const double rt_ratio = bar_.am_rt / bar_.pp_rt;
    line("am_round_trip_vs_pingpong",
         fmt::format("AM RT {} ns / ping-pong RT {} ns = {} (≤ 1.5)", bench::format_ns(bar_.am_rt),
                     bench::format_ns(bar_.pp_rt), fmt::format("{:.3f}", rt_ratio)),
         rt_ratio, 1.5, true);
    line("read_spread_heap_ns",
         fmt::format("8-byte read of a peer's spread heap {} ns (≤ 5)",
                     bench::format_ns(bar_.read_direct)),
         bar_.read_direct, 5, true);
    const std::string big = bench::format_size(cfg_.max_size);
    line("bulk_get_vs_memcpy",
         fmt::format("bulk_get {} {} MB/s / memcpy {} MB/s = {} (≥ 0.90)", big,
                     bench::format_mbs(bar_.get_mbs), bench::format_mbs(bar_.memcpy_mbs),
                     fmt::format("{:.3f}", bar_.get_ratio)),
         bar_.get_ratio, 0.9, false);
    line("bulk_put_vs_memcpy",
         fmt::format("bulk_put {} {} MB/s / memcpy {} MB/s = {} (≥ 0.90)", big,
                     bench::format_mbs(bar_.put_mbs), bench::format_mbs(bar_.memcpy_mbs),
                     fmt::format("{:.3f}", bar_.put_ratio)),
         bar_.put_ratio, 0.9, false);
    for (const am_pair& p : bar_.am_pairs) {
      const double r = p.value / p.raw_value;
      line(p.op + "_outside_vs_" + (p.raw == "AM send"           ? std::string("am_send")
                                    : p.raw == "AM send+receive" ? std::string("am_send_recv")
                                                                 : std::string("am_round_trip")),
           fmt::format("{} outside the segments {} ns / {} {} ns = {} (≤ 1.15)", p.op,
                       bench::format_ns(p.value), p.raw, bench::format_ns(p.raw_value),
                       fmt::format("{:.3f}", r)),
           r, 1.15, true);
    }
    if (policy_.smoke) fmt::print("  (smoke run: one iteration each; these numbers mean nothing)\n");
  }

  config cfg_;
  targets t_;
  bench::policy policy_;
  std::string mode_;
  bench::json_sink json_;
};

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc();

  config cfg;
  CLI::App app{"splitc-microbench: the Libsplit-C report's §5 measurements (Table 4, "
               "Figures 10-15) with this machine's limits. Run with splitc-run -n 2."};
  app.add_option("--json", cfg.json_path, "also write one JSON line per measurement to FILE");
  app.add_flag("--quick", cfg.quick, "shorter runs, looser confidence interval (about a minute)");
  app.add_flag("--smoke", cfg.smoke,
               "one iteration of everything with small sizes (a test that the program runs)");
  app.add_option("--max-size", cfg.max_size, "largest bulk transfer in bytes (default 64 MiB)")
      ->check(CLI::Range(std::size_t{8}, std::size_t{1} << 34));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = me == 0 ? app.exit(e) : e.get_exit_code();
    splitc::finalize();
    return rc;
  }
  if (cfg.smoke) cfg.max_size = std::min(cfg.max_size, 256 * KiB);

  register_handlers();

  if (splitc::procs() < 2) {
    if (me == 0)
      fmt::print(stderr, "splitc-microbench: needs at least 2 processors "
                         "(run it as: splitc-run -n 2 splitc-microbench)\n");
    splitc::finalize();
    return 2;
  }
  // This program's part of the spread heap: one region per processor, at the
  // same address on each (all_spread_malloc of PROCS objects), page-aligned.
  const std::size_t region_bytes = off_bulk + cfg.max_size;
  const splitc::spread_ptr<void> region =
      splitc::all_spread_malloc(static_cast<std::size_t>(splitc::procs()), region_bytes + 4096);
  if (region.local() == nullptr) {
    if (me == 0)
      fmt::print(stderr,
                 "splitc-microbench: the spread heap has no room for {} bytes per processor; "
                 "raise SPLITC_SEGMENT_SIZE or lower --max-size\n",
                 region_bytes);
    splitc::finalize();
    return 2;
  }
  auto* base = reinterpret_cast<unsigned char*>(
      (reinterpret_cast<std::uintptr_t>(region.local()) + 4095) & ~std::uintptr_t{4095});

  // Processor 1's targets outside the segments: a static array and a
  // malloc'd buffer, whose addresses it publishes in its segment.
  alignas(64) static u64 outside_scalars[block_ops];
  unsigned char* outside_bulk = nullptr;
  unsigned char* src = nullptr;
  unsigned char* dst = nullptr;
  auto alloc = [](std::size_t n, int fill) {
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(4096, (n + 4095) / 4096 * 4096));
    if (p == nullptr) splitc::fatal_error("splitc-microbench: out of memory");
    std::memset(p, fill, n);
    return p;
  };
  if (me == 1) {
    outside_bulk = alloc(cfg.max_size, 0x11);
    medium_sink = alloc(medium_max, 0);
    auto* pub = reinterpret_cast<u64*>(base + off_publish);
    pub[0] = reinterpret_cast<u64>(&outside_scalars[0]);
    pub[1] = reinterpret_cast<u64>(outside_bulk);
    std::memset(base + off_scalars, 0, block_ops * sizeof(u64));
    std::memset(base + off_bulk, 0x22, cfg.max_size);  // allocate the segment's pages
    reinterpret_cast<std::atomic<u64>*>(base + off_ping)->store(0);
    ping_local = reinterpret_cast<std::atomic<u64>*>(base + off_ping);
    pong_remote = static_cast<std::atomic<u64>*>(raw_peer(0, base + off_pong));
  } else if (me == 0) {
    src = alloc(cfg.max_size, 0x33);
    dst = alloc(cfg.max_size, 0x44);
    reinterpret_cast<std::atomic<u64>*>(base + off_pong)->store(0);
    ping_remote = static_cast<std::atomic<u64>*>(raw_peer(1, base + off_ping));
    pong_local = reinterpret_cast<std::atomic<u64>*>(base + off_pong);
  }
  splitc::barrier();

  int rc = 0;
  if (me == 0) {
    auto* pub = reinterpret_cast<u64*>(base + off_publish);
    targets t{};
    t.heap = splitc::toglobal(1, reinterpret_cast<u64*>(base + off_scalars));
    t.outside =
        splitc::toglobal(1, reinterpret_cast<u64*>(splitc::read(splitc::toglobal(1, &pub[0]))));
    t.heap_bulk = splitc::toglobal(1, static_cast<void*>(base + off_bulk));
    t.outside_bulk = splitc::toglobal(
        1, reinterpret_cast<void*>(splitc::read(splitc::toglobal(1, &pub[1]))));
    t.peer_bulk_local = base + off_bulk;
    t.src = src;
    t.dst = dst;
    // Map the peer's pages into this process before anything is timed.
    splitc::bulk_put(t.heap_bulk, src, cfg.max_size);
    splitc::bulk_get(dst, t.heap_bulk, cfg.max_size);
    splitc::sync();

    benchmark b(cfg, t);
    if (!b.open_json()) {
      fmt::print(stderr, "splitc-microbench: cannot write {}\n", cfg.json_path);
      rc = 1;
    } else {
      if (ping_remote == nullptr)
        fmt::print("note: backend {} gives no direct path to a peer's segment: no raw "
                   "ping-pong reference\n",
                   splitc::backend_name());
      b.run();
    }
    command(command_kind::stop);
  } else if (me == 1) {
    serve();
  }
  splitc::barrier();
  splitc::all_spread_free(region);
  splitc::finalize();
  std::free(outside_bulk);
  std::free(medium_sink);
  std::free(src);
  std::free(dst);
  return rc;
}
