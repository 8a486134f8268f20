// splitc-bench: the porting suite. For the backend it is built against it
// measures what §5 of the Libsplit-C report measures — Table 4 (overhead and
// latency of active messages and of the five global-memory operations),
// Table 7 (pointer operations), Tables 8–11 (collectives), Figures 10–15
// (bandwidth against size) — plus atomics, with the machine's own limits (raw
// cache-line ping-pong, memcpy) and Open MPI's equivalents measured in the
// same run, and prints tables, writes CSV/JSON and plots (PNG, SVG).
//
//   splitc-run -n 2 splitc-bench [--quick | --smoke] [--only PARTS] [--out DIR]
//
// Processor 0 measures against processor 1; processors 2.. wait (sleeping)
// except in the collectives. See docs/performance.md.
#include "command_line.hpp"
#include "format.hpp"
#include "harness.hpp"
#include "parts.hpp"
#include "plots.hpp"
#include "results.hpp"
#include "reference_paths.hpp"
#include "seed_figures.hpp"

#include <splitc/port/env.hpp>
#include <splitc/splitc.hpp>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace bench;

std::string help_footer() {
  std::string s = "Parts (--only takes a comma-separated list; 'figures' = fig10..fig15, "
                  "'tables' = table4,table7,collectives):\n";
  for (const part_info& p : part_names()) s += fmt::format("  {:<12} {}\n", p.name, p.what);
  s += "\nModes: default (~95% CI within 2%, up to 1 s per measurement shared by 3 rounds, sizes x2 up to "
       "--max-size: a few minutes);\n"
       "  --quick (95% CI within 5%, 0.2 s per measurement, 1 round, sizes x4: about a minute);\n"
       "  --smoke (one iteration of everything, tiny sizes: checks that it runs; numbers mean "
       "nothing).\n"
       "A round measures splitc, then Open MPI's equivalent (splitc-bench-mpi-reference under "
       "mpirun, started by processor 0\n"
       "as a child while the other processors sleep); with several rounds each number is the "
       "median.\n"
       "Outputs in --out: results.csv, results.json (every row: part, name, impl, backend, "
       "procs, size, value, unit,\n"
       "reference, ratio), table4/tables8-11/fig10..fig15 .png and .svg (gnuplot), with their "
       ".dat and .gp files.\n"
       "Run with 2 processes on an otherwise idle machine: splitc-run -n 2 splitc-bench\n";
  return s;
}

std::string self_directory() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

