// Blocked matrix multiply in splitc: Culler et al. 1993, Program 7.
//
//   void all_mat_mult_blk(int n, int r, int m, int b,
//                         double C[n][m]::[b][b], double A[n][r]::[b][b],
//                         double B[r][m]::[b][b]) {
//     double la[b][b], lb[b][b];
//     for_my_2D(i, j, l, n, m) {
//       double (*lc)[b] = tolocal(C[i][j]);
//       for (k = 0; k < r; k++) {
//         bulk_get(la, A[i][k], b*b*sizeof(double));
//         bulk_get(lb, B[k][j], b*b*sizeof(double));
//         matrix_mult(b, b, b, lc, la, lb);
//       }
//     }
//     barrier();
//   }
//
// The matrices are spread arrays of blocks (`T M[nb][nb]::[b][b]`), the owned
// blocks of C are visited with for_my_2d, and the two blocks a step needs are
// fetched with bulk_get and completed with sync() (Program 7 leaves the sync
// implicit). Reports MFLOPS as the seed's Tables 1 and 2 do.
//
//   splitc-run -n P matmul [--per-proc S | --n N] [--b B] [--reps R]
//   splitc-run -n P matmul --table1      # 64, 128, 256, 512 elements square per processor
//   splitc-run -n P matmul --scaled      # 128 x 128 per processor (run it at several P)
#include "../common/example_util.hpp"
#include "../common/matmul_common.hpp"

#include <splitc/splitc.hpp>

#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

using examples::now;
using matmul::problem;

using block_array = splitc::spread_array<double, splitc::layout::dims<2, 2>>;

/// --breakdown: time spent fetching blocks and in the kernel, this processor.
struct breakdown {
  bool on = false;
  double fetch = 0, kernel = 0;
};

/// Program 7: C += A * B over the blocks this processor owns.
void all_mat_mult_blk(const problem& pr, const block_array& C, const block_array& A,
                      const block_array& B, double* la, double* lb, breakdown& bd) {
  const std::size_t nb = pr.nb, bytes = pr.block_elems() * sizeof(double);
  for_my_2d(i, j, nb, nb) {
    double* lc = C.gptr(i, j, 0, 0).local();  // tolocal(C[i][j])
    for (std::size_t k = 0; k < nb; ++k) {
      const double t0 = bd.on ? now() : 0;
      splitc::bulk_get(la, A.gptr(i, k, 0, 0), bytes);
      splitc::bulk_get(lb, B.gptr(k, j, 0, 0), bytes);
      splitc::sync();
      const double t1 = bd.on ? now() : 0;
      matmul::block_multiply(pr.b, lc, la, lb);
      if (bd.on) {
        const double t2 = now();
        bd.fetch += t1 - t0;
        bd.kernel += t2 - t1;
      }
    }
  }
  splitc::barrier();
}

struct result {
  problem pr;
  examples::summary seconds;
  bool ok = false;
  std::string check;
  double fetch = 0, kernel = 0;  // with --breakdown: per repetition, max over processors
};

