// Atomic operations, processor 0 → 1: fetch_and_add, a failing compare-and-swap
// and a non-fetching add on a peer's spread heap, and the atomic-procedure
// round trip (an atomic procedure run on processor 1's memory outside the
// segments), interleaved with the raw active-message round trip and the
// cache-line ping-pong; OpenSHMEM's shmem_long_atomic_fetch_add, _compare_swap
// and _add + quiet, Open MPI's MPI_Fetch_and_op + flush, MPI_Accumulate + flush and ping-pong alternated
// with them (each by its reference program, between two processes of this host).
#include "../format.hpp"
#include "../parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace bench {
namespace part_atomics_impl {
namespace {

const char* const part = "atomics";

std::vector<row> measure(context& ctx) {
  const auto word = ctx.t.heap + 200;       // in processor 1's spread heap
  const auto target = ctx.t.outside + 100;  // processor 1's static array
  member pp = pingpong_member("pingpong_rt");
  member am_rt;
  am_rt.key = "am_round_trip";
  am_rt.run = timed_loop(
      [](long i) {
        splitc::am_request(1, H.echo, static_cast<u64>(i), u64{1}, u64{2}, u64{3});
        wait_for(pongs, ++pongs_expected);
      },
      nothing, nothing);
  member fadd;
  fadd.key = "fetch_and_add_peer_spread_heap";
  fadd.run = timed_loop(
      [word](long) {
        const u64 v = splitc::fetch_and_add(word, u64{1});
        escape(v);
      },
      nothing, nothing);
  member cas;
  cas.key = "compare_swap_peer_spread_heap";  // a failing one: the word never holds ~0
  cas.run = timed_loop(
      [word](long) {
        const u64 v = splitc::atomic_compare_swap(word, ~u64{0}, u64{5});
        escape(v);
      },
      nothing, nothing);
  member nadd;
  nadd.key = "atomic_add_peer_spread_heap";
  nadd.run = timed_loop([word](long) { splitc::atomic_add(word, u64{1}); }, nothing, nothing);
  member aproc;
  aproc.key = "atomic_procedure_round_trip";
  aproc.run = timed_loop(
      [target](long) {
        const u64 v = splitc::atomic([](u64* t) { return ++*t; }, target);
        escape(v);
      },
      nothing, nothing);
  std::vector<member*> group = {&pp, &am_rt, &fadd, &cas, &nadd, &aproc};
  if (!have_pingpong()) group.erase(group.begin());
  ctx.progress(part, "splitc");
  run_group(group, ctx.pol);

  std::vector<row> rows;
  const double ppv = have_pingpong() ? pp.result.mean : NAN;
  auto add = [&](const member& m, const char* impl, const char* ref, double refv) {
    rows.push_back(row{.part = part, .name = m.key, .impl = impl, .size = 8,
                       .value = m.result.mean, .unit = "ns", .reference = ref,
                       .reference_value = refv, .ratio = m.result.mean / refv,
                       .stats = m.result});
  };
  if (have_pingpong()) add(pp, "machine", "pingpong_rt", ppv);
  add(am_rt, "splitc", "pingpong_rt", ppv);
  add(fadd, "splitc", "pingpong_rt", ppv);
  add(cas, "splitc", "pingpong_rt", ppv);
  add(nadd, "splitc", "pingpong_rt", ppv);
  add(aproc, "splitc", "am_round_trip", am_rt.result.mean);

  ctx.progress(part, "Open MPI");
  const auto res = ctx.mpi_round({{"fetch_add", 8, ctx.mpi_iters(8), ctx.mpi_runs()},
                                  {"accumulate", 8, ctx.mpi_iters(8), ctx.mpi_runs()},
                                  {"pingpong", 8, ctx.mpi_iters(8), ctx.mpi_runs()}},
                                 true);
  ctx.progress(part, "OpenSHMEM");
  const auto shmem_res = ctx.shmem_round({{"fetch_add", 8, ctx.mpi_iters(8), ctx.mpi_runs()},
                                          {"compare_swap", 8, ctx.mpi_iters(8), ctx.mpi_runs()},
                                          {"add", 8, ctx.mpi_iters(8), ctx.mpi_runs()}},
                                         true);
  auto reference_row = [&](const mpi_result& m, std::string name, const char* impl) {
    row r;
    r.part = part;
    r.name = std::move(name);
    r.impl = impl;
    r.value = m.ns;
    r.stats.mean = m.ns;
    r.stats.ci_rel = m.ci_rel;
    r.stats.kept = m.kept;
    r.stats.converged = true;
    r.reference = "pingpong_rt";
    r.reference_value = ppv;
    r.ratio = m.ns / ppv;
    rows.push_back(r);
  };
  for (const mpi_result& m : res)
    reference_row(m,
                  m.op == "pingpong"     ? "mpi_pingpong_rt"
                  : m.op == "accumulate" ? "mpi_accumulate"
                                         : "mpi_fetch_and_op",
                  "mpi");
  for (const mpi_result& m : shmem_res) reference_row(m, "shmem_" + m.op, "shmem");
  return rows;
}

void print(const context& ctx) {
  fmt::print("\nAtomic operations, processor 0 → 1 ({}), interleaved with the raw AM round "
             "trip and the cache-line ping-pong; OpenSHMEM's and Open MPI's equivalents between "
             "two processes of this host in the same run\n",
             ns_label());
  fmt::print("{}{}{}{}{}{}{}{}{}\n", pad("operation", 34, false), pad("time", 9), pad("±CI", 8),
             pad("×RT", 7), pad("×AM RT", 8), pad("OpenSHMEM equivalent", 36), pad("×SHMEM", 8),
             pad("Open MPI equivalent", 28), pad("×MPI", 8));
  const row* pp = ctx.find(part, "pingpong_rt", 8, "machine");
  const row* am = ctx.find(part, "am_round_trip");
  struct line {
    const char* name;
    const char* label;
    const char* shmem;
    const char* shmem_label;
    const char* mpi;
    const char* mpi_label;
  };
  const line lines[] = {
      {"fetch_and_add_peer_spread_heap", "fetch_and_add (peer spread heap)", "shmem_fetch_add",
       "shmem_long_atomic_fetch_add", "mpi_fetch_and_op", "Fetch_and_op+flush"},
      {"compare_swap_peer_spread_heap", "atomic_compare_swap (failing)", "shmem_compare_swap",
       "shmem_long_atomic_compare_swap", nullptr, ""},
      {"atomic_add_peer_spread_heap", "atomic_add (non-fetching)", "shmem_add",
       "shmem_long_atomic_add+quiet", "mpi_accumulate", "Accumulate+flush"},
      {"atomic_procedure_round_trip", "atomic procedure round trip", nullptr, "", nullptr, ""},
      {"am_round_trip", "AM round trip", nullptr, "", "mpi_pingpong_rt", "Send/Recv RT"},
  };
  auto equivalent = [&](const row* r, const char* key, const char* label, const char* impl,
                        int width) {
    if (key == nullptr) return pad("", width) + pad("", 8);
    const row* m = ctx.find(part, key, 8, impl);
    return pad(fmt::format("{} {}", label, m ? format_ns(m->value) : "n/a"), width) +
           pad(m ? format_ratio(r->value / m->value) : "", 8);
  };
  for (const line& l : lines) {
    const row* r = ctx.find(part, l.name);
    if (r == nullptr) continue;
    fmt::print("{}{}{}{}{}{}{}\n", pad(l.label, 34, false), pad(format_ns(r->value), 9),
               pad(format_ci(r->stats), 8), pad(pp ? format_ratio(r->value / pp->value) : "—", 7),
               pad(am ? format_ratio(r->value / am->value) : "—", 8),
               equivalent(r, l.shmem, l.shmem_label, "shmem", 36),
               equivalent(r, l.mpi, l.mpi_label, "mpi", 28));
  }
  fmt::print("raw cache-line ping-pong RT: {}\n",
             pp ? fmt::format("{} ns (±{})", format_ns(pp->value), format_ci(pp->stats))
                : "not measured (no direct path to the peer)");
  fmt::print("  OpenSHMEM: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.shmem.status());
  std::fflush(stdout);
}

}  // namespace
}  // namespace part_atomics_impl

void part_atomics(context& ctx) {
  using namespace part_atomics_impl;
  served_part([&] {
    std::vector<std::vector<row>> rounds;
    for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx));
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  });
}

}  // namespace bench
