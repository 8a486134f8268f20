// Table 4: overhead and latency of active messages and of the five
// global-memory operations (store, get, put, read, write), 8-byte values,
// processor 0 → 1, each to a peer's spread heap and to memory outside the
// segments; every group interleaved with the raw cache-line ping-pong, and
// Open MPI's equivalents (ping-pong, MPI_Put/MPI_Get + flush) measured in
// alternation with it.
#include "../format.hpp"
#include "../parts.hpp"
#include "../plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bench {
namespace part_table4_impl {
namespace {

/// One-way operations (AM send, store) per timed loop at most: the smp ring
/// holds 16,384 cells and a 4-word message takes one, so the sender measures
/// its own overhead, not back-pressure from the receiver.
constexpr long max_one_way = 8192;
const char* const part = "table4";

void group(std::vector<member*> members, const policy& p) {
  if (!have_pingpong())
    members.erase(std::remove_if(members.begin(), members.end(),
                                 [](member* m) { return m->key.rfind("pingpong", 0) == 0; }),
                  members.end());
  run_group(std::move(members), p);
}

row make_row(const member& m, const member& pp) {
  row r;
  r.part = part;
  r.name = m.key;
  r.value = m.result.mean;
  r.stats = m.result;
  r.reference = "pingpong_rt";
  r.reference_value = pp.result.mean;
  r.ratio = r.value / r.reference_value;
  if (m.key.rfind("pingpong", 0) == 0) r.impl = "machine";
  return r;
}

/// Store outside the segments against the AM send of the same shape, timed
/// in one loop: batches of 32 of each, alternating (and alternating which
/// goes first), one clock read per batch. The separate one-way rows above
/// each time a run of one kind, and what the receiver is doing meanwhile
/// (how far behind it is, where in the ring the run starts) moves them by up
/// to 2x from run to run (docs/performance.md, "The store bar"); here both
/// kinds meet the same receiver and ring in the same run. Returns the rows
/// "am_send_paired", "store_outside_paired" (ns per operation, medians over
/// the rounds) and "store_paired_ratio" (the median of per-round ratios).
std::vector<row> measure_paired_store(const context& ctx, splitc::global_ptr<u64> outside) {
  constexpr int batch = 32;
  const int batches = ctx.pol.smoke ? 2 : static_cast<int>(max_one_way / (2 * batch));
  const int rounds = ctx.pol.smoke ? 1 : ctx.mode == "quick" ? 7 : 21;
  const double per_kind = static_cast<double>(batches) * batch;  // operations of each kind a round
  std::vector<double> am_ns, store_ns, ratios;
  for (int r = 0; r < rounds; ++r) {
    std::int64_t am_total = 0, store_total = 0;
    for (int b = 0; b < batches; ++b) {
      auto am_batch = [&] {
        const std::int64_t t0 = now_ns();
        for (int i = 0; i < batch; ++i)
          splitc::am_request(1, H.sink, static_cast<u64>(i), u64{1}, u64{2}, u64{3});
        am_total += now_ns() - t0;
      };
      auto store_batch = [&, target = outside] {
        // One address, as the AM send's words are constants: the loop
        // around either operation is the same, only the operation differs.
        const std::int64_t t0 = now_ns();
        for (int i = 0; i < batch; ++i) splitc::store(target, static_cast<u64>(i));
        store_total += now_ns() - t0;
      };
      if (b % 2 == 0) {
        am_batch();
        store_batch();
      } else {
        store_batch();
        am_batch();
      }
    }
    flush();
    command(command_kind::store_sync, static_cast<u64>(per_kind) * sizeof(u64));
    wait_done();
    am_ns.push_back(static_cast<double>(am_total) / per_kind);
    store_ns.push_back(static_cast<double>(store_total) / per_kind);
    ratios.push_back(store_ns.back() / am_ns.back());
  }
  auto median_of = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 == 1 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  auto make = [&](const char* name, double value, const char* reference, double ref_value) {
    row x;
    x.part = part;
    x.name = name;
    x.value = value;
    x.stats.mean = value;
    x.stats.kept = rounds;
    x.stats.iters = static_cast<long>(per_kind);
    x.reference = reference;
    x.reference_value = ref_value;
    x.ratio = value / ref_value;
    return x;
  };
  const double am = median_of(am_ns), store = median_of(store_ns), ratio = median_of(ratios);
  std::vector<row> out;
  out.push_back(make("am_send_paired", am, "am_send_paired", am));
  out.push_back(make("store_outside_paired", store, "am_send_paired", am));
  row q = make("store_paired_ratio", ratio, "", 1.0);
  q.unit = "ratio";
  out.push_back(q);
  return out;
}

std::vector<row> measure_splitc(context& ctx) {
  const auto heap = ctx.t.heap;
  const auto outside = ctx.t.outside;
  static u64 got[block_ops];
  std::vector<row> rows;

  // Group 1, one-way: AM send overhead and store.
  member pp1 = pingpong_member("pingpong_rt_oneway");
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
        [target](long i) { splitc::store(target + (i & (block_ops - 1)), static_cast<u64>(i)); },
        nothing,
        [](long n) {
          command(command_kind::store_sync, static_cast<u64>(n) * sizeof(u64));
          wait_done();
        });
    return m;
  };
  member store_d = store_member("store_spread_heap", heap);
  member store_a = store_member("store_outside", outside);
  ctx.progress(part, "one-way group (AM send, store)");
  group({&pp1, &am_send, &store_d, &store_a}, ctx.pol);
  for (const member* m : {&pp1, &am_send, &store_d, &store_a}) rows.push_back(make_row(*m, pp1));
  ctx.progress(part, "store and AM send in one loop");
  for (row& r : measure_paired_store(ctx, outside)) rows.push_back(std::move(r));

