// Waiting on memory (splitc/memory_wait.hpp): a ping-pong of flag words between processors 0
// and 1 where each side writes the other's flag (splitc::write) and waits for its own
// (splitc::wait_until), against the raw flag ping-pong through the mapped segment (a store
// through the direct pointer, a spin on an acquire load with a pause, nothing polled) where the backend
// maps the peer; and the same with 64 bytes of data before each flag, sent as a signalled put
// (splitc::put_signal, splitc/put_signal.hpp). All timed by the lockstep method
// (bench/lockstep.hpp), alternated in every round, medians over the rounds; OpenSHMEM's
// equivalents (shmem_long_p + shmem_long_wait_until; shmem_putmem + shmem_fence + shmem_long_p,
// OpenSHMEM 1.4's signalled put) by its reference program, between two processes of this host,
// after each round.
#include "../format.hpp"
#include "../lockstep.hpp"
#include "../parts.hpp"

#include <splitc/memory_wait.hpp>
#include <splitc/put_signal.hpp>
#include <splitc/port/backoff.hpp>

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstdio>

namespace bench {
namespace part_waits_impl {
namespace {

const char* const part = "waits";

lockstep_plan plan(const context& ctx) {
  if (ctx.cfg.smoke) return {1, 1};
  if (virtual_clock) return {50, 3};
  return ctx.cfg.quick ? lockstep_plan{2000, 10} : lockstep_plan{10000, 20};
}

constexpr std::size_t signal_bytes = 64;
/// Each processor's words for the signalled ping-pong.
struct signal_area {
  std::uint64_t signal;
  unsigned char data[signal_bytes];
};

/// One round: the splitc ping-pongs and the raw one, in the order the round number gives.
std::vector<row> measure(context& ctx, int round, splitc::spread_ptr<std::uint64_t> flags,
                         splitc::spread_ptr<signal_area> areas) {
  const int me = splitc::myproc();
  std::uint64_t* mine = flags.local();  // the same address on every processor
  const int peer = me == 0 ? 1 : 0;
  const bool playing = me <= 1;
  const splitc::global_ptr<std::uint64_t> theirs(peer, mine);
  auto* mapped = static_cast<std::uint64_t*>(splitc::direct_pointer(theirs));
  const bool raw_possible =
      splitc::reduce_to_all(playing && mapped == nullptr ? 1 : 0, splitc::ops::add{}) == 0;
  auto barrier = [] { splitc::barrier(); };
  const lockstep_plan p = plan(ctx);
  std::uint64_t next = 0;  // this processor's count of round trips so far (both kinds)
  auto reset = [&] {
    splitc::barrier();
    *mine = 0;
    next = 0;
    splitc::barrier();
  };
  summary waits, raw, signalled;
  signal_area* my_area = areas.local();  // the same address everywhere
  const unsigned char payload[signal_bytes] = {};
  auto run_signalled = [&] {
    reset();
    my_area->signal = 0;
    splitc::barrier();
    signalled = lockstep(p, barrier, [&](long) {
      if (!playing) return;
      ++next;
      const splitc::global_ptr<void> data(peer, my_area->data);
      const splitc::global_ptr<std::uint64_t> signal(peer, &my_area->signal);
      if (me == 0) {
        splitc::put_signal(data, payload, signal_bytes, signal, next, splitc::signal_op::set);
        splitc::wait_until(&my_area->signal, splitc::cmp::eq, next);
      } else {
        splitc::wait_until(&my_area->signal, splitc::cmp::eq, next);
        splitc::put_signal(data, payload, signal_bytes, signal, next, splitc::signal_op::set);
      }
    });
  };
  auto run_waits = [&] {
    reset();
    waits = lockstep(p, barrier, [&](long) {
      if (!playing) return;
      ++next;
      if (me == 0) {
        splitc::write(theirs, next);
        splitc::wait_until(mine, splitc::cmp::eq, next);
      } else {
        splitc::wait_until(mine, splitc::cmp::eq, next);
        splitc::write(theirs, next);
      }
    });
  };
  auto run_raw = [&] {
    reset();
    raw = lockstep(p, barrier, [&](long) {
      if (!playing) return;
      ++next;
      std::atomic_ref<std::uint64_t> own(*mine), other(*mapped);
      if (me == 0) {
        other.store(next, std::memory_order_release);
        while (own.load(std::memory_order_acquire) != next) splitc::port::cpu_relax();
      } else {
        while (own.load(std::memory_order_acquire) != next) splitc::port::cpu_relax();
        other.store(next, std::memory_order_release);
      }
    });
  };
  ctx.progress(part, fmt::format("round {}", round + 1));
  if (raw_possible && round % 2 == 1) run_raw();
  run_waits();
  run_signalled();
  if (raw_possible && round % 2 == 0) run_raw();
  std::vector<mpi_result> shmem;
  if (me == 0) {
    ctx.progress(part, "OpenSHMEM");
    shmem = ctx.shmem_round({{"wait_pingpong", 8, p.iters, p.runs},
                             {"signal_pingpong", signal_bytes, p.iters, p.runs}},
                            false);
  }
  quiet_barrier();
  std::vector<row> rows;
  if (me == 0) {
    double shmem_flag = NAN, shmem_signal = NAN;
    for (const mpi_result& m : shmem) {
      (m.op == "wait_pingpong" ? shmem_flag : shmem_signal) = m.ns;
      row r{.part = part, .name = "shmem_" + m.op, .impl = "shmem", .size = m.size,
            .value = m.ns, .unit = "ns", .reference = {}, .reference_value = NAN, .ratio = NAN,
            .stats = {}};
      r.stats.mean = m.ns;
      r.stats.ci_rel = m.ci_rel;
      r.stats.kept = m.kept;
      r.stats.converged = true;
      rows.push_back(r);
    }
    rows.push_back(row{.part = part, .name = "put_signal_pingpong", .impl = "splitc",
                       .size = signal_bytes, .value = signalled.mean, .unit = "ns",
                       .reference = "shmem_signal_pingpong", .reference_value = shmem_signal,
                       .ratio = signalled.mean / shmem_signal, .stats = signalled});
    (void)shmem_flag;
    row w{.part = part, .name = "wait_until_pingpong", .impl = "splitc", .size = 8,
          .value = waits.mean, .unit = "ns", .reference = {}, .reference_value = NAN,
          .ratio = NAN, .stats = waits};
    if (raw_possible) {
      w.reference = "raw_flag_pingpong";
      w.reference_value = raw.mean;
      w.ratio = waits.mean / raw.mean;
      rows.push_back(row{.part = part, .name = "raw_flag_pingpong", .impl = "machine", .size = 8,
                         .value = raw.mean, .unit = "ns", .reference = {},
                         .reference_value = NAN, .ratio = NAN, .stats = raw});
    }
    rows.push_back(w);
  }
  return rows;
}

void print(const context& ctx) {
  const row* w = ctx.find(part, "wait_until_pingpong");
  const row* r = ctx.find(part, "raw_flag_pingpong", 8, "machine");
  if (w == nullptr) return;
  fmt::print("\nWaiting on memory, processors 0 and 1 ({}): a ping-pong of flag words, round "
             "trip\n",
             ns_label());
  fmt::print("  write + wait_until      {} (±{}){}\n", format_ns(w->value), format_ci(w->stats),
             r ? fmt::format("   ×raw {}", format_ratio(w->value / r->value)) : "");
  if (r != nullptr)
    fmt::print("  raw flag ping-pong      {} (±{})   (a store through the mapped segment, a spin "
               "on an acquire load with a pause)\n",
               format_ns(r->value), format_ci(r->stats));
  else
    fmt::print("  raw flag ping-pong      n/a (processors 0 and 1 do not map each other)\n");
  const row* sf = ctx.find(part, "shmem_wait_pingpong", 8, "shmem");
  if (sf != nullptr)
    fmt::print("  OpenSHMEM               {}   (shmem_long_p + shmem_long_wait_until)   write + "
               "wait_until ×SHMEM {}\n",
               format_ns(sf->value), format_ratio(w->value / sf->value));
  const row* ps = ctx.find(part, "put_signal_pingpong", signal_bytes);
  const row* ss = ctx.find(part, "shmem_signal_pingpong", signal_bytes, "shmem");
  if (ps != nullptr)
    fmt::print("  {} B + signal: put_signal + wait_until {} (±{}){}\n", signal_bytes,
               format_ns(ps->value), format_ci(ps->stats),
               ss ? fmt::format("   OpenSHMEM putmem + fence + long_p {}   ×SHMEM {}",
                                format_ns(ss->value), format_ratio(ps->value / ss->value))
                  : "");
  fmt::print("  OpenSHMEM: {}\n", ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.shmem.status());
  std::fflush(stdout);
}

}  // namespace
}  // namespace part_waits_impl

void part_waits(context& ctx) {
  using namespace part_waits_impl;
  if (splitc::procs() < 2) return;
  auto flags = splitc::all_spread_malloc<std::uint64_t>(static_cast<std::size_t>(splitc::procs()));
  auto areas = splitc::all_spread_malloc<signal_area>(static_cast<std::size_t>(splitc::procs()));
  std::vector<std::vector<row>> rounds;
  for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx, r, flags, areas));
  splitc::all_spread_free(areas);
  splitc::all_spread_free(flags);
  if (splitc::myproc() == 0) {
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  }
  splitc::barrier();
}

}  // namespace bench
