// splitc-collectives-bench: the seed's Tables 8–11 (barrier, broadcast,
// reduce, scan of one int) and Table 7 (spread-pointer operations) for the
// backend it is built against, plus fetch_and_add on a peer's spread heap and
// the atomic-procedure round trip next to the raw active-message round trip.
// bench/compare_collectives.sh runs it alternately with the Open MPI
// equivalent (mpi_collectives_bench.cpp) and prints the ratios.
//
//   splitc-run -n 2 splitc-collectives-bench [--quick] [--smoke] [--raw]
#include "lockstep.hpp"
#include "timing.hpp"

#include <splitc/splitc.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <cstring>
#include <string>

namespace {

struct row {
  std::string name;
  bench::summary s;
};

long long static_target;  // the atomic procedure's target (same address everywhere)

void print(const std::vector<row>& rows, bool raw) {
  if (splitc::myproc() != 0) return;
  for (const row& r : rows) {
    if (raw) {
      fmt::print("{} {:.2f}\n", r.name, r.s.mean);
    } else {
      fmt::print("{:<34} {:>10.1f} ns   (±{:.1f}, {} runs kept, {} dropped)\n", r.name, r.s.mean,
                 r.s.ci_abs, r.s.kept, r.s.dropped);
    }
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  bool quick = false, smoke = false, raw = false;
  for (int i = 1; i < argc; ++i) {
    quick |= std::strcmp(argv[i], "--quick") == 0;
    smoke |= std::strcmp(argv[i], "--smoke") == 0;
    raw |= std::strcmp(argv[i], "--raw") == 0;
  }
  const int me = splitc::myproc(), P = splitc::procs();
  bench::lockstep_plan plan;
  if (quick) plan = {1000, 20};
  if (smoke) plan = {1, 1};
  auto barrier = [] { splitc::barrier(); };
  std::vector<row> rows;
  volatile long long sink = 0;

  // Tables 8–11: every processor takes part.
  rows.push_back({"barrier", bench::lockstep(plan, barrier, [](long) { splitc::barrier(); })});
  rows.push_back({"broadcast_int", bench::lockstep(plan, barrier, [&](long i) {
                    sink = splitc::broadcast(static_cast<int>(i), 0);
                  })});
  rows.push_back({"reduce_to_one_int_add", bench::lockstep(plan, barrier, [&](long i) {
                    sink = splitc::reduce_to_one(static_cast<int>(i), splitc::ops::add{});
                  })});
  rows.push_back({"reduce_to_all_int_add", bench::lockstep(plan, barrier, [&](long i) {
                    sink = splitc::reduce_to_all(static_cast<int>(i), splitc::ops::add{});
                  })});
  rows.push_back({"scan_int_add", bench::lockstep(plan, barrier, [&](long i) {
                    sink = splitc::scan(static_cast<int>(i), splitc::ops::add{});
                  })});
  print(rows, raw);
  rows.clear();

  // Processor 0 against processor 1 (the others wait in the barrier).
  const int peer = P > 1 ? 1 : 0;
  splitc::spread_ptr<long long> words = splitc::all_spread_malloc<long long>(static_cast<std::size_t>(P));
  const splitc::global_ptr<long long> peer_word(words + peer);
  const auto peer_static = splitc::toglobal(peer, &static_target);
  const splitc::handler_id echo = splitc::register_handler([](const splitc::am_message& m) {
    splitc::am_reply(m, static_cast<splitc::handler_id>(m.args[0]), m.args[1]);
  });
  struct flag_holder {
    static void on_reply(const splitc::am_message& m) {
      *reinterpret_cast<volatile int*>(static_cast<std::uintptr_t>(m.args[0])) = 1;
    }
  };
  const splitc::handler_id reply = splitc::register_handler(flag_holder::on_reply);
  auto one_sided = [&](auto event) {
    // Processor 0 measures alone; its peer serves by polling in the barrier.
    bench::summary s;
    if (me == 0) {
      bench::policy p;
      if (quick) p.target_run_ns = 50e3;
      p.smoke = smoke;
      bench::member m{"x", bench::timed_loop(event, bench::nothing, bench::nothing)};
      bench::run_group({&m}, p);
      s = m.result;
    }
    splitc::barrier();
    return s;
  };
  rows.push_back({"fetch_and_add_peer_spread_heap", one_sided([&](long) {
                    sink = splitc::fetch_and_add(peer_word, 1LL);
                  })});
  rows.push_back({"am_round_trip", one_sided([&](long) {
                    volatile int done = 0;
                    splitc::am_request(peer, echo, static_cast<splitc::am_word>(reply),
                                       reinterpret_cast<std::uintptr_t>(&done));
                    while (done == 0) splitc::poll();
                  })});
  rows.push_back({"atomic_procedure_round_trip", one_sided([&](long) {
                    sink = splitc::atomic([](long long* t) { return ++*t; }, peer_static);
                  })});

  // Table 7: spread-pointer operations (processor 0, no communication).
  const std::size_t n = 4096;
  splitc::spread_ptr<double> array = splitc::all_spread_malloc<double>(n * static_cast<std::size_t>(P));
  rows.push_back({"table7_sptr_index", one_sided([&](long i) {
                    const splitc::spread_ptr<double> e = array + (i & 4095);
                    bench::escape(e);
                  })});
  splitc::spread_ptr<double> walker = array;
  rows.push_back({"table7_sptr_increment", one_sided([&](long) {
                    ++walker;
                    bench::escape(walker);
                  })});
  rows.push_back({"table7_for_my_1d_iteration", one_sided([&](long) {
                    double sum = 0;
                    for_my_1d(i, 64) sum += static_cast<double>(i);
                    bench::escape(sum);
                  })});
  rows.back().s.mean /= 64.0 / P;  // per iteration of the loop body
  rows.push_back({"table7_for_my_2d_iteration", one_sided([&](long) {
                    double sum = 0;
                    for_my_2d(i, j, 8, 8) sum += static_cast<double>(i * 8 + j);
                    bench::escape(sum);
                  })});
  rows.back().s.mean /= 64.0 / P;
  print(rows, raw);

  splitc::all_spread_free(array);
  splitc::all_spread_free(words);
  splitc::finalize();
  return 0;
}