  // Group 2, pipelined: AM send+receive overhead, get and put.
  member pp2 = pingpong_member("pingpong_rt_pipelined");
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
          for (int j = 0; j < block_ops; ++j) splitc::put(target + j, static_cast<u64>(i + j));
          splitc::sync();
        },
        nothing, nothing);
    return m;
  };
  member get_d = get_member("get_spread_heap", heap);
  member get_a = get_member("get_outside", outside);
  member put_d = put_member("put_spread_heap", heap);
  member put_a = put_member("put_outside", outside);
  ctx.progress(part, "pipelined group (AM send+receive, get, put)");
  group({&pp2, &am_sr, &get_d, &get_a, &put_d, &put_a}, ctx.pol);
  for (const member* m : {&pp2, &am_sr, &get_d, &get_a, &put_d, &put_a})
    rows.push_back(make_row(*m, pp2));

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
          escape(v);
        },
        nothing, nothing);
    return m;
  };
  auto write_member = [](std::string key, splitc::global_ptr<u64> target) {
    member m;
    m.key = std::move(key);
    m.run = timed_loop([target](long i) { splitc::write(target, static_cast<u64>(i)); }, nothing,
                       nothing);
    return m;
  };
  member read_d = read_member("read_spread_heap", heap);
  member read_a = read_member("read_outside", outside);
  member write_d = write_member("write_spread_heap", heap);
  member write_a = write_member("write_outside", outside);
  // And what a waiting processor repeats: a poll with nothing to deliver. A
  // message that lands is noticed on average half of one later.
  member idle;
  idle.key = "idle_poll";
  idle.run = timed_loop([](long) { splitc::poll(); }, nothing, nothing);
  ctx.progress(part, "blocking group (AM round trip, read, write, idle poll)");
  group({&pp3, &am_rt, &read_d, &read_a, &write_d, &write_a, &idle}, ctx.pol);
  for (const member* m : {&pp3, &am_rt, &read_d, &read_a, &write_d, &write_a, &idle})
    rows.push_back(make_row(*m, pp3));
  return rows;
}

