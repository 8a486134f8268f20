// Radix sort of 32-bit keys in splitc (Luna 1994 §6.2, figures 22–26, table 3).
//
// The keys are two spread arrays `unsigned K[PROCS]::[N]` (blocked: N keys per
// processor); each pass sorts from one into the other on `--radix-bits` bits:
//   fill      a local histogram of the digit;
//   scan      all_scan_add of the histogram over processors — one vector scan
//             of the 2^bits counts (default), or the seed's one scan per bucket
//             (--scan per-bucket) — and the totals, broadcast from the last
//             processor: where this processor's keys of each digit go.
//             --scan gather: no collective but a barrier; every processor
//             reads all histograms from the spread heap with bulk_get (P x
//             2^bits counts each: for small P) and sums them itself;
//   coalesce  the keys go to their places. Default (--coalesce bulk_store):
//             grouped by digit locally, then one bulk_store per run (a digit's
//             keys from here go to consecutive places), completed with
//             store_sync(4N): every processor receives exactly N keys, so it
//             knows how many bytes to wait for (Culler et al. 1993 §5.2).
//             --coalesce store: the seed's one store (:-) per key, no grouping.
//             --coalesce bulk_put: runs with bulk_put, then sync and barrier.
//             --coalesce put: one put (:=) per key, then sync and barrier.
// --phase-barriers puts a barrier before each phase, so that waiting for a
// slower processor is not counted in the next phase.
// Prints the time of each phase (the seed's figures) and checks that the
// result is sorted across processors and is the same multiset of keys.
//
//   splitc-run -n P radix_sort [--keys N] [--radix-bits 8|16] [--reps R]
//   splitc-run -n P radix_sort --figure     # 2^14 .. 2^20 keys per processor
//   splitc-run -n P radix_sort --scaled     # 524,288 keys per processor (figure 26)
#include "../common/example_util.hpp"
#include "../common/radix_common.hpp"

#include <splitc/splitc.hpp>
#include <splitc.h>  // all_scan_add, the seed's name, for --scan per-bucket

#include <array>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace {

/// --phase-barriers: a barrier before each phase, so that waiting for a slower
/// processor is not counted in the next phase (the total then includes the barriers).
bool phase_barriers = false;

using examples::now;
using radix::count_t;
using radix::key_t;

enum class coalesce_mode { bulk_store, bulk_put, store, put };
enum class scan_mode { vector, per_bucket, gather };

struct run_result {
  radix::phase_times phases;  // max over processors of each phase
  double total = 0;           // max over processors, barrier to the end of the last pass
  bool ok = false;
};

