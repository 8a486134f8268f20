// Blocked matrix multiply written directly against MPI: the same algorithm,
// layout, kernel and check as examples/matmul (Culler et al. 1993, Program 7),
// for comparison in the same run.
//
// Each rank owns the blocks whose linear number is congruent to its rank
// (the spread layout), contiguous in one MPI window per rank (A's blocks,
// then B's), made with MPI_Win_allocate so that Open MPI's shared-memory
// one-sided component can serve it. For each owned block of C and each k,
// the two blocks needed are fetched with MPI_Get inside one passive-target
// epoch (MPI_Win_lock_all for the whole run) and completed with
// MPI_Win_flush_local_all — the MPI spelling of bulk_get + sync. A pull of
// blocks from owners that do not know they are asked cannot be written with
// send/receive without restructuring the algorithm, so one-sided is what a
// programmer keeping Program 7's structure writes.
//
//   mpirun -np P matmul_mpi [--per-proc S | --n N] [--b B] [--reps R] [--table1 | --scaled]
#include "../common/example_util.hpp"
#include "../common/matmul_common.hpp"

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

using examples::now;
using matmul::problem;

int rank_ = 0, size_ = 1;

struct blocks {
  const problem& pr;
  std::size_t mine;  // blocks per matrix on this rank
  double* base;      // A's blocks, then B's
  MPI_Win win;
  /// Displacement (in doubles) of block (i, j) of matrix m (0 = A, 1 = B) on its owner,
  /// where every rank's window holds room for the largest count.
  std::size_t stride;
  int owner(std::size_t i, std::size_t j) const {
    return static_cast<int>((i * pr.nb + j) % pr.procs);
  }
  MPI_Aint disp(int m, std::size_t i, std::size_t j) const {
    const std::size_t row = (i * pr.nb + j) / static_cast<std::size_t>(pr.procs);
    return static_cast<MPI_Aint>((static_cast<std::size_t>(m) * stride + row) * pr.block_elems());
  }
  double* local(int m, std::size_t i, std::size_t j) const { return base + disp(m, i, j); }
};

/// --breakdown: time spent fetching blocks and in the kernel, this rank.
struct breakdown {
  bool on = false;
  double fetch = 0, kernel = 0;
};

