// The seed's measuring method (Libsplit-C report, §5):
//
//   "the event was repeated inside a loop and the loop was timed. The time to
//    execute the loop without the event was also measured and these two
//    numbers were subtracted. The result was divided by the number of
//    iterations ... the previous measurement was repeated several times. The
//    first time was thrown out. The next three times were used to get an
//    approximation to the mean time. If any of the remaining measurements
//    were greater than three times the mean, they were ... thrown out. At
//    least thirty iterations were always measured, but enough iterations were
//    measured so that the confidence interval was at most 10% of the mean."
//
// Here a *run* is one timed loop of `iters` events minus one timed empty loop
// of `iters`, divided by `iters`. The calibration runs that size `iters` are
// the runs thrown out; the next three runs give the approximate mean (their
// median, robust to one corrupted run); every run above three times it is
// dropped; runs go on until at least
// `min_runs` (30) are kept and the 95% confidence interval of their mean is
// within `ci_target` of it, or the time budget is spent (then the result is
// marked as not converged).
//
// This machine's cross-core latency switches between two regimes over tens
// of seconds, so measurements that are compared with each other (an
// operation, the raw active message of the same pattern, the raw cache-line
// ping-pong) are *interleaved*: run_group() takes one run of each in turn, so
// all of them see the same mixture of regimes.
//
// Clocks: now_ns() is the job's clock, what every measurement reads. On a
// backend with a virtual clock (the sim: splitc::has_virtual_clock) that is
// the running processor's virtual time, splitc::get_seconds(); elsewhere the
// host's monotonic clock, read directly (no call through the library).
// host_now_ns() is always the host's clock: progress lines and the run's total
// time. The Open MPI reference program has no splitc and defines
// SPLITC_BENCH_HOST_CLOCK_ONLY before including this header.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#ifndef SPLITC_BENCH_HOST_CLOCK_ONLY
#include <splitc/runtime.hpp>
#include <splitc/splitc.hpp>
#endif

namespace bench {

/// Whether the job's clock is virtual (the sim backend): then timings are
/// virtual nanoseconds, the same in every run with the same seed in
/// deterministic mode, and nothing the host does shows in them.
#ifdef SPLITC_BENCH_HOST_CLOCK_ONLY
inline constexpr bool virtual_clock = false;
#else
inline constexpr bool virtual_clock = splitc::has_virtual_clock<splitc::active_backend>;
#endif

/// A compiler barrier: the loop body's memory effects may not be merged,
/// hoisted or dropped across it. Costs no instruction.
inline void clobber() noexcept { asm volatile("" ::: "memory"); }
/// Make the compiler believe `v` is read (so computing it cannot be dropped).
template <class T>
inline void escape(const T& v) noexcept {
  asm volatile("" : : "r"(&v) : "memory");
}

/// The host's monotonic clock, nanoseconds.
inline std::int64_t host_now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The job's clock, nanoseconds: virtual time on the sim, the host's clock elsewhere.
inline std::int64_t now_ns() noexcept {
#ifndef SPLITC_BENCH_HOST_CLOCK_ONLY
  if constexpr (virtual_clock) return std::llround(splitc::get_seconds() * 1e9);
#endif
  return host_now_ns();
}

/// How hard to try; one set per mode (--smoke, --quick, default).
struct policy {
  double target_run_ns = 200e3;  ///< calibrate `iters` so one timed loop lasts this long
  int min_runs = 30;             ///< kept runs, at least (seed: thirty)
  int max_runs = 1000;
  double ci_target = 0.02;       ///< 95% CI half-width / mean (seed: 10%)
  double ci_floor_ns = 0.1;      ///< ... or this absolute half-width per event: events
                                 ///< cheaper than the loop's own jitter (a store that
                                 ///< retires into the store buffer) cannot do better
  double budget_s = 1.0;         ///< seconds per member of a group, at most, on the job's
                                 ///< clock (virtual on the sim: the same runs every time)
  bool smoke = false;            ///< one iteration, one kept run: exercises code paths only
};

/// One run of `iters` events: nanoseconds per event, empty loop subtracted.
using run_fn = std::function<double(long iters)>;

/// Build a run from an event and its completion steps.
///   event(i)   the measured event (i = 0..iters-1);
///   finish(n)  completion that belongs to the measurement (inside the timed
///              region, once after the n events: sync(), a flush, ...);
///   after(n)   completion that does not (outside the timed region: the
///              receiver's store_sync for one-way operations, ...).
/// Before the timed loop a few untimed events warm caches and paths, so each
/// run is steady-state even though runs of different members alternate.
template <class Event, class Finish, class After>
run_fn timed_loop(Event event, Finish finish, After after) {
  return [=](long iters) mutable -> double {
    const long warm = std::max(1L, std::min(iters / 16, 64L));
    for (long i = 0; i < warm; ++i) {
      event(i);
      clobber();
    }
    finish(warm);
    after(warm);

    const std::int64_t t0 = now_ns();
    for (long i = 0; i < iters; ++i) {
      event(i);
      clobber();
    }
    finish(iters);
    const std::int64_t t1 = now_ns();
    after(iters);

    const std::int64_t t2 = now_ns();
    for (long i = 0; i < iters; ++i) clobber();
    const std::int64_t t3 = now_ns();
    return static_cast<double>((t1 - t0) - (t3 - t2)) / static_cast<double>(iters);
  };
}
inline constexpr auto nothing = [](long) {};

/// Two-sided 95% Student t quantile for `df` degrees of freedom.
inline double t95(int df) {
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                     2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                     2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                     2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) return std::numeric_limits<double>::infinity();
  if (df <= 30) return table[df - 1];
  return 1.960 + 2.4 / df;  // within 0.5% of the exact quantile above 30
}

