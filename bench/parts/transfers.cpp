// Strided and indexed transfers (splitc/strided.hpp, splitc/indexed.hpp), processor 0 to 1:
// a 2-D strided put of 64 rows of 1 KiB (every other KiB of the target) against the
// contiguous put of the same 64 KiB, and both as plain memcpy on processor 0 (the same rows
// into its own part of the region: what the copies themselves cost on this CPU); an
// element-strided get of 8,192 longs at a stride of two (shmem_iget64's shape); an indexed get
// of 4,096 random longs against the loop of single gets a program would otherwise write. Each
// completed by sync(), timed by the lockstep method (bench/lockstep.hpp), alternated in every
// round, medians over the rounds. After each round OpenSHMEM's equivalents (shmem_iget64; 64
// shmem_putmem + shmem_quiet; one 64 KiB shmem_putmem + shmem_quiet) and Open MPI's (MPI_Put
// of a vector datatype, and of 64 KiB of bytes, + MPI_Win_flush), between two processes of
// this host.
#include "../format.hpp"
#include "../lockstep.hpp"
#include "../parts.hpp"

#include <splitc/indexed.hpp>
#include <splitc/strided.hpp>

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace bench {
namespace part_transfers_impl {
namespace {

const char* const part = "transfers";

constexpr std::size_t rows = 64, row_bytes = 1024, region_bytes = rows * row_bytes;
constexpr std::size_t strided_longs = 8192, indexed_longs = 4096;

lockstep_plan plan(const context& ctx) {
  if (ctx.cfg.smoke) return {1, 1};
  if (virtual_clock) return {5, 3};
  return ctx.cfg.quick ? lockstep_plan{200, 10} : lockstep_plan{1000, 20};
}

/// Each processor's target: twice the region (rows go to every other KiB), and the longs.
struct area {
  unsigned char region[2 * region_bytes];
  std::int64_t longs[2 * strided_longs];
};

struct measured {
  summary contiguous, strided_rows, memcpy_contiguous, memcpy_rows, strided_elements, indexed,
      single_gets;
};

measured measure_round(context& ctx, int round, splitc::spread_ptr<area> areas) {
  const int me = splitc::myproc();
  area* mine = areas.local();  // the same address on every processor
  const lockstep_plan p = plan(ctx);
  auto barrier = [] { splitc::barrier(); };
  std::vector<unsigned char> source(region_bytes, 0x5A);
  std::vector<std::int64_t> into(strided_longs);
  std::vector<std::ptrdiff_t> indices(indexed_longs);
  std::mt19937_64 rng(static_cast<std::uint64_t>(round) + 1);
  for (auto& i : indices) i = static_cast<std::ptrdiff_t>(rng() % (2 * strided_longs));
  const splitc::global_ptr<void> region(1, mine->region);
  const splitc::global_ptr<std::int64_t> longs(1, mine->longs);
  const std::array<std::size_t, 2> row_counts{row_bytes, rows};
  const std::array<std::ptrdiff_t, 2> target_strides{1, 2 * row_bytes}, source_strides{1, row_bytes};
  const std::array<std::size_t, 1> element_counts{strided_longs};
  const std::array<std::ptrdiff_t, 1> dense{8}, every_other{16};
  measured m;
  auto contiguous = [&] {
    m.contiguous = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      splitc::bulk_put(region, source.data(), region_bytes);
      splitc::sync();
    });
  };
  auto strided_rows = [&] {
    m.strided_rows = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      splitc::bulk_put_strided(region, target_strides, source.data(), source_strides,
                               {1, row_counts});
      splitc::sync();
    });
  };
  // The same bytes by memcpy into processor 0's own part of the region (the same offsets); not
  // on a virtual clock, where a processor's own copies take no time.
  auto memcpy_contiguous = [&] {
    m.memcpy_contiguous = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      std::memcpy(mine->region, source.data(), region_bytes);
    });
  };
  // The row length hidden from the compiler, so that each row is a call of the C library's
  // memcpy, as in splitc's copy (a constant 1 KiB is inlined by GCC, 1.2-1.4x slower here).
  auto memcpy_rows = [&] {
    m.memcpy_rows = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      std::size_t run = row_bytes;
      asm volatile("" : "+r"(run));
      for (std::size_t r = 0; r < rows; ++r)
        std::memcpy(mine->region + 2 * run * r, source.data() + run * r, run);
    });
  };
  auto strided_elements = [&] {
    m.strided_elements = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      splitc::bulk_get_strided(into.data(), dense, longs, every_other, {8, element_counts});
      splitc::sync();
    });
  };
  auto indexed = [&] {
    m.indexed = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      splitc::bulk_get_indexed(into.data(), longs, indices);
      splitc::sync();
    });
  };
  auto single_gets = [&] {
    m.single_gets = lockstep(p, barrier, [&](long) {
      if (me != 0) return;
      for (std::size_t k = 0; k < indexed_longs; ++k) splitc::get(&into[k], longs + indices[k]);
      splitc::sync();
    });
  };
  ctx.progress(part, fmt::format("round {}", round + 1));
  if (round % 2 == 0) {
    contiguous();
    strided_rows();
    if (!virtual_clock) {
      memcpy_contiguous();
      memcpy_rows();
    }
    strided_elements();
    indexed();
    single_gets();
  } else {
    single_gets();
    indexed();
    strided_elements();
    if (!virtual_clock) {
      memcpy_rows();
      memcpy_contiguous();
    }
    strided_rows();
    contiguous();
  }
  return m;
}