/// Open MPI's equivalents, ratio to the ping-pong of the blocking group.
std::vector<row> measure_mpi(context& ctx, double pp) {
  const int runs = ctx.mpi_runs();
  const long it = ctx.mpi_iters(8);
  const long it_pipe = std::max(1L, it / block_ops * 4);
  ctx.progress(part, "Open MPI equivalents");
  const auto res = ctx.mpi_round({{"pingpong", 8, it, runs},
                                  {"put_flush", 8, it, runs},
                                  {"get_flush", 8, it, runs},
                                  {"put_pipe", 8, it_pipe, runs},
                                  {"get_pipe", 8, it_pipe, runs}},
                                 true);
  std::vector<row> rows;
  for (const mpi_result& m : res) {
    row r;
    r.part = part;
    r.impl = "mpi";
    r.name = m.op == "pingpong" ? "mpi_pingpong_rt" : "mpi_" + m.op;
    r.value = m.ns;
    r.stats.mean = m.ns;
    r.stats.ci_rel = m.ci_rel;
    r.stats.kept = m.kept;
    r.stats.converged = true;
    r.reference = "pingpong_rt";
    r.reference_value = pp;
    r.ratio = m.ns / pp;
    rows.push_back(r);
  }
  return rows;
}

struct line {
  const char* label;
  const char* direct;  // to a peer's spread heap
  const char* am;      // outside the segments (or the raw AM itself)
  const char* am_ref;  // raw AM of the same pattern
  const char* am_ref_label;
  const char* pp;      // ping-pong of the same group
  const char* mpi;     // Open MPI's equivalent
  const char* mpi_label;
};
const line lines[] = {
  {"AM send overhead", nullptr, "am_send_overhead", nullptr, "", "pingpong_rt_oneway", nullptr, ""},
  {"store", "store_spread_heap", "store_outside", "am_send_overhead", "AM send",
   "pingpong_rt_oneway", "mpi_put_pipe", "256 Put, flush"},
  {"AM send+receive overhead", nullptr, "am_send_recv_overhead", nullptr, "",
   "pingpong_rt_pipelined", nullptr, ""},
  {"get", "get_spread_heap", "get_outside", "am_send_recv_overhead", "AM s+r",
   "pingpong_rt_pipelined", "mpi_get_pipe", "256 Get, flush"},
  {"put", "put_spread_heap", "put_outside", "am_send_recv_overhead", "AM s+r",
   "pingpong_rt_pipelined", "mpi_put_pipe", "256 Put, flush"},
  {"AM round trip (latency)", nullptr, "am_round_trip", nullptr, "", "pingpong_rt",
   "mpi_pingpong_rt", "Send/Recv RT"},
  {"read", "read_spread_heap", "read_outside", "am_round_trip", "AM RT", "pingpong_rt",
   "mpi_get_flush", "Get+flush"},
  {"write", "write_spread_heap", "write_outside", "am_round_trip", "AM RT", "pingpong_rt",
   "mpi_put_flush", "Put+flush"},
};

/// "seed" and "÷seed" cells of a row (empty when the seed has no figure for it).
std::string seed_cells(const row* r, std::size_t width) {
  if (r == nullptr || !std::isfinite(r->seed_value)) return pad("", width + 8);
  return pad(format_ns(r->seed_value), width) + pad(format_ratio(r->seed_ratio), 8);
}

void print_idle_poll(const context& ctx) {
  if (const row* r = ctx.find(part, "idle_poll"))
    fmt::print("idle poll (splitc::poll with nothing to deliver): {} ns (±{})\n",
               format_ns(r->value), format_ci(r->stats));
}