/// Split "a,b,c" and expand the aliases; false (with a message) on an unknown name.
bool expand_parts(std::vector<std::string>& only) {
  std::vector<std::string> out;
  for (const std::string& item : only) {
    std::size_t start = 0;
    while (start <= item.size()) {
      const std::size_t comma = std::min(item.find(',', start), item.size());
      const std::string name = item.substr(start, comma - start);
      start = comma + 1;
      if (name.empty()) continue;
      if (name == "all") return only.clear(), true;
      std::vector<std::string> add;
      if (name == "figures")
        add = {"fig10", "fig11", "fig12", "fig13", "fig14", "fig15"};
      else if (name == "tables")
        add = {"table4", "table7", "collectives"};
      else if (name == "table8-11" || name == "tables8-11")
        add = {"collectives"};
      else
        add = {name};
      for (const std::string& a : add) {
        const auto& known = part_names();
        if (std::none_of(known.begin(), known.end(),
                         [&](const part_info& p) { return a == p.name; })) {
          if (splitc::myproc() == 0)
            fmt::print(stderr, "splitc-bench: unknown part '{}' (see --help)\n", a);
          return false;
        }
        out.push_back(a);
      }
    }
  }
  only = out;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc();

  context ctx;
  ctx.sim_machine = sim_machine_id();
  config& cfg = ctx.cfg;
  if (const auto status = parse_command_line(argc, argv, me == 0, help_footer(), cfg)) {
    splitc::finalize();
    return *status;
  }
  if (virtual_clock) cfg.no_mpi = true;  // Open MPI would run in host time
  if (!expand_parts(cfg.only)) {
    splitc::finalize();
    return 2;
  }
  if (cfg.smoke) cfg.max_size = std::min(cfg.max_size, 256 * KiB);
  ctx.rounds = cfg.rounds > 0 ? cfg.rounds : (cfg.quick || cfg.smoke) ? 1 : 3;
  if (cfg.smoke) {
    ctx.pol.smoke = true;
    ctx.mode = "smoke";
  } else if (cfg.quick) {
    ctx.pol.target_run_ns = 50e3;
    ctx.pol.max_runs = 300;
    ctx.pol.ci_target = 0.05;
    ctx.pol.budget_s = 0.2;
    ctx.mode = "quick";
  } else {
    ctx.mode = "default";
  }
  // The time budget of a measurement is shared by its rounds, so more rounds
  // interleave more finely with Open MPI but do not make the run longer.
  ctx.pol.budget_s /= ctx.rounds;

  register_handlers();
  if (splitc::procs() < 2) {
    if (me == 0)
      fmt::print(stderr, "splitc-bench: needs at least 2 processors "
                         "(run it as: splitc-run -n 2 splitc-bench)\n");
    splitc::finalize();
    return 2;
  }

  // This program's part of the spread heap: one region per processor, at the
  // same offset on each, page-aligned.
  const std::size_t region_bytes = off_bulk + cfg.max_size;
  const splitc::spread_ptr<void> region =
      splitc::all_spread_malloc(static_cast<std::size_t>(splitc::procs()), region_bytes + 4096);
  if (region.local() == nullptr) {
    if (me == 0)
      fmt::print(stderr,
                 "splitc-bench: the spread heap has no room for {} bytes per processor; raise "
                 "SPLITC_SEGMENT_SIZE or lower --max-size\n",
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
  auto alloc = [](std::size_t n, int fill) {
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(4096, (n + 4095) / 4096 * 4096));
    if (p == nullptr) splitc::fatal_error("splitc-bench: out of memory");
    std::memset(p, fill, n);
    return p;
  };
  if (me == 1) {
    outside_bulk = alloc(cfg.max_size, 0x11);
    medium_sink = alloc(splitc::am_medium_limit, 0);  // composed where the layer has none
    auto* pub = reinterpret_cast<u64*>(base + off_publish);
    pub[0] = reinterpret_cast<u64>(&outside_scalars[0]);
    pub[1] = reinterpret_cast<u64>(outside_bulk);
    std::memset(base + off_scalars, 0, block_ops * sizeof(u64));
    std::memset(base + off_bulk, 0x22, cfg.max_size);  // allocate the segment's pages
  } else if (me == 0) {
    ctx.t.src = alloc(cfg.max_size, 0x33);
    ctx.t.dst = alloc(cfg.max_size, 0x44);
  }
  setup_pingpong(base);
  splitc::barrier();

  run_info info;
  const std::int64_t start = host_now_ns();
  if (me == 0) {
    std::signal(SIGPIPE, SIG_IGN);
    auto* pub = reinterpret_cast<u64*>(base + off_publish);
    targets& t = ctx.t;
    t.heap = splitc::toglobal(1, reinterpret_cast<u64*>(base + off_scalars));
    t.outside =
        splitc::toglobal(1, reinterpret_cast<u64*>(splitc::read(splitc::toglobal(1, &pub[0]))));
    t.heap_bulk = splitc::toglobal(1, static_cast<void*>(base + off_bulk));
    t.outside_bulk = splitc::toglobal(
        1, reinterpret_cast<void*>(splitc::read(splitc::toglobal(1, &pub[1]))));
    t.peer_bulk_local = base + off_bulk;
    // Map the peer's pages into this process before anything is timed.
    splitc::bulk_put(t.heap_bulk, t.src, cfg.max_size);
    splitc::bulk_get(t.dst, t.heap_bulk, cfg.max_size);
    splitc::sync();

    std::error_code ec;
    std::filesystem::create_directories(cfg.out_dir, ec);
    const std::string log = (std::filesystem::path(cfg.out_dir) / "mpi-reference.log").string();
    std::string mpirun = !cfg.mpirun.empty() ? cfg.mpirun
                         : std::strlen(bench::built_mpirun) ? bench::built_mpirun
                                                            : "mpirun";
    std::string ref = cfg.mpi_reference;
    if (ref.empty()) {
      const std::string beside = self_directory() + "/splitc-bench-mpi-reference";
      ref = access(beside.c_str(), X_OK) == 0 ? beside : bench::built_mpi_reference;
    }
    std::string why_not;
    if (virtual_clock)
      why_not = "not applicable on the sim (Open MPI runs in host time, splitc in virtual time)";
    else if (cfg.no_mpi)
      why_not = "not measured (--no-mpi)";
    else if (ref.empty())
      why_not = "not available: Open MPI was not found when splitc-bench was built";
    ctx.mpi.configure(mpirun, ref, cfg.max_size, splitc::procs(), log, why_not);
    // OpenSHMEM's reference, beside the atomics and waits (two PEs: the rows are processor
    // 0 against processor 1), on this host's settings (docs/this-machine: UCX's memory hooks
    // crash every OpenSHMEM program in shmem_finalize).
    std::string shmem_ref = self_directory() + "/splitc-bench-shmem-reference";
    if (access(shmem_ref.c_str(), X_OK) != 0) shmem_ref = bench::built_shmem_reference;
    std::string shmem_why_not = why_not;
    if (shmem_why_not.empty() && shmem_ref.empty())
      shmem_why_not = "not available: OpenSHMEM was not found when splitc-bench was built";
    ctx.shmem.configure(bench::built_oshrun, shmem_ref, cfg.max_size, 2,
                        (std::filesystem::path(cfg.out_dir) / "shmem-reference.log").string(),
                        shmem_why_not, {"--mca", "opal_common_ucx_opal_mem_hooks", "0"});
    ctx.have_gnuplot = !cfg.no_plots && gnuplot_works(cfg.gnuplot);

    const std::time_t now = std::time(nullptr);
    info.started = fmt::format("{:%Y-%m-%d %H:%M:%S} UTC", fmt::gmtime(now));
    info.load_start = load_average();
    info.cpu = cpu_model();
    fmt::print("splitc-bench: backend {}, {} processors; processor 0 measures against "
               "processor 1; mode {}, {} round{}\n",
               splitc::backend_name(), splitc::procs(), ctx.mode, ctx.rounds,
               ctx.rounds > 1 ? "s" : "");
    if (virtual_clock)
      fmt::print("clock: virtual (sim), machine model {} (SPLITC_SIM_MACHINE), computation "
                 "charged {} (SPLITC_SIM_TIME), scheduler seed {}; every time below is virtual; "
                 "\"seed\": the seed's published figure for this machine and row, \"÷seed\": "
                 "sim ÷ seed\n",
                 ctx.sim_machine,
                 sim_charges_computation() ? "as the CPU time used" : "per library call",
                 splitc::port::env::sim_seed.get());
    else
      fmt::print("machine: {}, {} online CPUs; load average {} (other work on the machine "
                 "skews every number); {}\n",
                 info.cpu, sysconf(_SC_NPROCESSORS_ONLN), info.load_start, info.started);
    fmt::print("method (seed §5): timed loop minus empty loop, ÷ iterations; calibration runs "
               "thrown out;\n  runs > 3× the mean of the next three dropped; ≥ {} runs kept and "
               "95% CI ≤ {:.0f}% of the mean\n  (or {:.2f} s per measurement spent: marked *); "
               "compared measurements interleaved run by run\n",
               ctx.pol.min_runs, 100 * ctx.pol.ci_target, ctx.pol.budget_s);
    fmt::print("plots: {}\n", ctx.have_gnuplot ? "gnuplot (PNG and SVG)"
                              : cfg.no_plots   ? "off (--no-plots)"
                                               : "gnuplot not found: data and scripts only");
    std::fflush(stdout);
  }

  // The raw round trip at the start, the reference for rows without their own.
  served_part([&] {
    ctx.progress("start", "raw cache-line ping-pong round trip");
    if (!have_pingpong()) return;
    member pp = pingpong_member("pingpong_rt_start");
    run_group({&pp}, ctx.pol);
    ctx.pingpong_start = pp.result.mean;
    ctx.add(row{.part = "start", .name = "pingpong_rt", .impl = "machine", .size = 8,
                .value = pp.result.mean, .unit = "ns", .reference = "pingpong_rt",
                .reference_value = pp.result.mean, .ratio = 1, .stats = pp.result});
    fmt::print("\nraw cache-line ping-pong round trip at the start: {} ns ({} regime)\n",
               format_ns(pp.result.mean), pp.result.mean < 300 ? "\"near\"" : "\"far\"");
    std::fflush(stdout);
  });

  if (ctx.selected("limits")) part_limits(ctx);
  if (ctx.selected("table4")) part_table4(ctx);
  if (ctx.selected("table7")) part_table7(ctx);
  if (ctx.selected("collectives")) part_collectives(ctx);
  if (ctx.selected("atomics")) part_atomics(ctx);
  if (ctx.selected("teams")) part_teams(ctx);
  if (ctx.selected("waits")) part_waits(ctx);
  if (ctx.selected("transfers")) part_transfers(ctx);
  part_figures(ctx);  // the figures selected

  int rc = 0;
  if (me == 0) {
    ctx.mpi.stop();
    ctx.shmem.stop();
    info.seconds = static_cast<double>(host_now_ns() - start) / 1e9;
    info.load_end = load_average();
    const std::filesystem::path dir = cfg.out_dir;
    const std::string csv = (dir / "results.csv").string();
    const std::string json = (dir / "results.json").string();
    if (!write_csv(ctx, csv) || !write_json(ctx, info, json)) {
      fmt::print(stderr, "splitc-bench: cannot write {} or {}\n", csv, json);
      rc = 1;
    }
    if (!cfg.json_lines.empty() && !write_json_lines(ctx, cfg.json_lines)) {
      fmt::print(stderr, "splitc-bench: cannot write {}\n", cfg.json_lines);
      rc = 1;
    }
    fmt::print("\nwritten: {}, {}", csv, json);
    if (!cfg.json_lines.empty()) fmt::print(", {}", cfg.json_lines);
    for (const std::string& f : ctx.written)
      if (f.ends_with(".png") || f.ends_with(".svg"))
        fmt::print(", {}", std::filesystem::path(f).filename().string());
    fmt::print("\ntotal time {:.1f} s; load average at the end {}\n", info.seconds, info.load_end);
    std::fflush(stdout);
  }
  splitc::barrier();
  splitc::all_spread_free(region);
  splitc::finalize();
  std::free(outside_bulk);
  if (me == 1) std::free(medium_sink);  // a global: on the sim every processor sees processor 1's
  std::free(ctx.t.src);
  std::free(ctx.t.dst);
  return rc;
}
