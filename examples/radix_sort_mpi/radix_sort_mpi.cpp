// Radix sort of 32-bit keys written directly against MPI: the same algorithm,
// keys, passes and checks as examples/radix_sort, for comparison in the same run.
//
//   fill      a local histogram of the digit;
//   scan      MPI_Exscan of the histogram (keys of each digit on lower ranks)
//             and MPI_Allreduce of it (the totals);
//   coalesce  keys grouped by digit locally, then one MPI_Put per run into
//             the destination rank's window (MPI_Win_allocate, so Open MPI's
//             shared-memory one-sided component serves it), between two
//             MPI_Win_fence calls. A run is a digit's keys from this rank, and
//             their places are consecutive in the output, so the receiver has
//             nothing left to do — with MPI_Alltoallv the receiver would have
//             to interleave the runs of different senders afterwards (and
//             learn every sender's histogram to do so): a different algorithm.
//
// --phase-barriers puts a barrier before each phase (as in the splitc version).
//
//   mpirun -np P radix_sort_mpi [--keys N] [--radix-bits 8|16] [--reps R] [--figure | --scaled]
#include "../common/example_util.hpp"
#include "../common/radix_common.hpp"

#include <mpi.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// --phase-barriers: a barrier before each phase, so that waiting for a slower
/// processor is not counted in the next phase (the total then includes the barriers).
bool phase_barriers = false;

using examples::now;
using radix::count_t;
using radix::key_t;

int rank_ = 0, size_ = 1;

struct run_result {
  radix::phase_times phases;
  double total = 0;
  bool ok = false;
};