/// On the sim: virtual times next to the seed's figures for the machine
/// (no ping-pong, no Open MPI: neither exists in virtual time).
void print_sim(const context& ctx) {
  fmt::print("\nTable 4: overhead and latency, 8-byte values, processor 0 → 1 (virtual ns, "
             "machine {})\n"
             "  ×AM: ÷ the raw active message of the same pattern; seed: the seed's figure for "
             "this machine (the \"outside\" column\n"
             "  is the seed's: every remote access an active message); ÷seed: sim ÷ seed\n"
             "  get/put: {} operations then sync(), ÷ {}; store: sender's cost, the receiver's "
             "store_sync outside the timed loop\n",
             ctx.sim_machine, block_ops, block_ops);
  fmt::print("{}{}{}{}{}{}{}{}\n", pad("operation", 25, false), pad("spread heap", 12),
             pad("±CI", 7), pad("outside", 10), pad("±CI", 7), pad("×AM", 16), pad("seed", 10),
             pad("÷seed", 8));
  for (const line& l : lines) {
    const row* d = l.direct ? ctx.find(part, l.direct) : nullptr;
    const row* a = ctx.find(part, l.am);
    const row* ref = l.am_ref ? ctx.find(part, l.am_ref) : nullptr;
    std::string text = pad(l.label, 25, false);
    text += d ? pad(format_ns(d->value), 12) + pad(format_ci(d->stats), 7) : pad("", 19);
    text += a ? pad(format_ns(a->value), 10) + pad(format_ci(a->stats), 7) : pad("", 17);
    text += pad(ref != nullptr && a != nullptr
                    ? fmt::format("{} ({})", format_ratio(a->value / ref->value), l.am_ref_label)
                    : "",
                16);
    text += seed_cells(a, 10);
    fmt::print("{}\n", text);
  }
  const row* paired_ratio = ctx.find(part, "store_paired_ratio");
  if (paired_ratio != nullptr)
    fmt::print("store outside ÷ AM send, timed in one loop (alternating batches of 32): {}\n",
               format_ratio(paired_ratio->value));
  print_idle_poll(ctx);
  std::fflush(stdout);
}