/// What a member's runs say.
struct summary {
  double mean = std::numeric_limits<double>::quiet_NaN();  ///< per event (ns)
  double ci_rel = std::numeric_limits<double>::infinity();  ///< 95% half-width / mean
  double ci_abs = std::numeric_limits<double>::infinity();  ///< 95% half-width (ns)
  double min = std::numeric_limits<double>::quiet_NaN();
  int kept = 0;
  int dropped = 0;  ///< runs above 3x the approximate mean
  long iters = 0;   ///< events per run
  bool converged = false;
};

/// Apply the seed's filter to `runs` (calibration already thrown out).
inline summary summarize(const std::vector<double>& runs, long iters) {
  summary s;
  s.iters = iters;
  if (runs.empty()) return s;
  // The approximate mean of the first three runs; their median, so that one
  // run corrupted by a context switch cannot raise the threshold with it.
  std::vector<double> head(runs.begin(), runs.begin() + std::min<std::ptrdiff_t>(3, std::ssize(runs)));
  std::sort(head.begin(), head.end());
  const double approx = head[head.size() / 2];
  const double limit = approx > 0 ? 3 * approx : std::numeric_limits<double>::infinity();
  double sum = 0, sumsq = 0, lo = std::numeric_limits<double>::infinity();
  for (double r : runs) {
    if (r > limit) {
      ++s.dropped;
      continue;
    }
    ++s.kept;
    sum += r;
    sumsq += r * r;
    lo = std::min(lo, r);
  }
  if (s.kept == 0) return s;
  s.mean = sum / s.kept;
  s.min = lo;
  if (s.kept > 1) {
    const double var = std::max(0.0, (sumsq - s.kept * s.mean * s.mean) / (s.kept - 1));
    const double half = t95(s.kept - 1) * std::sqrt(var / s.kept);
    s.ci_abs = half;
    s.ci_rel = s.mean != 0 ? std::abs(half / s.mean) : std::numeric_limits<double>::infinity();
  }
  return s;
}

/// One measurement taking part in an interleaved group.
struct member {
  std::string key;
  run_fn run;
  long min_iters = 30;  ///< seed: at least thirty iterations per loop
  long max_iters = 1L << 24;
  double divide = 1;    ///< operations per event (N for "N gets, then sync")
  std::function<void()> enter, leave;  ///< untimed, around every run (mode switches)

  // Filled in by run_group.
  long iters = 0;
  std::vector<double> runs;
  summary result;  ///< per operation (already divided)
  bool done = false;

  double one_run(long n) {
    if (enter) enter();
    const double v = run(n);
    if (leave) leave();
    return v;
  }
};

/// Runs on a virtual clock that agree exactly: in deterministic mode the sim
/// repeats a run to the nanosecond, so there is nothing to average.
inline constexpr int identical_runs_enough = 3;

inline bool precise_enough(const summary& s, const policy& p) {
  if (virtual_clock && s.kept >= identical_runs_enough && s.dropped == 0 && s.ci_rel <= 1e-9)
    return true;
  return s.kept >= p.min_runs && (s.ci_rel <= p.ci_target || s.ci_abs <= p.ci_floor_ns);
}

/// Calibrate each member, then take one run of each in turn until every
/// member has converged or the group's time budget is spent.
inline void run_group(std::vector<member*> members, const policy& p) {
  for (member* m : members) {
    m->runs.clear();
    m->done = false;
    if (p.smoke) {
      m->iters = 1;
      m->one_run(1);  // the thrown-out first run
      continue;
    }
    // Calibration: these runs are the seed's "first time", thrown out.
    long it = std::max(1L, m->min_iters);
    for (int k = 0; k < 24; ++k) {
      const double per = m->one_run(it);
      const double elapsed = per * static_cast<double>(it);
      if (elapsed >= p.target_run_ns / 2 || it >= m->max_iters) break;
      // Virtual time charges communication only: an event that costs none
      // stays at zero however long the loop, so lengthening it is no use.
      if (virtual_clock && per <= 0) break;
      const double want = p.target_run_ns / std::max(per, 0.05);
      it = static_cast<long>(std::clamp(want, static_cast<double>(it) * 2,
                                        static_cast<double>(it) * 64));
      it = std::min(it, m->max_iters);
    }
    m->iters = std::clamp(it, std::max(1L, m->min_iters), m->max_iters);
  }

  const std::int64_t start = now_ns();
  const double budget_ns = p.budget_s * 1e9 * static_cast<double>(members.size());
  for (;;) {
    bool any = false;
    for (member* m : members) {
      if (m->done) continue;
      any = true;
      m->runs.push_back(m->one_run(m->iters));
      const summary s = summarize(m->runs, m->iters);
      const bool enough =
          p.smoke ? !m->runs.empty()
                  : precise_enough(s, p) || static_cast<int>(m->runs.size()) >= p.max_runs;
      if (enough) m->done = true;
    }
    if (!any) break;
    // On a virtual clock the budget is virtual time too (so the same runs are
    // taken every time), and one transfer of 64 MiB at 10 MB/s spends it
    // alone: every member gets the identical runs it needs first.
    const bool may_stop =
        !virtual_clock || std::all_of(members.begin(), members.end(), [](const member* m) {
          return m->done || std::ssize(m->runs) >= identical_runs_enough;
        });
    if (may_stop && static_cast<double>(now_ns() - start) > budget_ns) break;
  }
  for (member* m : members) {
    summary s = summarize(m->runs, m->iters);
    s.converged = p.smoke || precise_enough(s, p);
    s.mean /= m->divide;
    s.min /= m->divide;
    s.ci_abs /= m->divide;
    m->result = s;
    m->done = true;
  }
}

}  // namespace bench
