// The machine's own limits, measured in the same run as everything else: the
// raw cache-line ping-pong between processors 0 and 1 (two atomic flags in the
// mapped segments, no library in between) and single-thread memcpy, next to
// Open MPI's ping-pong round trip and windowed bandwidth at the same sizes.
#include "../format.hpp"
#include "../parts.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstring>

namespace bench {
namespace {

const char* const part = "limits";

std::vector<std::size_t> copy_sizes(const config& cfg) {
  std::vector<std::size_t> v;
  for (std::size_t s : {std::size_t{8}, 4 * KiB, 1 * MiB, cfg.max_size})
    if (s <= cfg.max_size && (v.empty() || v.back() != s)) v.push_back(s);
  if (cfg.smoke) v.resize(std::min<std::size_t>(v.size(), 2));
  return v;
}

std::vector<row> measure(context& ctx) {
  std::vector<row> rows;
  const auto sizes = copy_sizes(ctx.cfg);
  if (have_pingpong()) {
    ctx.progress(part, "cache-line ping-pong");
    member pp = pingpong_member("pingpong_rt");
    run_group({&pp}, ctx.pol);
    rows.push_back(row{.part = part, .name = "pingpong_rt", .impl = "machine", .size = 8,
                       .value = pp.result.mean, .unit = "ns", .reference = "pingpong_rt",
                       .reference_value = pp.result.mean, .ratio = 1, .stats = pp.result});
  }
  for (std::size_t s : local_work_is_timed() ? sizes : std::vector<std::size_t>{}) {
    ctx.progress(part, fmt::format("memcpy {}", format_size(s)));
    const targets t = ctx.t;
    member m;
    m.key = "memcpy";
    m.min_iters = 1;
    m.max_iters = 1L << 22;
    m.run = timed_loop([t, s](long) { std::memcpy(t.dst, t.src, s); }, nothing, nothing);
    run_group({&m}, ctx.pol);
    const double v = mb_per_s(s, m.result.mean);
    rows.push_back(row{.part = part, .name = "memcpy", .impl = "machine", .size = s, .value = v,
                       .unit = "MB/s", .reference = "memcpy", .reference_value = v, .ratio = 1,
                       .stats = m.result});
  }
  ctx.progress(part, "Open MPI ping-pong and bandwidth");
  std::vector<mpi_command> cmds = {{"pingpong", 8, ctx.mpi_iters(8), ctx.mpi_runs()}};
  for (std::size_t s : sizes) cmds.push_back({"bw_send", s, ctx.mpi_window_iters(s), ctx.mpi_runs()});
  for (const mpi_result& m : ctx.mpi_round(cmds, true)) {
    row r;
    r.part = part;
    r.impl = "mpi";
    r.size = m.size;
    r.stats.mean = m.ns;
    r.stats.ci_rel = m.ci_rel;
    r.stats.kept = m.kept;
    r.stats.converged = true;
    if (m.op == "pingpong") {
      r.name = "mpi_pingpong_rt";
      r.value = m.ns;
      r.reference = "pingpong_rt";
    } else {
      r.name = "mpi_bw_send";
      r.unit = "MB/s";
      r.value = mb_per_s(m.size, m.ns);
      r.reference = "memcpy";
    }
    for (const row& x : rows)
      if (x.name == r.reference && x.size == r.size) r.reference_value = x.value;
    r.ratio = r.value / r.reference_value;
    rows.push_back(r);
  }
  return rows;
}

void print(const context& ctx) {
  fmt::print("\nMachine limits and Open MPI, measured in this run (processor 0 ↔ 1)\n");
  fmt::print("{}{}{}{}\n", pad("quantity", 34, false), pad("machine", 22), pad("Open MPI", 26),
             pad("MPI ÷ machine", 15));
  const row* pp = ctx.find(part, "pingpong_rt", 8, "machine");
  const row* mpp = ctx.find(part, "mpi_pingpong_rt", 8, "mpi");
  fmt::print("{}{}{}{}\n", pad("round trip, 8 bytes", 34, false),
             pad(pp ? format_ns(pp->value) + " ns cache line" : "n/a (no direct path)", 22),
             pad(mpp ? format_ns(mpp->value) + " ns Send/Recv" : "n/a", 26),
             pad(pp && mpp ? format_ratio(mpp->value / pp->value) : "—", 15));
  for (std::size_t s : copy_sizes(ctx.cfg)) {
    const row* m = ctx.find(part, "memcpy", s, "machine");
    const row* b = ctx.find(part, "mpi_bw_send", s, "mpi");
    fmt::print("{}{}{}{}\n", pad(fmt::format("bandwidth, {}", format_size(s)), 34, false),
               pad(m ? format_mbs(m->value) + " MB/s memcpy" : "—", 22),
               pad(b ? format_mbs(b->value) + " MB/s Isend/Irecv" : "n/a", 26),
               pad(m && b ? format_ratio(b->value / m->value) : "—", 15));
  }
  fmt::print("  the ping-pong: two flags on separate cache lines in the spread heap, no pause "
             "instruction; memcpy: one thread, between two of processor 0's buffers\n");
  fmt::print("  Open MPI: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
  std::fflush(stdout);
}

}  // namespace

void part_limits(context& ctx) {
  if (virtual_clock && !local_work_is_timed()) {
    // No raw path to a peer's memory (every access is a message) and memcpy
    // takes no virtual time; Open MPI runs in host time.
    if (splitc::myproc() == 0) print_not_applicable("Machine limits (ping-pong, memcpy, Open MPI)");
    return;
  }
  served_part([&] {
    std::vector<std::vector<row>> rounds;
    for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx));
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  });
}

}  // namespace bench