std::vector<row> measure(context& ctx, int round, splitc::spread_ptr<area> areas) {
  const measured m = measure_round(ctx, round, areas);
  std::vector<mpi_result> shmem, mpi;
  const lockstep_plan p = plan(ctx);
  if (splitc::myproc() == 0) {
    ctx.progress(part, "OpenSHMEM");
    shmem = ctx.shmem_round({{"iget64", strided_longs * 8, p.iters, p.runs},
                             {"rows_put", region_bytes, p.iters, p.runs},
                             {"put_quiet", region_bytes, p.iters, p.runs}},
                            false);
    ctx.progress(part, "Open MPI");
    mpi = ctx.mpi_round({{"put_vector", region_bytes, p.iters, p.runs},
                         {"put_flush", region_bytes, p.iters, p.runs}},
                        false);
  }
  quiet_barrier();
  std::vector<row> out;
  if (splitc::myproc() != 0) return out;
  auto reference = [&](const std::vector<mpi_result>& from, const char* op) -> double {
    for (const mpi_result& r : from)
      if (r.op == op) return r.ns;
    return NAN;
  };
  auto add = [&](std::string name, const char* impl, std::size_t size, const summary& s,
                 std::string ref, double refv) {
    out.push_back(row{.part = part, .name = std::move(name), .impl = impl, .size = size,
                      .value = s.mean, .unit = "ns", .reference = std::move(ref),
                      .reference_value = refv, .ratio = s.mean / refv, .stats = s});
  };
  add("put_contiguous", "splitc", region_bytes, m.contiguous, "", NAN);
  add("put_strided_rows", "splitc", region_bytes, m.strided_rows, "put_contiguous",
      m.contiguous.mean);
  if (!virtual_clock) {
    add("memcpy_contiguous", "memcpy", region_bytes, m.memcpy_contiguous, "", NAN);
    add("memcpy_rows", "memcpy", region_bytes, m.memcpy_rows, "memcpy_contiguous",
        m.memcpy_contiguous.mean);
  }
  add("get_strided_elements", "splitc", strided_longs * 8, m.strided_elements, "shmem_iget64",
      reference(shmem, "iget64"));
  add("get_single_loop", "splitc", indexed_longs * 8, m.single_gets, "", NAN);
  add("get_indexed", "splitc", indexed_longs * 8, m.indexed, "get_single_loop",
      m.single_gets.mean);
  auto add_reference = [&](const std::vector<mpi_result>& from, const char* impl) {
    for (const mpi_result& r : from) {
      summary s;
      s.mean = r.ns;
      s.ci_rel = r.ci_rel;
      s.kept = r.kept;
      s.converged = true;
      add(std::string(impl) + "_" + r.op, impl, r.size, s, "", NAN);
    }
  };
  add_reference(shmem, "shmem");
  add_reference(mpi, "mpi");
  return out;
}

