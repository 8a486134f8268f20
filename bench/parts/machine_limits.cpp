// The machine's own limits, measured in the same run as everything else: the
// raw cache-line ping-pong between processors 0 and 1 (two atomic flags in the
// mapped segments, no library in between) and single-thread memcpy, next to
// Open MPI's ping-pong round trip and windowed bandwidth at the same sizes; and,
// where processor 0 maps processor 1's segment, two copies through it with no
// library in between (what a transfer into a peer's malloc'd memory can reach).
#include "../format.hpp"
#include "../parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {
namespace part_limits_impl {
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

// ---- two copies through shared memory --------------------------------------------------------

/// The ring of the raw pipe, in each processor's part of a spread array: smp's shape (slots of
/// 128 KiB, the long-message fragment, in a 1 MiB ring). Processor 0 copies a transfer into
/// processor 1's ring slot by slot and counts `produced` there; processor 1 copies each slot
/// out into its malloc'd buffer and counts `consumed` in processor 0's part. In the near
/// regime some runs give a third of the usual rate at every size (a pause in the waits
/// changed nothing): read it as a reference, not a bound.
constexpr std::size_t pipe_chunk = 128 * KiB, pipe_slots = 8;
struct pipe_ring {
  alignas(64) std::atomic<std::uint64_t> produced;
  alignas(64) std::atomic<std::uint64_t> consumed;
  alignas(4096) unsigned char slot[pipe_slots][pipe_chunk];
};

std::vector<std::size_t> pipe_sizes(const config& cfg) {
  std::vector<std::size_t> v;
  for (std::size_t s : {1 * MiB, 2 * MiB, 8 * MiB})
    if (s <= cfg.max_size) v.push_back(s);
  if (cfg.smoke) v.resize(std::min<std::size_t>(v.size(), 1));
  return v;
}

/// Every processor calls it (the barriers); processors 0 and 1 move the bytes. Rows on
/// processor 0: the pipe's MB/s and memcpy's of the same size on processor 0, `transfers`
/// timed one by one, each followed by one memcpy of its size, both through the seed's filter
/// (bench::summarize; the first transfer thrown out).
std::vector<row> measure_pipe(const context& ctx) {
  std::vector<row> rows;
  const int me = splitc::myproc();
  auto rings = splitc::all_spread_malloc<pipe_ring>(static_cast<std::size_t>(splitc::procs()));
  pipe_ring* mine = rings.local();  // the same address on every processor
  pipe_ring* peer = nullptr;
  if (me <= 1) peer = splitc::direct_pointer(splitc::global_ptr<pipe_ring>(1 - me, mine));
  const bool mapped =
      splitc::reduce_to_all(me > 1 || peer != nullptr ? 1 : 0, [](int a, int b) { return a & b; });
  if (mapped && me <= 1) {
    mine->produced.store(0);
    mine->consumed.store(0);
  }
  splitc::barrier();
  const int transfers = ctx.cfg.smoke ? 2 : ctx.cfg.quick ? 41 : 201;  // the first thrown out
  std::uint64_t k = 0;  // chunks moved so far, both sides alike
  for (std::size_t size : mapped ? pipe_sizes(ctx.cfg) : std::vector<std::size_t>{}) {
    const std::size_t chunks = (size + pipe_chunk - 1) / pipe_chunk;
    auto* buffer = static_cast<unsigned char*>(std::aligned_alloc(4096, size));
    auto* copy = me == 0 ? static_cast<unsigned char*>(std::aligned_alloc(4096, size)) : nullptr;
    std::memset(buffer, 1, size);
    if (copy != nullptr) std::memset(copy, 2, size);
    std::vector<double> pipe_ns, memcpy_ns;
    for (int t = 0; t < transfers; ++t) {
      splitc::barrier();
      if (me == 0) {
        const std::int64_t t0 = host_now_ns();
        for (std::size_t i = 0; i < chunks; ++i, ++k) {
          while (k - mine->consumed.load(std::memory_order_acquire) >= pipe_slots) {
          }
          const std::size_t n = std::min(pipe_chunk, size - i * pipe_chunk);
          std::memcpy(peer->slot[k % pipe_slots], buffer + i * pipe_chunk, n);
          peer->produced.store(k + 1, std::memory_order_release);
        }
        while (mine->consumed.load(std::memory_order_acquire) < k) {
        }
        const std::int64_t t1 = host_now_ns();
        std::memcpy(copy, buffer, size);
        clobber();
        const std::int64_t t2 = host_now_ns();
        pipe_ns.push_back(static_cast<double>(t1 - t0));
        memcpy_ns.push_back(static_cast<double>(t2 - t1));
      } else if (me == 1) {
        for (std::size_t i = 0; i < chunks; ++i, ++k) {
          while (mine->produced.load(std::memory_order_acquire) <= k) {
          }
          const std::size_t n = std::min(pipe_chunk, size - i * pipe_chunk);
          std::memcpy(buffer + i * pipe_chunk, mine->slot[k % pipe_slots], n);
          peer->consumed.store(k + 1, std::memory_order_release);
        }
      }
    }
    std::free(buffer);
    std::free(copy);
    if (me != 0) continue;
    pipe_ns.erase(pipe_ns.begin());
    memcpy_ns.erase(memcpy_ns.begin());
    summary s = summarize(pipe_ns, 1);
    s.converged = true;
    const double pipe = mb_per_s(size, s.mean), raw = mb_per_s(size, summarize(memcpy_ns, 1).mean);
    rows.push_back(row{.part = part, .name = "pipe_two_copies", .impl = "machine", .size = size,
                       .value = pipe, .unit = "MB/s", .reference = "memcpy_same_size",
                       .reference_value = raw, .ratio = pipe / raw, .stats = s});
  }
  splitc::barrier();
  splitc::all_spread_free(rings);
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
  for (std::size_t s : pipe_sizes(ctx.cfg)) {
    const row* p = ctx.find(part, "pipe_two_copies", s, "machine");
    if (p == nullptr) continue;
    fmt::print("{}{}{}\n",
               pad(fmt::format("two copies, raw ring, {}", format_size(s)), 34, false),
               pad(format_mbs(p->value) + " MB/s", 22),
               fmt::format("  ×memcpy {} (memcpy {} MB/s, same run)", format_ratio(p->ratio),
                           format_mbs(p->reference_value)));
  }
  fmt::print("  the ping-pong: two flags on separate cache lines in the spread heap, no pause "
             "instruction; memcpy: one thread, between two of processor 0's buffers; two "
             "copies, raw ring: processor 0 copies into a ring of 8 × 128 KiB in processor 1's "
             "segment, processor 1 out of it into its malloc'd buffer (no library between: "
             "what a transfer into a peer's memory outside the segments can reach without the "
             "kernel's single copy)\n");
  fmt::print("  Open MPI: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
  std::fflush(stdout);
}

}  // namespace
}  // namespace part_limits_impl

void part_limits(context& ctx) {
  using namespace part_limits_impl;
  if (virtual_clock && !local_work_is_timed()) {
    // No raw path to a peer's memory (every access is a message) and memcpy
    // takes no virtual time; Open MPI runs in host time.
    if (splitc::myproc() == 0) print_not_applicable("Machine limits (ping-pong, memcpy, Open MPI)");
    return;
  }
  std::vector<row> pipe;
  if (local_work_is_timed()) {
    ctx.progress(part, "two copies through shared memory");
    pipe = measure_pipe(ctx);
  }
  served_part([&] {
    std::vector<std::vector<row>> rounds;
    for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx));
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    for (row& r : pipe) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  });
}

}  // namespace bench
