// Tables 8–11: barrier, broadcast, reduce to one, reduce to all and scan of
// one int, every processor taking part (the lockstep method of
// bench/lockstep.hpp: the same fixed schedule of runs everywhere, each after a
// barrier), alternated with Open MPI's MPI_Barrier, MPI_Bcast, MPI_Reduce,
// MPI_Allreduce and MPI_Scan measured the same way. On the sim, also Table 10's
// other column: broadcast, reduce to one and scan each after a barrier, the
// flow control of the seed's CM-5 collectives, which it also ran on the Paragon.
#include "../format.hpp"
#include "../lockstep.hpp"
#include "../parts.hpp"
#include "../plots.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

namespace bench {
namespace part_collectives_impl {
namespace {

const char* const part = "collectives";

struct op {
  const char* name;
  const char* label;
  const char* mpi;
  const char* mpi_label;
};
const op ops[] = {
    {"barrier", "barrier", "barrier", "MPI_Barrier"},
    {"broadcast_int", "broadcast (int)", "bcast", "MPI_Bcast"},
    {"reduce_to_one_int_add", "reduce to one (int, +)", "reduce", "MPI_Reduce"},
    {"reduce_to_all_int_add", "reduce to all (int, +)", "allreduce", "MPI_Allreduce"},
    {"scan_int_add", "scan (int, +)", "scan", "MPI_Scan"},
};
/// Table 10's barrier column (Luna 1994 §5.3, Figure 18): "flow control is handled with
/// barriers", a barrier at the beginning of every global function; timed as barrier + the
/// collective, one row each (the seed's barrier row is the same in both columns).
const op after_barrier[] = {
    {"barrier_then_broadcast_int", "barrier + broadcast", "", ""},
    {"barrier_then_reduce_to_one_int_add", "barrier + reduce to one", "", ""},
    {"barrier_then_scan_int_add", "barrier + scan", "", ""},
};

lockstep_plan plan(const context& ctx) {
  if (ctx.cfg.smoke) return {1, 1};
  // Virtual time has no noise to average out (in deterministic mode every
  // run is the same) and a collective at P = 1024 is thousands of fiber
  // switches: a few short runs.
  if (virtual_clock) return ctx.cfg.quick ? lockstep_plan{16, 3} : lockstep_plan{64, 5};
  if (ctx.cfg.quick) return {1000, 10};
  return {2000, 30};
}

std::vector<row> measure(context& ctx) {
  const lockstep_plan p = plan(ctx);
  auto barrier = [] { splitc::barrier(); };
  volatile long long sink = 0;
  summary s[5];
  ctx.progress(part, "splitc");
  s[0] = lockstep(p, barrier, [](long) { splitc::barrier(); });
  s[1] = lockstep(p, barrier, [&](long i) { sink = splitc::broadcast(static_cast<int>(i), 0); });
  s[2] = lockstep(p, barrier, [&](long i) {
    sink = splitc::reduce_to_one(static_cast<int>(i), splitc::ops::add{});
  });
  s[3] = lockstep(p, barrier, [&](long i) {
    sink = splitc::reduce_to_all(static_cast<int>(i), splitc::ops::add{});
  });
  s[4] = lockstep(p, barrier, [&](long i) {
    sink = splitc::scan(static_cast<int>(i), splitc::ops::add{});
  });
  summary flow[3];
  if (virtual_clock) {
    flow[0] = lockstep(p, barrier, [&](long i) {
      splitc::barrier();
      sink = splitc::broadcast(static_cast<int>(i), 0);
    });
    flow[1] = lockstep(p, barrier, [&](long i) {
      splitc::barrier();
      sink = splitc::reduce_to_one(static_cast<int>(i), splitc::ops::add{});
    });
    flow[2] = lockstep(p, barrier, [&](long i) {
      splitc::barrier();
      sink = splitc::scan(static_cast<int>(i), splitc::ops::add{});
    });
  }

  std::vector<row> rows;
  if (splitc::myproc() == 0) {
    // Everyone else waits (sleeping) in the barrier below while Open MPI runs.
    ctx.progress(part, "Open MPI");
    std::vector<mpi_command> cmds;
    for (const op& o : ops) cmds.push_back({o.mpi, 1, p.iters, p.runs});
    const auto res = ctx.mpi_round(cmds, false);
    for (std::size_t k = 0; k < std::size(ops); ++k) {
      double mpi = NAN;
      for (const mpi_result& m : res)
        if (m.op == ops[k].mpi) {
          mpi = m.ns;
          row r;
          r.part = part;
          r.name = std::string("mpi_") + m.op;
          r.impl = "mpi";
          r.size = 4;
          r.value = m.ns;
          r.stats.mean = m.ns;
          r.stats.ci_rel = m.ci_rel;
          r.stats.kept = m.kept;
          r.stats.converged = true;
          r.reference = "pingpong_rt";
          r.reference_value = ctx.pingpong_start;
          r.ratio = m.ns / ctx.pingpong_start;
          rows.push_back(r);
        }
      s[k].converged = true;
      rows.push_back(row{.part = part, .name = ops[k].name, .impl = "splitc", .size = 4,
                         .value = s[k].mean, .unit = "ns",
                         .reference = std::string("mpi_") + ops[k].mpi, .reference_value = mpi,
                         .ratio = s[k].mean / mpi, .stats = s[k]});
    }
    if (virtual_clock)
      for (std::size_t k = 0; k < std::size(after_barrier); ++k) {
        flow[k].converged = true;
        rows.push_back(row{.part = part, .name = after_barrier[k].name, .impl = "splitc",
                           .size = 4, .value = flow[k].mean, .unit = "ns", .reference = {},
                           .reference_value = NAN, .ratio = NAN, .stats = flow[k]});
      }
  }
  splitc::barrier();
  return rows;
}

/// One row of print_sim's table, and its bars.
void print_sim_row(context& ctx, const op& o, std::vector<std::string>& cats,
                   std::vector<double>& sv, std::vector<double>& seeds) {
  const row* r = ctx.find(part, o.name, 4);
  const bool seeded = r != nullptr && std::isfinite(r->seed_value);
  fmt::print("{}{}{}{}{}\n", pad(o.label, 26, false), pad(r ? format_ns(r->value) : "—", 10),
             pad(r ? format_ci(r->stats) : "—", 8), pad(seeded ? format_ns(r->seed_value) : "", 10),
             pad(seeded ? format_ratio(r->seed_ratio) : "", 8));
  cats.push_back(o.label);
  sv.push_back(r ? r->value : NAN);
  seeds.push_back(seeded ? r->seed_value : NAN);
}

/// On the sim: virtual times next to the seed's figures for the machine at
/// this processor count (no Open MPI, no ping-pong in virtual time).
void print_sim(context& ctx) {
  fmt::print("\nTables 8–11: global communication, {} processors, one int (virtual ns per "
             "operation, processor 0's timing, machine {})\n"
             "  seed: the seed's figure for this machine at {} processors (Tables 8-11 give 4, "
             "8 or 64); ÷seed: sim ÷ seed\n",
             splitc::procs(), ctx.sim_machine, splitc::procs());
  fmt::print("{}{}{}{}{}\n", pad("operation", 26, false), pad("splitc", 10), pad("±CI", 8),
             pad("seed", 10), pad("÷seed", 8));
  std::vector<std::string> cats;
  std::vector<double> sv, seeds;
  for (const op& o : ops) print_sim_row(ctx, o, cats, sv, seeds);
  fmt::print("  each after a barrier (the seed's CM-5 flow control; on the Paragon, Table 10's "
             "other column)\n");
  for (const op& o : after_barrier) print_sim_row(ctx, o, cats, sv, seeds);
  std::fflush(stdout);
  bar_chart(ctx, "tables8-11",
            fmt::format("Tables 8-11: global communication, {} processors (sim, {})",
                        splitc::procs(), ctx.sim_machine),
            "virtual ns per operation (log scale)", cats,
            {{"splitc (sim)", sv}, {"seed", seeds}});
}

void print(context& ctx) {
  if (virtual_clock) return print_sim(ctx);
  fmt::print("\nTables 8–11: global communication, {} processors, one int (ns per operation, "
             "processor 0's timing)\n"
             "  ×MPI: ÷ Open MPI's equivalent measured in alternation; ×RT: ÷ the raw "
             "cache-line round trip at the start of the run ({} ns)\n",
             splitc::procs(), format_ns(ctx.pingpong_start));
  fmt::print("{}{}{}{}{}{}{}\n", pad("operation", 26, false), pad("splitc", 9), pad("±CI", 8),
             pad("×RT", 7), pad("Open MPI", 20), pad("time", 9), pad("×MPI", 8));
  std::vector<std::string> cats;
  std::vector<double> sv, mv;
  for (const op& o : ops) {
    const row* r = ctx.find(part, o.name, 4);
    const row* m = ctx.find(part, std::string("mpi_") + o.mpi, 4, "mpi");
    fmt::print("{}{}{}{}{}{}{}\n", pad(o.label, 26, false), pad(r ? format_ns(r->value) : "—", 9),
               pad(r ? format_ci(r->stats) : "—", 8),
               pad(r ? format_ratio(r->value / ctx.pingpong_start) : "—", 7),
               pad(o.mpi_label, 20), pad(m ? format_ns(m->value) : "n/a", 9),
               pad(r && m ? format_ratio(r->value / m->value) : "—", 8));
    cats.push_back(o.label);
    sv.push_back(r ? r->value : NAN);
    mv.push_back(m ? m->value : NAN);
  }
  fmt::print("  Open MPI: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
  std::fflush(stdout);
  bar_chart(ctx, "tables8-11",
            fmt::format("Tables 8-11: global communication, {} processes ({} backend)",
                        splitc::procs(), splitc::backend_name()),
            "ns per operation (log scale)", cats,
            {{"splitc", sv}, {"Open MPI", mv}});
}

}  // namespace
}  // namespace part_collectives_impl

void part_collectives(context& ctx) {
  using namespace part_collectives_impl;
  std::vector<std::vector<row>> rounds;
  for (int r = 0; r < ctx.rounds; ++r) {
    if (ctx.rounds > 1) ctx.progress(part, fmt::format("round {}/{}", r + 1, ctx.rounds));
    rounds.push_back(measure(ctx));
  }
  if (splitc::myproc() == 0) {
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  }
  splitc::barrier();
}

}  // namespace bench