result run(const problem& pr, int reps, bool timed_parts) {
  const int me = splitc::myproc();
  const std::size_t nb = pr.nb, b = pr.b;
  auto make = [&] { return block_array(splitc::layout::dims<2, 2>{{nb, nb}, {b, b}}); };
  block_array A = make(), B = make(), C = make();
  for_my_2d(i, j, nb, nb) {
    matmul::fill_block(A.gptr(i, j, 0, 0).local(), pr, i, j, matmul::a_elem);
    matmul::fill_block(B.gptr(i, j, 0, 0).local(), pr, i, j, matmul::b_elem);
  }
  std::vector<double> la(pr.block_elems()), lb(pr.block_elems());
  std::vector<double> times;
  result res{pr, {}, true, "", 0, 0};
  breakdown bd{timed_parts, 0, 0};
  for (int rep = 0; rep < reps; ++rep) {
    const auto mine = C.my_storage();
    std::fill(mine.begin(), mine.end(), 0.0);
    splitc::barrier();
    const double t0 = now();
    all_mat_mult_blk(pr, C, A, B, la.data(), lb.data(), bd);
    const double t = splitc::reduce_to_all(now() - t0, splitc::ops::max{});
    times.push_back(t);
  }
  res.seconds = examples::summarize(times);
  res.fetch = splitc::reduce_to_all(bd.fetch / reps, splitc::ops::max{});
  res.kernel = splitc::reduce_to_all(bd.kernel / reps, splitc::ops::max{});

  // Check: C*x against A*(B*x) for every row; element by element when small.
  std::vector<double> partial(pr.n, 0.0);
  std::size_t wrong = 0;
  for_my_2d(i, j, nb, nb) {
    const double* blk = C.gptr(i, j, 0, 0).local();
    matmul::add_partial_cx(pr, i, j, blk, partial);
    if (pr.n <= matmul::exact_check_limit) wrong += matmul::check_block_exact(pr, i, j, blk);
  }
  splitc::reduce_to_all(std::span<double>(partial), splitc::ops::add{});
  const auto expected = matmul::expected_cx(pr);
  std::size_t bad_rows = 0;
  for (std::size_t r = 0; r < pr.n; ++r)
    if (partial[r] != expected[r]) ++bad_rows;
  wrong = splitc::reduce_to_all(wrong, splitc::ops::add{});
  res.ok = bad_rows == 0 && wrong == 0;
  res.check = pr.n <= matmul::exact_check_limit ? "C*x and every element" : "C*x";
  if (!res.ok && me == 0)
    std::printf("FAILED: %zu rows of C*x differ from A*(B*x), %zu elements wrong\n", bad_rows,
                wrong);
  return res;
}

void print_header() {
  std::printf("%8s %6s %4s %6s %6s %12s %12s %10s %12s\n", "per-proc", "N", "b", "blocks", "mine",
              "t_min(s)", "t_med(s)", "MFLOPS", "MFLOPS/proc");
}
void print_row(const result& r, std::size_t per_proc) {
  const double mflops = r.pr.flops() / r.seconds.min / 1e6;
  std::printf("%8zu %6zu %4zu %6zu %6zu %12.6f %12.6f %10.1f %12.1f\n", per_proc, r.pr.n, r.pr.b,
              r.pr.blocks(), r.pr.blocks_on(splitc::myproc()), r.seconds.min, r.seconds.median,
              mflops, mflops / r.pr.procs);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), procs = splitc::procs();
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
    const int cpu = examples::bind_to_cpu(me);
    if (me == 0) std::printf("bound processor 0 to cpu %d\n", cpu);
  }

  std::vector<std::pair<problem, std::size_t>> runs;  // (problem, per-processor side shown)
  const auto bs = static_cast<std::size_t>(b);
  if (table1) {
    for (std::size_t s : matmul::table1_sizes)
      runs.emplace_back(matmul::per_processor(s, bs, procs), s);
  } else if (scaled) {
    runs.emplace_back(matmul::per_processor(matmul::scaled_size, bs, procs), matmul::scaled_size);
  } else if (n > 0) {
    runs.emplace_back(matmul::global(static_cast<std::size_t>(n), bs, procs), 0);
  } else {
    runs.emplace_back(matmul::per_processor(static_cast<std::size_t>(per), bs, procs),
                      static_cast<std::size_t>(per));
  }

  if (me == 0) {
    std::printf(
        "matmul (splitc, backend %s): Program 7, bulk_get of blocks, P=%d, %d reps, load %.2f\n",
        splitc::backend_name(), procs, reps, examples::load_average());
    if (scaled) std::printf("scaled speedup (seed table 2): 128 x 128 per processor\n");
    print_header();
  }
  bool ok = true;
  for (const auto& [pr, shown] : runs) {
    const result r = run(pr, reps, timed_parts);
    ok = ok && r.ok;
    if (me == 0) {
      print_row(r, shown);
      if (timed_parts)
        std::printf(
            "  per repetition (mean, slowest processor): fetching blocks %.6f s, kernel %.6f s\n",
            r.fetch, r.kernel);
      std::printf("  verified: %s %s\n", r.check.c_str(), r.ok ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  if (me == 0) std::printf(ok ? "PASS matmul\n" : "FAIL matmul\n");
  splitc::finalize();
  return ok ? 0 : 1;
}