/// One sort of `cfg.keys` keys per processor. Collective.
run_result sort_once(const radix::config& cfg, coalesce_mode cm, scan_mode sm, std::uint64_t seed) {
  const int me = splitc::myproc(), procs = splitc::procs();
  const std::size_t N = cfg.keys, R = cfg.buckets();
  const auto mask = static_cast<std::uint32_t>(R - 1);

  auto K0 = splitc::make_blocked<key_t>(N);
  auto K1 = splitc::make_blocked<key_t>(N);
  key_t* bases[2] = {K0.my_storage().data(), K1.my_storage().data()};  // same address everywhere
  radix::generate(bases[0], N, seed, me);
  radix::fingerprint before = radix::fingerprint_of(bases[0], N);

  std::vector<count_t> counts(R), inclusive(R), totals(R);
  // --scan gather: the histograms in the spread heap (two, alternating by pass).
  splitc::block_cyclic_array<count_t> hist[2];
  std::vector<count_t> everyone;
  if (sm == scan_mode::gather) {
    for (auto& h : hist) h = splitc::make_blocked<count_t>(R);
    everyone.resize(R * static_cast<std::size_t>(procs));
  }
  std::vector<std::uint64_t> start(R);
  std::vector<std::size_t> first(R), next(R);
  const bool per_key = cm == coalesce_mode::store || cm == coalesce_mode::put;
  std::vector<key_t> grouped(per_key ? 0 : N);
  radix::phase_times t;
  const std::int64_t bytes_in = static_cast<std::int64_t>(N * sizeof(key_t));

  splitc::barrier();
  const double t_begin = now();
  for (int pass = 0; pass < cfg.passes(); ++pass) {
    const int shift = pass * cfg.bits;
    key_t* src = bases[pass % 2];
    key_t* dst = bases[(pass + 1) % 2];

    if (phase_barriers) splitc::barrier();
    double t0 = now();
    radix::histogram(src, N, shift, mask, counts.data(), R);
    if (phase_barriers) splitc::barrier();
    double t1 = now();
    t.fill += t1 - t0;

    if (sm == scan_mode::vector) {
      inclusive = counts;
      splitc::scan(std::span<count_t>(inclusive), splitc::ops::add{});
    } else if (sm == scan_mode::per_bucket) {
      for (std::size_t d = 0; d < R; ++d)
        inclusive[d] = static_cast<count_t>(all_scan_uadd(counts[d]));
    }
    if (sm != scan_mode::gather) {
      totals = inclusive;  // the last processor's inclusive scan is the total
      splitc::broadcast(std::span<count_t>(totals), procs - 1);
    } else {
      // Publish the histogram, then read everyone's straight from their memory.
      count_t* mine = hist[pass % 2].my_storage().data();  // the same address everywhere
      std::copy(counts.begin(), counts.end(), mine);
      splitc::barrier();
      for (int q = 0; q < procs; ++q)
        splitc::bulk_get(everyone.data() + static_cast<std::size_t>(q) * R,
                         splitc::toglobal(q, mine), R * sizeof(count_t));
      splitc::sync();
      std::fill(inclusive.begin(), inclusive.end(), 0);
      std::fill(totals.begin(), totals.end(), 0);
      for (int q = 0; q < procs; ++q) {
        const count_t* h = everyone.data() + static_cast<std::size_t>(q) * R;
        for (std::size_t d = 0; d < R; ++d) {
          totals[d] += h[d];
          if (q <= me) inclusive[d] += h[d];
        }
      }
    }
    radix::starts_from_scan(counts.data(), inclusive.data(), totals.data(), R, start.data());
    if (phase_barriers) splitc::barrier();
    double t2 = now();
    t.scan += t2 - t1;

    if (cm == coalesce_mode::store) {
      for (std::size_t i = 0; i < N; ++i) {
        const key_t k = src[i];
        const std::uint64_t g = start[radix::digit(k, shift, mask)]++;
        splitc::store(splitc::toglobal(static_cast<splitc::proc_t>(g / N), dst + g % N), k);
      }
      splitc::store_sync(bytes_in);
    } else if (cm == coalesce_mode::put) {
      for (std::size_t i = 0; i < N; ++i) {
        const key_t k = src[i];
        const std::uint64_t g = start[radix::digit(k, shift, mask)]++;
        splitc::put(splitc::toglobal(static_cast<splitc::proc_t>(g / N), dst + g % N), k);
      }
      splitc::sync();
      splitc::barrier();
    } else {
      radix::group_by_digit(src, N, shift, mask, counts.data(), R, grouped.data(), first, next);
      if (cm == coalesce_mode::bulk_store) {
        radix::for_each_run(counts.data(), start.data(), first, R, N, grouped.data(),
                            [&](int q, std::size_t off, const key_t* from, std::size_t len) {
                              splitc::bulk_store(splitc::toglobal(q, dst + off), from,
                                                 len * sizeof(key_t));
                            });
        splitc::store_sync(bytes_in);
      } else {
        radix::for_each_run(counts.data(), start.data(), first, R, N, grouped.data(),
                            [&](int q, std::size_t off, const key_t* from, std::size_t len) {
                              splitc::bulk_put(splitc::toglobal(q, dst + off), from,
                                               len * sizeof(key_t));
                            });
        splitc::sync();
        splitc::barrier();
      }
    }
    t.coalesce += now() - t2;
  }
  const double my_total = now() - t_begin;

  // Checks: sorted here, sorted across the boundary to the next processor, same multiset.
  splitc::barrier();
  const key_t* out = bases[cfg.passes() % 2];
  std::size_t bad = radix::descents(out, N);
  if (me + 1 < procs && N > 0) {
    const key_t next_first = splitc::read(splitc::toglobal(me + 1, const_cast<key_t*>(out)));
    bad += out[N - 1] > next_first;
  }
  bad = splitc::reduce_to_all(bad, splitc::ops::add{});
  radix::fingerprint after = radix::fingerprint_of(out, N);
  std::array<std::uint64_t, 6> f{before.count, before.sum, before.hash_sum,
                                 after.count,  after.sum,  after.hash_sum};
  splitc::reduce_to_all(std::span<std::uint64_t>(f), splitc::ops::add{});

  run_result r;
  std::array<double, 4> m{t.fill, t.scan, t.coalesce, my_total};
  splitc::reduce_to_all(std::span<double>(m), splitc::ops::max{});
  r.phases = {m[0], m[1], m[2]};
  r.total = m[3];
  r.ok = bad == 0 && f[0] == f[3] && f[1] == f[4] && f[2] == f[5] &&
         f[0] == N * static_cast<std::size_t>(procs);
  if (!r.ok && me == 0)
    std::printf(
        "FAILED: %zu keys out of order; fingerprint before (%llu, %llu, %llu) after (%llu, %llu, "
        "%llu)\n",
        bad, (unsigned long long)f[0], (unsigned long long)f[1], (unsigned long long)f[2],
        (unsigned long long)f[3], (unsigned long long)f[4], (unsigned long long)f[5]);
  return r;  // K0, K1 freed here (collective)
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), procs = splitc::procs();
  examples::options opt(argc, argv);
  const bool figure = opt.flag("--figure");
  const bool scaled = opt.flag("--scaled");
  const long long keys = opt.integer("--keys", 1 << 20);
  const int bits = static_cast<int>(opt.integer("--radix-bits", 8));
  const int reps = static_cast<int>(opt.integer("--reps", 1));
  const auto seed = static_cast<std::uint64_t>(opt.integer("--seed", 12345));
  const std::string cms = opt.text("--coalesce", "bulk_store");
  const std::string sms = opt.text("--scan", "vector");
  const bool bind = opt.flag("--bind");
  phase_barriers = opt.flag("--phase-barriers");
  opt.finish();
  if (bits < 1 || bits > 16 || keys < 1 || reps < 1)
    examples::options::die("need 1 <= --radix-bits <= 16, --keys >= 1, --reps >= 1");
  coalesce_mode cm = coalesce_mode::bulk_store;
  if (cms == "bulk_put")
    cm = coalesce_mode::bulk_put;
  else if (cms == "store")
    cm = coalesce_mode::store;
  else if (cms == "put")
    cm = coalesce_mode::put;
  else if (cms != "bulk_store")
    examples::options::die("--coalesce is bulk_store, bulk_put, store or put");
  scan_mode sm = scan_mode::vector;
  if (sms == "per-bucket")
    sm = scan_mode::per_bucket;
  else if (sms == "gather")
    sm = scan_mode::gather;
  else if (sms != "vector")
    examples::options::die("--scan is vector, per-bucket or gather");
  if (bind) {
    const int cpu = examples::bind_to_cpu(me);
    if (me == 0) std::printf("bound processor 0 to cpu %d\n", cpu);
  }

  std::vector<std::size_t> sizes;
  if (figure)
    sizes.assign(std::begin(radix::figure_sizes), std::end(radix::figure_sizes));
  else if (scaled)
    sizes.push_back(radix::scaled_keys);
  else
    sizes.push_back(static_cast<std::size_t>(keys));
  for (std::size_t n : sizes)
    if (static_cast<double>(n) * procs >= 4294967295.0)
      examples::options::die("too many keys in all (2^32)");

  radix::config cfg{0, bits};
  if (me == 0) {
    std::printf(
        "radix_sort (splitc, backend %s): P=%d, %d-bit radix (%d passes), coalesce %s, scan %s, %d "
        "reps, load %.2f\n",
        splitc::backend_name(), procs, bits, cfg.passes(), cms.c_str(), sms.c_str(), reps,
        examples::load_average());
    std::printf("%12s %10s %10s %10s %10s %10s %12s\n", "keys/proc", "fill(s)", "scan(s)",
                "coalesce(s)", "total(s)", "t_med(s)", "ns/key/pass");
  }
  bool ok = true;
  for (std::size_t n : sizes) {
    cfg.keys = n;
    std::vector<double> totals;
    run_result best;
    for (int rep = 0; rep < reps; ++rep) {
      const run_result r = sort_once(cfg, cm, sm, seed + static_cast<std::uint64_t>(rep));
      ok = ok && r.ok;
      totals.push_back(r.total);
      if (rep == 0 || r.total < best.total) best = r;
    }
    if (me == 0) {
      const auto s = examples::summarize(totals);
      std::printf("%12zu %10.4f %10.4f %10.4f %10.4f %10.4f %12.2f\n", n, best.phases.fill,
                  best.phases.scan, best.phases.coalesce, best.total, s.median,
                  best.total * 1e9 / (static_cast<double>(n) * cfg.passes()));
      std::printf("  verified: sorted across %d processors, same multiset of %zu keys: %s\n", procs,
                  n * static_cast<std::size_t>(procs), ok ? "ok" : "WRONG");
      std::fflush(stdout);
    }
  }
  if (me == 0) std::printf(ok ? "PASS radix_sort\n" : "FAIL radix_sort\n");
  splitc::finalize();
  return ok ? 0 : 1;
}