void print(const context& ctx) {
  if (virtual_clock) return print_sim(ctx);
  fmt::print("\nTable 4: overhead and latency, 8-byte values, processor 0 → 1 (ns)\n");
  fmt::print("  ×RT: ÷ the raw cache-line ping-pong round trip measured interleaved with the row\n"
             "  ×AM: ÷ the raw active message of the same pattern; ×MPI: ÷ Open MPI's equivalent "
             "(measured in alternation)\n"
             "  get/put: {} operations then sync(), ÷ {}; store: sender's cost, the receiver's "
             "store_sync outside the timed loop\n",
             block_ops, block_ops);
  fmt::print("\n{}{}{}{}\n", pad("", 25, false), pad("  to a peer's spread heap", 23, false),
             pad("    outside the segments (active messages)", 40, false),
             "           Open MPI (vader, osc sm)");
  fmt::print("{}{}{}{}{}{}{}{}{}{}{}{}\n", pad("operation", 25, false), pad("time", 8),
             pad("±CI", 8), pad("×RT", 7), pad("time", 9), pad("±CI", 8), pad("×RT", 7),
             pad("×AM", 16), pad("equivalent", 17), pad("time", 8), pad("heap×MPI", 10),
             pad("out×MPI", 9));
  for (const line& l : lines) {
    const row* pp = ctx.find(part, l.pp, 8, "machine");
    const double ppv = pp != nullptr ? pp->value : NAN;
    std::string text = pad(l.label, 25, false);
    const row* d = l.direct ? ctx.find(part, l.direct) : nullptr;
    if (d != nullptr)
      text += pad(format_ns(d->value), 8) + pad(format_ci(d->stats), 8) +
              pad(format_ratio(d->value / ppv), 7);
    else
      text += pad("", 23);
    const row* a = ctx.find(part, l.am);
    if (a != nullptr)
      text += pad(format_ns(a->value), 9) + pad(format_ci(a->stats), 8) +
              pad(format_ratio(a->value / ppv), 7);
    else
      text += pad("", 24);
    const row* ref = l.am_ref ? ctx.find(part, l.am_ref) : nullptr;
    text += pad(ref != nullptr && a != nullptr
                    ? fmt::format("{} ({})", format_ratio(a->value / ref->value), l.am_ref_label)
                    : "",
                16);
    const row* m = l.mpi ? ctx.find(part, l.mpi, 8, "mpi") : nullptr;
    if (l.mpi != nullptr) {
      text += pad(l.mpi_label, 17) + pad(m ? format_ns(m->value) : "n/a", 8);
      if (m != nullptr)
        text += pad(d ? format_ratio(d->value / m->value) : "", 10) +
                pad(a ? format_ratio(a->value / m->value) : "", 9);
    }
    fmt::print("{}\n", text);
  }
  auto pp = [&](const char* k) {
    const row* r = ctx.find(part, k, 8, "machine");
    return r ? fmt::format("{} ns (±{})", format_ns(r->value), format_ci(r->stats))
             : std::string("not measured (no direct path to the peer)");
  };
  const row* paired_am = ctx.find(part, "am_send_paired");
  const row* paired_store = ctx.find(part, "store_outside_paired");
  const row* paired_ratio = ctx.find(part, "store_paired_ratio");
  if (paired_am != nullptr && paired_store != nullptr && paired_ratio != nullptr)
    fmt::print("store outside ÷ AM send, timed in one loop (alternating batches of 32): {} "
               "({} ns against {} ns)\n",
               format_ratio(paired_ratio->value), format_ns(paired_store->value),
               format_ns(paired_am->value));
  print_idle_poll(ctx);
  fmt::print("raw cache-line ping-pong RT, interleaved with each group: one-way rows {}, "
             "pipelined rows {}, blocking rows {}\n",
             pp("pingpong_rt_oneway"), pp("pingpong_rt_pipelined"), pp("pingpong_rt"));
  fmt::print("Open MPI: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
  std::fflush(stdout);
}

/// The table as a bar chart: each operation to the spread heap, outside the
/// segments and Open MPI's equivalent, with the raw round trip for scale.
void plot(context& ctx) {
  struct bar {
    const char* label;
    const char* direct;
    const char* am;
    const char* mpi;
  };
  const bar bars[] = {
      {"AM send", nullptr, "am_send_overhead", nullptr},
      {"store", "store_spread_heap", "store_outside", "mpi_put_pipe"},
      {"AM send+recv", nullptr, "am_send_recv_overhead", nullptr},
      {"get", "get_spread_heap", "get_outside", "mpi_get_pipe"},
      {"put", "put_spread_heap", "put_outside", "mpi_put_pipe"},
      {"AM round trip", nullptr, "am_round_trip", "mpi_pingpong_rt"},
      {"read", "read_spread_heap", "read_outside", "mpi_get_flush"},
      {"write", "write_spread_heap", "write_outside", "mpi_put_flush"},
  };
  std::vector<std::string> cats;
  std::vector<double> d, a, m, pp;
  const double rt = ctx.value(part, "pingpong_rt", 8, "machine");
  for (const bar& b : bars) {
    cats.push_back(b.label);
    d.push_back(b.direct ? ctx.value(part, b.direct) : NAN);
    a.push_back(ctx.value(part, b.am));
    m.push_back(b.mpi ? ctx.value(part, b.mpi, 8, "mpi") : NAN);
    pp.push_back(rt);
  }
  bar_chart(ctx, "table4",
            fmt::format("Table 4: overhead and latency, 8 bytes, processor 0 -> 1 ({} backend)",
                        splitc::backend_name()),
            "ns (log scale)", cats,
            {{"to a peer's spread heap", d},
             {"outside the segments (active messages)", a},
             {"Open MPI equivalent", m},
             {"raw cache-line round trip", pp}});
}

}  // namespace
}  // namespace part_table4_impl

void part_table4(context& ctx) {
  using namespace part_table4_impl;
  served_part([&] {
    std::vector<std::vector<row>> rounds;
    for (int r = 0; r < ctx.rounds; ++r) {
      if (ctx.rounds > 1) ctx.progress(part, fmt::format("round {}/{}", r + 1, ctx.rounds));
      auto rows = measure_splitc(ctx);
      double pp = NAN;
      for (const row& x : rows)
        if (x.name == "pingpong_rt") pp = x.value;
      auto m = measure_mpi(ctx, pp);
      rows.insert(rows.end(), m.begin(), m.end());
      rounds.push_back(std::move(rows));
    }
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
    plot(ctx);
  });
}

}  // namespace bench