run_result sort_once(const radix::config& cfg, std::uint64_t seed) {
  const std::size_t N = cfg.keys, R = cfg.buckets();
  const auto mask = static_cast<std::uint32_t>(R - 1);
  const int Ri = static_cast<int>(R);

  key_t* bases[2] = {nullptr, nullptr};
  MPI_Win wins[2];
  for (int a = 0; a < 2; ++a)
    MPI_Win_allocate(static_cast<MPI_Aint>(N * sizeof(key_t)), sizeof(key_t), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &bases[a], &wins[a]);
  radix::generate(bases[0], N, seed, rank_);
  const radix::fingerprint before = radix::fingerprint_of(bases[0], N);

  std::vector<count_t> counts(R), exclusive(R), totals(R);
  std::vector<std::uint64_t> start(R);
  std::vector<std::size_t> first(R), next(R);
  std::vector<key_t> grouped(N);
  radix::phase_times t;
  for (int a = 0; a < 2; ++a) MPI_Win_fence(MPI_MODE_NOPRECEDE, wins[a]);

  MPI_Barrier(MPI_COMM_WORLD);
  const double t_begin = now();
  for (int pass = 0; pass < cfg.passes(); ++pass) {
    const int shift = pass * cfg.bits;
    key_t* src = bases[pass % 2];
    MPI_Win dst = wins[(pass + 1) % 2];

    if (phase_barriers) MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    radix::histogram(src, N, shift, mask, counts.data(), R);
    if (phase_barriers) MPI_Barrier(MPI_COMM_WORLD);
    double t1 = now();
    t.fill += t1 - t0;

    MPI_Exscan(counts.data(), exclusive.data(), Ri, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0)
      std::fill(exclusive.begin(), exclusive.end(), 0);  // Exscan leaves rank 0's undefined
    MPI_Allreduce(counts.data(), totals.data(), Ri, MPI_UINT32_T, MPI_SUM, MPI_COMM_WORLD);
    radix::starts_from_exclusive(exclusive.data(), totals.data(), R, start.data());
    if (phase_barriers) MPI_Barrier(MPI_COMM_WORLD);
    double t2 = now();
    t.scan += t2 - t1;

    radix::group_by_digit(src, N, shift, mask, counts.data(), R, grouped.data(), first, next);
    radix::for_each_run(counts.data(), start.data(), first, R, N, grouped.data(),
                        [&](int q, std::size_t off, const key_t* from, std::size_t len) {
                          MPI_Put(from, static_cast<int>(len), MPI_UINT32_T, q,
                                  static_cast<MPI_Aint>(off), static_cast<int>(len), MPI_UINT32_T,
                                  dst);
                        });
    MPI_Win_fence(0, dst);  // every rank's puts are complete and visible
    t.coalesce += now() - t2;
  }
  const double my_total = now() - t_begin;

  const key_t* out = bases[cfg.passes() % 2];
  unsigned long long bad = radix::descents(out, N);
  // Boundary: my last key against the next rank's first.
  key_t next_first = 0, my_first = N > 0 ? out[0] : 0;
  MPI_Sendrecv(&my_first, 1, MPI_UINT32_T, rank_ > 0 ? rank_ - 1 : MPI_PROC_NULL, 0, &next_first, 1,
               MPI_UINT32_T, rank_ + 1 < size_ ? rank_ + 1 : MPI_PROC_NULL, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  if (rank_ + 1 < size_ && N > 0) bad += out[N - 1] > next_first;
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  const radix::fingerprint after = radix::fingerprint_of(out, N);
  std::array<std::uint64_t, 6> f{before.count, before.sum, before.hash_sum,
                                 after.count,  after.sum,  after.hash_sum};
  MPI_Allreduce(MPI_IN_PLACE, f.data(), 6, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);

  run_result r;
  std::array<double, 4> m{t.fill, t.scan, t.coalesce, my_total};
  MPI_Allreduce(MPI_IN_PLACE, m.data(), 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  r.phases = {m[0], m[1], m[2]};
  r.total = m[3];
  r.ok = bad == 0 && f[0] == f[3] && f[1] == f[4] && f[2] == f[5] &&
         f[0] == N * static_cast<std::size_t>(size_);
  if (!r.ok && rank_ == 0)
    std::printf(
        "FAILED: %llu keys out of order; fingerprint before (%llu, %llu, %llu) after (%llu, %llu, "
        "%llu)\n",
        bad, (unsigned long long)f[0], (unsigned long long)f[1], (unsigned long long)f[2],
        (unsigned long long)f[3], (unsigned long long)f[4], (unsigned long long)f[5]);
  for (int a = 0; a < 2; ++a) MPI_Win_free(&wins[a]);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  examples::options opt(argc, argv);
  const bool figure = opt.flag("--figure");
  const bool scaled = opt.flag("--scaled");
  const long long keys = opt.integer("--keys", 1 << 20);
  const int bits = static_cast<int>(opt.integer("--radix-bits", 8));
  const int reps = static_cast<int>(opt.integer("--reps", 1));
  const auto seed = static_cast<std::uint64_t>(opt.integer("--seed", 12345));
  const bool bind = opt.flag("--bind");
  phase_barriers = opt.flag("--phase-barriers");
  opt.finish();
  if (bits < 1 || bits > 16 || keys < 1 || reps < 1)
    examples::options::die("need 1 <= --radix-bits <= 16, --keys >= 1, --reps >= 1");
  if (bind) {
    const int cpu = examples::bind_to_cpu(rank_);
    if (rank_ == 0) std::printf("bound rank 0 to cpu %d\n", cpu);
  }

  std::vector<std::size_t> sizes;
  if (figure)
    sizes.assign(std::begin(radix::figure_sizes), std::end(radix::figure_sizes));
  else if (scaled)
    sizes.push_back(radix::scaled_keys);
  else
    sizes.push_back(static_cast<std::size_t>(keys));
  for (std::size_t n : sizes)
    if (static_cast<double>(n) * size_ >= 4294967295.0)
      examples::options::die("too many keys in all (2^32)");

  radix::config cfg{0, bits};
  if (rank_ == 0) {
    std::printf(
        "radix_sort (MPI): P=%d, %d-bit radix (%d passes), Exscan+Allreduce, MPI_Put runs + fence, "
        "%d reps, load %.2f\n",
        size_, bits, cfg.passes(), reps, examples::load_average());
    std::printf("%12s %10s %10s %10s %10s %10s %12s\n", "keys/proc", "fill(s)", "scan(s)",
                "coalesce(s)", "total(s)", "t_med(s)", "ns/key/pass");
  }
  bool ok = true;
  for (std::size_t n : sizes) {
    cfg.keys = n;
    std::vector<double> totals;
    run_result best;
    for (int rep = 0; rep < reps; ++rep) {
      const run_result r = sort_once(cfg, seed + static_cast<std::uint64_t>(rep));
      ok = ok && r.ok;
      totals.push_back(r.total);
      if (rep == 0 || r.total < best.total) best = r;
    }
    if (rank_ == 0) {
      const auto s = examples::summarize(totals);
      std::printf("%12zu %10.4f %10.4f %10.4f %10.4f %10.4f %12.2f\n", n, best.phases.fill,
                  best.phases.scan, best.phases.coalesce, best.total, s.median,
                  best.total * 1e9 / (static_cast<double>(n) * cfg.passes()));
      std::printf("  verified: sorted across %d processors, same multiset of %zu keys: %s\n", size_,
                  n * static_cast<std::size_t>(size_), ok ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  if (rank_ == 0) std::printf(ok ? "PASS radix_sort_mpi\n" : "FAIL radix_sort_mpi\n");
  MPI_Finalize();
  return ok ? 0 : 1;
}