/// Program 7 with MPI_Get: C += A * B over this rank's blocks.
void mat_mult_blk(const problem& pr, const blocks& ab, std::vector<double>& C, double* la,
                  double* lb, breakdown& bd) {
  const std::size_t nb = pr.nb;
  const int be = static_cast<int>(pr.block_elems());
  std::size_t mine = 0;
  for (std::size_t lin = static_cast<std::size_t>(rank_); lin < pr.blocks();
       lin += static_cast<std::size_t>(size_), ++mine) {
    const std::size_t i = lin / nb, j = lin % nb;
    double* lc = C.data() + mine * pr.block_elems();
    for (std::size_t k = 0; k < nb; ++k) {
      const double t0 = bd.on ? now() : 0;
      MPI_Get(la, be, MPI_DOUBLE, ab.owner(i, k), ab.disp(0, i, k), be, MPI_DOUBLE, ab.win);
      MPI_Get(lb, be, MPI_DOUBLE, ab.owner(k, j), ab.disp(1, k, j), be, MPI_DOUBLE, ab.win);
      MPI_Win_flush_local_all(ab.win);
      const double t1 = bd.on ? now() : 0;
      matmul::block_multiply(pr.b, lc, la, lb);
      if (bd.on) {
        const double t2 = now();
        bd.fetch += t1 - t0;
        bd.kernel += t2 - t1;
      }
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

struct result {
  problem pr;
  examples::summary seconds;
  bool ok = false;
  std::string check;
  double fetch = 0, kernel = 0;  // with --breakdown: per repetition, max over ranks
};

result run(const problem& pr, int reps, bool timed_parts) {
  const std::size_t nb = pr.nb;
  const std::size_t stride = pr.blocks_on(0);  // rank 0 owns the most
  const std::size_t mine = pr.blocks_on(rank_);
  double* base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(static_cast<MPI_Aint>(2 * stride * pr.block_elems() * sizeof(double)),
                   sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  blocks ab{pr, mine, base, win, stride};
  for (std::size_t lin = static_cast<std::size_t>(rank_); lin < pr.blocks();
       lin += static_cast<std::size_t>(size_)) {
    const std::size_t i = lin / nb, j = lin % nb;
    matmul::fill_block(ab.local(0, i, j), pr, i, j, matmul::a_elem);
    matmul::fill_block(ab.local(1, i, j), pr, i, j, matmul::b_elem);
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Win_sync(win);
  MPI_Barrier(MPI_COMM_WORLD);

  std::vector<double> C(mine * pr.block_elems());
  std::vector<double> la(pr.block_elems()), lb(pr.block_elems());
  std::vector<double> times;
  breakdown bd{timed_parts, 0, 0};
  for (int rep = 0; rep < reps; ++rep) {
    std::fill(C.begin(), C.end(), 0.0);
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = now();
    mat_mult_blk(pr, ab, C, la.data(), lb.data(), bd);
    double t = now() - t0, tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times.push_back(tmax);
  }
  MPI_Win_unlock_all(win);

  result res{pr, examples::summarize(times), true, "", 0, 0};
  double parts[2] = {bd.fetch / reps, bd.kernel / reps};
  MPI_Allreduce(MPI_IN_PLACE, parts, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  res.fetch = parts[0];
  res.kernel = parts[1];
  std::vector<double> partial(pr.n, 0.0);
  unsigned long long wrong = 0;
  std::size_t k = 0;
  for (std::size_t lin = static_cast<std::size_t>(rank_); lin < pr.blocks();
       lin += static_cast<std::size_t>(size_), ++k) {
    const std::size_t i = lin / nb, j = lin % nb;
    const double* blk = C.data() + k * pr.block_elems();
    matmul::add_partial_cx(pr, i, j, blk, partial);
    if (pr.n <= matmul::exact_check_limit) wrong += matmul::check_block_exact(pr, i, j, blk);
  }
  MPI_Allreduce(MPI_IN_PLACE, partial.data(), static_cast<int>(pr.n), MPI_DOUBLE, MPI_SUM,
                MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const auto expected = matmul::expected_cx(pr);
  std::size_t bad_rows = 0;
  for (std::size_t r = 0; r < pr.n; ++r)
    if (partial[r] != expected[r]) ++bad_rows;
  res.ok = bad_rows == 0 && wrong == 0;
  res.check = pr.n <= matmul::exact_check_limit ? "C*x and every element" : "C*x";
  if (!res.ok && rank_ == 0)
    std::printf("FAILED: %zu rows of C*x differ from A*(B*x), %llu elements wrong\n", bad_rows,
                wrong);
  MPI_Win_free(&win);
  return res;
}

void print_header() {
  std::printf("%8s %6s %4s %6s %6s %12s %12s %10s %12s\n", "per-proc", "N", "b", "blocks", "mine",
              "t_min(s)", "t_med(s)", "MFLOPS", "MFLOPS/proc");
}
void print_row(const result& r, std::size_t per_proc) {
  const double mflops = r.pr.flops() / r.seconds.min / 1e6;
  std::printf("%8zu %6zu %4zu %6zu %6zu %12.6f %12.6f %10.1f %12.1f\n", per_proc, r.pr.n, r.pr.b,
              r.pr.blocks(), r.pr.blocks_on(rank_), r.seconds.min, r.seconds.median, mflops,
              mflops / r.pr.procs);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  examples::options opt(argc, argv);
  const bool table1 = opt.flag("--table1");
  const bool scaled = opt.flag("--scaled");
  const long long n = opt.integer("--n", 0);
  const long long per = opt.integer("--per-proc", 256);
  const long long b = opt.integer("--b", 32);
  const int reps = static_cast<int>(opt.integer("--reps", 3));
  const bool bind = opt.flag("--bind");
  const bool timed_parts = opt.flag("--breakdown");
  opt.finish();
  if (b <= 0 || reps <= 0 || per <= 0 || n < 0 || (n > 0 && n % b != 0))
    examples::options::die("need --b > 0, --reps > 0, and --n a multiple of --b");
  if (bind) {
    const int cpu = examples::bind_to_cpu(rank_);
    if (rank_ == 0) std::printf("bound rank 0 to cpu %d\n", cpu);
  }

  std::vector<std::pair<problem, std::size_t>> runs;
  const auto bs = static_cast<std::size_t>(b);
  if (table1) {
    for (std::size_t s : matmul::table1_sizes)
      runs.emplace_back(matmul::per_processor(s, bs, size_), s);
  } else if (scaled) {
    runs.emplace_back(matmul::per_processor(matmul::scaled_size, bs, size_), matmul::scaled_size);
  } else if (n > 0) {
    runs.emplace_back(matmul::global(static_cast<std::size_t>(n), bs, size_), 0);
  } else {
    runs.emplace_back(matmul::per_processor(static_cast<std::size_t>(per), bs, size_),
                      static_cast<std::size_t>(per));
  }

  if (rank_ == 0) {
    std::printf("matmul (MPI): Program 7, MPI_Get of blocks, P=%d, %d reps, load %.2f\n", size_,
                reps, examples::load_average());
    if (scaled) std::printf("scaled speedup (seed table 2): 128 x 128 per processor\n");
    print_header();
  }
  bool ok = true;
  for (const auto& [pr, shown] : runs) {
    const result r = run(pr, reps, timed_parts);
    ok = ok && r.ok;
    if (rank_ == 0) {
      print_row(r, shown);
      if (timed_parts)
        std::printf(
            "  per repetition (mean, slowest rank): fetching blocks %.6f s, kernel %.6f s\n",
            r.fetch, r.kernel);
      std::printf("  verified: %s %s\n", r.check.c_str(), r.ok ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  if (rank_ == 0) std::printf(ok ? "PASS matmul_mpi\n" : "FAIL matmul_mpi\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}