void print(const context& ctx) {
  fmt::print("\nStrided and indexed transfers, processor 0 → 1 ({}), each completed; OpenSHMEM's "
             "and Open MPI's equivalents between two processes of this host in the same run\n",
             ns_label());
  const row* contiguous = ctx.find(part, "put_contiguous", region_bytes);
  const row* rows_put = ctx.find(part, "put_strided_rows", region_bytes);
  if (contiguous == nullptr || rows_put == nullptr) return;
  auto value = [&](const char* name, std::size_t size, const char* impl) {
    const row* r = ctx.find(part, name, size, impl);
    return r != nullptr ? r->value : NAN;
  };
  auto versus = [](double a, double b) {
    return std::isnan(b) ? std::string("n/a") : format_ratio(a / b);
  };
  fmt::print("  put 64 KiB contiguous          {} (±{})   OpenSHMEM putmem+quiet {}   MPI_Put+flush "
             "{}\n",
             format_ns(contiguous->value), format_ci(contiguous->stats),
             format_ns(value("shmem_put_quiet", region_bytes, "shmem")),
             format_ns(value("mpi_put_flush", region_bytes, "mpi")));
  const double shmem_rows = value("shmem_rows_put", region_bytes, "shmem");
  const double mpi_vector = value("mpi_put_vector", region_bytes, "mpi");
  fmt::print("  put 64 rows of 1 KiB, strided  {} (±{})   speed ×contiguous {}   OpenSHMEM 64 "
             "putmem+quiet {} (×{})   MPI_Put vector+flush {} (×{})\n",
             format_ns(rows_put->value), format_ci(rows_put->stats),
             format_ratio(contiguous->value / rows_put->value), format_ns(shmem_rows),
             versus(rows_put->value, shmem_rows), format_ns(mpi_vector),
             versus(rows_put->value, mpi_vector));
  const double raw_whole = value("memcpy_contiguous", region_bytes, "memcpy");
  const double raw_rows = value("memcpy_rows", region_bytes, "memcpy");
  if (!std::isnan(raw_rows))
    fmt::print("  memcpy on processor 0: 64 KiB {}   64 rows of 1 KiB {}   speed ×contiguous {}   "
               "(the strided put ×the rows' memcpy {})\n",
               format_ns(raw_whole), format_ns(raw_rows), versus(raw_whole, raw_rows),
               versus(rows_put->value, raw_rows));
  const row* elements = ctx.find(part, "get_strided_elements", strided_longs * 8);
  if (elements != nullptr) {
    const double iget = value("shmem_iget64", strided_longs * 8, "shmem");
    fmt::print("  get 8192 longs, stride 2       {} (±{})   OpenSHMEM shmem_iget64 {} (×{})\n",
               format_ns(elements->value), format_ci(elements->stats), format_ns(iget),
               versus(elements->value, iget));
  }
  const row* indexed = ctx.find(part, "get_indexed", indexed_longs * 8);
  const row* loop = ctx.find(part, "get_single_loop", indexed_longs * 8);
  if (indexed != nullptr && loop != nullptr)
    fmt::print("  get 4096 random longs, indexed {} (±{})   4096 single gets + sync {} (×{})\n",
               format_ns(indexed->value), format_ci(indexed->stats), format_ns(loop->value),
               format_ratio(indexed->value / loop->value));
  fmt::print("  OpenSHMEM: {}; Open MPI: {}\n",
             ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.shmem.status(),
             ctx.cfg.no_mpi ? "not measured (--no-mpi)" : ctx.mpi.status());
  std::fflush(stdout);
}

}  // namespace
}  // namespace part_transfers_impl

void part_transfers(context& ctx) {
  using namespace part_transfers_impl;
  if (splitc::procs() < 2) return;
  auto areas = splitc::all_spread_malloc<area>(static_cast<std::size_t>(splitc::procs()));
  std::vector<std::vector<row>> rounds;
  for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx, r, areas));
  splitc::all_spread_free(areas);
  if (splitc::myproc() == 0) {
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  }
  splitc::barrier();
}

}  // namespace bench
