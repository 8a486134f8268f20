// The collectives beyond the seed's (issue 41), at 8 bytes and 64 KiB per member: gather,
// scatter, all-gather, all-to-all, their vector forms, reduce-scatter (int, +) on the world,
// and all-reduce, all-gather and all-to-all on a half team (team::split: the lower and the
// upper half of the processors), each measured by the lockstep method (bench/lockstep.hpp)
// and alternated in every round with Open MPI's equivalent (MPI_Gather, MPI_Scatter,
// MPI_Allgather, MPI_Alltoall, MPI_Allgatherv, MPI_Alltoallv, MPI_Reduce_scatter_block, and
// the same on MPI_Comm_split halves) measured the same way. Then the overlap of a split-phase
// all-reduce of 1 MiB with computation (overlap()).
#include "../compute.hpp"
#include "../format.hpp"
#include "../lockstep.hpp"
#include "../parts.hpp"
#include "../plots.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ctime>
#include <cstdio>
#include <algorithm>
#include <functional>

namespace bench {
namespace part_teams_impl {
namespace {

const char* const part = "teams";

struct op {
  const char* name;   ///< splitc's row
  const char* label;
  const char* mpi;    ///< mpi_reference.cpp's command
  const char* mpi_label;
};
const op ops[] = {
    {"gather", "gather", "gather", "MPI_Gather"},
    {"scatter", "scatter", "scatter", "MPI_Scatter"},
    {"all_gather", "all-gather", "allgather", "MPI_Allgather"},
    {"all_gatherv", "all-gatherv", "allgatherv", "MPI_Allgatherv"},
    {"all_to_all", "all-to-all", "alltoall", "MPI_Alltoall"},
    {"all_to_allv", "all-to-allv", "alltoallv", "MPI_Alltoallv"},
    {"reduce_scatter", "reduce-scatter (int, +)", "reduce_scatter", "MPI_Reduce_scatter_block"},
    {"half_reduce_to_all", "half team: all-reduce (int, +)", "half_allreduce", "MPI_Allreduce (split)"},
    {"half_all_gather", "half team: all-gather", "half_allgather", "MPI_Allgather (split)"},
    {"half_all_to_all", "half team: all-to-all", "half_alltoall", "MPI_Alltoall (split)"},
};
constexpr std::size_t sizes[] = {8, 64 * 1024};

lockstep_plan plan(const context& ctx, std::size_t size) {
  if (ctx.cfg.smoke) return {1, 1};
  if (virtual_clock) return {8, 3};
  const long iters = size <= 64 ? 2000 : 200;
  return ctx.cfg.quick ? lockstep_plan{iters / 4, 10} : lockstep_plan{iters, 20};
}

/// One round: every operation at every size, splitc's then Open MPI's.
std::vector<row> measure(context& ctx) {
  const int P = splitc::procs(), me = splitc::myproc();
  const auto uP = static_cast<std::size_t>(P);
  splitc::team world = splitc::team::world();
  splitc::team half = world.split(me < (P + 1) / 2 ? 0 : 1, me);
  auto barrier = [] { splitc::barrier(); };
  std::vector<row> rows;
  for (std::size_t n : sizes) {
    const lockstep_plan p = plan(ctx, n);
    std::vector<unsigned char> mine(n, 1), all(n * uP), send(n * uP, 2), receive(n * uP);
    std::vector<int> ints(n / sizeof(int) * uP, 1), block(n / sizeof(int));
    const std::vector<std::size_t> counts(uP, n);
    const auto hn = static_cast<std::size_t>(half.size());
    std::vector<unsigned char> half_send(n * hn, 3), half_receive(n * hn);
    std::vector<int> half_ints(n / sizeof(int));
    using bytes = std::span<const unsigned char>;
    using out = std::span<unsigned char>;
    const std::function<void()> runs[] = {
        [&] { splitc::gather(world, bytes(mine), out(all), 0); },
        [&] { splitc::scatter(world, bytes(send), out(mine), 0); },
        [&] { splitc::all_gather(world, bytes(mine), out(all)); },
        [&] { splitc::all_gatherv(world, bytes(mine), out(all), std::span<const std::size_t>(counts)); },
        [&] { splitc::all_to_all(world, bytes(send), out(receive)); },
        [&] {
          splitc::all_to_allv(world, bytes(send), std::span<const std::size_t>(counts), out(receive),
                              std::span<const std::size_t>(counts));
        },
        [&] {
          splitc::reduce_scatter(world, std::span<const int>(ints), std::span<int>(block),
                                 splitc::ops::add{});
        },
        [&] { splitc::reduce_to_all(half, std::span<int>(half_ints), splitc::ops::add{}); },
        [&] { splitc::all_gather(half, bytes(mine), out(half_receive)); },
        [&] { splitc::all_to_all(half, bytes(half_send), out(half_receive)); },
    };
    summary s[std::size(ops)];
    ctx.progress(part, fmt::format("splitc, {} bytes per member", n));
    for (std::size_t k = 0; k < std::size(ops); ++k)
      s[k] = lockstep(p, barrier, [&](long) { runs[k](); });
    if (me == 0) {
      ctx.progress(part, fmt::format("Open MPI, {} bytes per member", n));
      std::vector<mpi_command> cmds;
      for (const op& o : ops) cmds.push_back({o.mpi, n, p.iters, p.runs});
      const auto res = ctx.mpi_round(cmds, false);
      for (std::size_t k = 0; k < std::size(ops); ++k) {
        double mpi = NAN;
        for (const mpi_result& m : res) {
          if (m.op != ops[k].mpi) continue;
          mpi = m.ns;
          row r;
          r.part = part;
          r.name = std::string("mpi_") + m.op;
          r.impl = "mpi";
          r.size = n;
          r.value = m.ns;
          r.stats.mean = m.ns;
          r.stats.ci_rel = m.ci_rel;
          r.stats.kept = m.kept;
          r.stats.converged = true;
          rows.push_back(r);
        }
        s[k].converged = true;
        rows.push_back(row{.part = part, .name = ops[k].name, .impl = "splitc", .size = n,
                           .value = s[k].mean, .unit = "ns",
                           .reference = std::string("mpi_") + ops[k].mpi, .reference_value = mpi,
                           .ratio = s[k].mean / mpi, .stats = s[k]});
      }
    }
    quiet_barrier();
  }
  half.destroy();
  return rows;
}

/// The overlap of a split-phase all-reduce (1 MiB of doubles, +) with computation, the seed's
/// way of timing (lockstep runs, processor 0's timing): t_coll, the blocking all-reduce;
/// t_comp, computation calibrated to take t_coll, in 64 pieces with a poll after each; t_both,
/// the split-phase all-reduce started, the same computation, then sync. t_both / t_comp is
/// 1.0 when the collective is hidden entirely and 1 + t_coll / t_comp when not at all.
std::vector<row> overlap(context& ctx) {
  // Computation takes no virtual time: on the sim there is nothing to overlap with.
  if (virtual_clock) return {};
  constexpr std::size_t bytes = 1 << 20;
  constexpr int pieces = 64;
  std::vector<double> v(bytes / sizeof(double), 1.0);
  auto barrier = [] { splitc::barrier(); };
  const lockstep_plan p =
      ctx.cfg.smoke ? lockstep_plan{1, 1} : lockstep_plan{ctx.cfg.quick ? 20L : 50L, 10};
  volatile double sink = 0;
  const summary coll = lockstep(p, barrier, [&](long) {
    splitc::reduce_to_all(std::span<double>(v), splitc::ops::add{});
  });
  // Steps of computation per nanosecond, on this processor, then everyone takes processor 0's.
  const std::int64_t c0 = now_ns();
  sink = compute(1 << 20);
  const double steps_per_ns = static_cast<double>(1 << 20) / static_cast<double>(std::max<std::int64_t>(1, now_ns() - c0));
  const long total_steps =
      ctx.cfg.smoke ? 1000 : splitc::broadcast(static_cast<long>(coll.mean * steps_per_ns), 0);
  const long piece = std::max(1L, total_steps / pieces);
  auto work = [&] {
    for (int k = 0; k < pieces; ++k) {
      sink = compute(piece);
      splitc::poll();
    }
  };
  const summary comp = lockstep(p, barrier, [&](long) { work(); });
  const summary both = lockstep(p, barrier, [&](long) {
    splitc::counter done;
    splitc::reduce_to_all(std::span<double>(v), splitc::ops::add{}, done);
    work();
    splitc::sync(done);
  });
  std::vector<row> rows;
  if (splitc::myproc() == 0) {
    // Open MPI's MPI_Iallreduce the same way (it calibrates its computation to its own
    // MPI_Allreduce, and polls with MPI_Test after each piece).
    for (const mpi_result& m :
         ctx.mpi_round({{"iallreduce_overlap", bytes, p.iters, p.runs}}, false)) {
      row r;
      r.part = part;
      r.name = "mpi_" + m.op;
      r.impl = "mpi";
      r.size = bytes;
      r.value = m.ns;
      r.stats.mean = m.ns;
      r.stats.ci_rel = m.ci_rel;
      r.stats.kept = m.kept;
      r.stats.converged = true;
      rows.push_back(r);
    }
    rows.push_back(row{.part = part, .name = "overlap_allreduce_alone", .impl = "splitc",
                       .size = bytes, .value = coll.mean, .unit = "ns", .reference = {},
                       .reference_value = NAN, .ratio = NAN, .stats = coll});
    rows.push_back(row{.part = part, .name = "overlap_compute_alone", .impl = "splitc",
                       .size = bytes, .value = comp.mean, .unit = "ns", .reference = {},
                       .reference_value = NAN, .ratio = NAN, .stats = comp});
    rows.push_back(row{.part = part, .name = "overlap_allreduce_with_compute", .impl = "splitc",
                       .size = bytes, .value = both.mean, .unit = "ns",
                       .reference = "overlap_compute_alone", .reference_value = comp.mean,
                       .ratio = both.mean / comp.mean, .stats = both});
  }
  quiet_barrier();
  return rows;
}

void print_overlap(context& ctx) {
  const row* coll = ctx.find(part, "overlap_allreduce_alone", 1 << 20);
  const row* comp = ctx.find(part, "overlap_compute_alone", 1 << 20);
  const row* both = ctx.find(part, "overlap_allreduce_with_compute", 1 << 20);
  if (coll == nullptr || comp == nullptr || both == nullptr) return;
  fmt::print("\nSplit-phase all-reduce of 1 MiB (double, +) overlapped with computation, {} "
             "processes (64 pieces of computation, a poll after each)\n",
             splitc::procs());
  auto line = [](const char* who, const row* coll, const row* comp, const row* both) {
    fmt::print("  {:<28} all-reduce alone {}  computation alone {}  both {}  both ÷ computation "
               "{} (1.0: hidden; {}: not at all)\n",
               who, format_ns(coll->value), format_ns(comp->value), format_ns(both->value),
               format_ratio(both->value / comp->value),
               format_ratio((comp->value + coll->value) / comp->value));
  };
  line("splitc (counter)", coll, comp, both);
  const row* mcoll = ctx.find(part, "mpi_iallreduce_alone", 1 << 20, "mpi");
  const row* mcomp = ctx.find(part, "mpi_iallreduce_compute", 1 << 20, "mpi");
  const row* mboth = ctx.find(part, "mpi_iallreduce_overlap", 1 << 20, "mpi");
  if (mcoll != nullptr && mcomp != nullptr && mboth != nullptr)
    line("Open MPI (MPI_Iallreduce)", mcoll, mcomp, mboth);
  std::fflush(stdout);
}

void print(context& ctx) {
  for (std::size_t n : sizes) {
    fmt::print("\nCollectives beyond the seed's, {} processes, {} bytes per member (ns per "
               "operation, processor 0's timing; half team: {} and {} processes)\n"
               "  ×MPI: ÷ Open MPI's equivalent measured in alternation\n",
               splitc::procs(), n, (splitc::procs() + 1) / 2, splitc::procs() / 2);
    fmt::print("{}{}{}{}{}{}\n", pad("operation", 32, false), pad("splitc", 10), pad("±CI", 8),
               pad("Open MPI", 26), pad("time", 10), pad("×MPI", 8));
    std::vector<std::string> cats;
    std::vector<double> sv, mv;
    for (const op& o : ops) {
      const row* r = ctx.find(part, o.name, n);
      const row* m = ctx.find(part, std::string("mpi_") + o.mpi, n, "mpi");
      fmt::print("{}{}{}{}{}{}\n", pad(o.label, 32, false), pad(r ? format_ns(r->value) : "—", 10),
                 pad(r ? format_ci(r->stats) : "—", 8), pad(o.mpi_label, 26),
                 pad(m ? format_ns(m->value) : "n/a", 10),
                 pad(r && m ? format_ratio(r->value / m->value) : "—", 8));
      cats.push_back(o.label);
      sv.push_back(r ? r->value : NAN);
      mv.push_back(m ? m->value : NAN);
    }
    fmt::print("  Open MPI: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
    std::fflush(stdout);
    bar_chart(ctx, fmt::format("teams-{}", n),
              fmt::format("Collectives beyond the seed's, {} bytes per member, {} processes ({})",
                          n, splitc::procs(), splitc::backend_name()),
              "ns per operation (log scale)", cats, {{"splitc", sv}, {"Open MPI", mv}});
  }
}

}  // namespace
}  // namespace part_teams_impl

void part_teams(context& ctx) {
  using namespace part_teams_impl;
  std::vector<std::vector<row>> rounds;
  for (int r = 0; r < ctx.rounds; ++r) {
    if (ctx.rounds > 1) ctx.progress(part, fmt::format("round {}/{}", r + 1, ctx.rounds));
    std::vector<row> rows = measure(ctx);
    for (row& r : overlap(ctx)) rows.push_back(std::move(r));
    rounds.push_back(std::move(rows));
  }
  if (splitc::myproc() == 0) {
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
    print_overlap(ctx);
  }
  splitc::barrier();
}

}  // namespace bench
