// splitc-shmem-bench: splitc on OpenSHMEM next to raw OpenSHMEM, in the same run.
//
//   splitc-run --backend shmem -n 2 splitc-shmem-bench [--runs N] [--iters N]
//
// PE 0 measures against PE 1. Each row interleaves its two members run by
// run (raw, then splitc), so both see the same mixture of this machine's
// cross-core regimes; it prints the median time of each and the median of
// the per-run ratios splitc / raw.
//
//   8-byte get        shmem_getmem                  | splitc::get + sync (a load, or the RMA member)
//   8-byte read       shmem_getmem                  | splitc::read
//   8-byte put        shmem_putmem + shmem_quiet    | splitc::put + sync
//   8-byte write      shmem_putmem + shmem_quiet    | splitc::write
//   8-byte puts, N    N shmem_putmem, shmem_quiet   | N splitc::put, sync
//   bulk_put 4 MiB    shmem_putmem + shmem_quiet    | splitc::bulk_put + sync
//   bulk_get 4 MiB    shmem_getmem                  | splitc::bulk_get + sync
//   8-byte store      shmem_putmem, shmem_fence,    | splitc::store (one way: the sender's cost,
//                     shmem_putmem of a byte count  |   while PE 1 polls both counts)
//   bulk_store 4 MiB  the same, 4 MiB of data       | splitc::bulk_store
//   fetch-add         shmem_long_atomic_fetch_add   | splitc::fetch_and_add (the native atomic member)
//   fetch-add by AM   shmem_long_atomic_fetch_add   | splitc::atomic(add-procedure): the active-
//                                                     message round trip atomics took before
//   barrier           shmem_barrier_all             | splitc::barrier
// The raw store is the signalling put splitc's stores are between PEs the
// library does not map (OpenSHMEM 1.4 has no shmem_putmem_signal): the data,
// a fence, then a put of the sender's running byte count, which the receiver
// polls. And, raw only, for reference: the other signalling put, with an
// atomic add for the count.
//
// Where OpenSHMEM maps the peer into this process (shmem_ptr, PEs on one
// host), splitc's get, put and bulk transfers are loads, stores and memcpy
// (the port's direct path), so three more rows hold them against what an
// OpenSHMEM program can write there too:
//   get / ptr load    a load through shmem_ptr      | splitc::get + sync
//   put / ptr store   a store through shmem_ptr     | splitc::put + sync
//   bulk_put / memcpy memcpy through shmem_ptr      | splitc::bulk_put + sync
// Run with SPLITC_SAME_HOST=0 to measure the one-sided calls instead.
#include <shmem.h>
#include <splitc/splitc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

int runs = 31;
int iters = 2000;
constexpr std::size_t big = std::size_t{4} << 20;

double now_ns() {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Time `n` calls of `op` (ns per call), on PE 0 only.
double per_op(int n, const std::function<void()>& op) {
  const double t0 = now_ns();
  for (int i = 0; i < n; ++i) op();
  return (now_ns() - t0) / n;
}

void row(const char* what, int n, const std::function<void()>& raw,
         const std::function<void()>& ours) {
  std::vector<double> r, s, ratio;
  for (int k = 0; k < runs + 1; ++k) {
    const double a = per_op(n, raw);
    const double b = per_op(n, ours);
    if (k == 0) continue;  // warm-up
    r.push_back(a);
    s.push_back(b);
    ratio.push_back(b / a);
  }
  std::printf("%-22s %12.1f %12.1f %8.3f\n", what, median(r), median(s), median(ratio));
}

void raw_row(const char* what, int n, const std::function<void()>& raw) {
  std::vector<double> r;
  for (int k = 0; k < runs + 1; ++k) {
    const double a = per_op(n, raw);
    if (k != 0) r.push_back(a);
  }
  std::printf("%-22s %12.1f %12s %8s\n", what, median(r), "-", "-");
}

long add_one(long* word) { return (*word)++; }

/// The cache-line round trip between the two PEs (this machine's regime):
/// ping-pong on a symmetric word through shmem_ptr when the peer is mapped.
double cache_line_round_trip(long* flag, int me) {
  volatile long* peer = static_cast<volatile long*>(shmem_ptr(flag, 1 - me));
  volatile long* mine = flag;
  if (peer == nullptr) return -1;
  const int n = 20000;
  shmem_barrier_all();
  const double t0 = now_ns();
  for (long i = 1; i <= n; ++i) {
    if (me == 0) {
      *peer = i;
      while (*mine != i) {}
    } else {
      while (*mine != i) {}
      *peer = i;
    }
  }
  const double t = (now_ns() - t0) / n;
  shmem_barrier_all();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--iters") == 0 && i + 1 < argc) iters = std::atoi(argv[++i]);
  }
  const int me = splitc::myproc();
  // --iters: at least 100 (the x100 row runs iters / 100 batches).
  if (splitc::procs() != 2 || runs < 1 || iters < 100) {
    if (me == 0)
      std::fprintf(stderr, "splitc-shmem-bench: run it with 2 PEs (--runs N >= 1, --iters N >= 100)\n");
    splitc::finalize();
    return 2;
  }
  const int peer = 1 - me;

  // Symmetric buffers for raw OpenSHMEM, and the same sizes in splitc's
  // spread heap (element q of a spread array of 2 lives on processor q).
  auto* raw_word = static_cast<long*>(shmem_malloc(64));
  auto* raw_big = static_cast<char*>(shmem_malloc(big));
  auto* local_big = static_cast<char*>(std::malloc(big));
  std::memset(raw_big, 1, big);
  std::memset(local_big, 2, big);
  for (int i = 0; i < 8; ++i) raw_word[i] = 0;
  struct word_block { long w[8]; };
  struct big_block { char b[big]; };
  auto words = splitc::all_spread_malloc<word_block>(2);
  auto bigs = splitc::all_spread_malloc<big_block>(2);
  splitc::global_ptr<long> their_word(peer, (words + me).local()->w);
  splitc::global_ptr<void> their_big(peer, (bigs + me).local()->b);
  long value = 42, got = 0;
  splitc::barrier();

  const double rt = cache_line_round_trip(raw_word + 4, me);
  if (me == 0) {
    std::printf("splitc-shmem-bench: 2 PEs, %d runs of %d operations (bulk: %d), medians; "
                "OpenSHMEM %d.%d (Open MPI oshmem)\n",
                runs, iters, 20, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION);
    std::printf("cache-line round trip between the PEs: %.0f ns\n", rt);
    std::printf("%-22s %12s %12s %8s\n", "operation (ns/op)", "raw shmem", "splitc", "ratio");
    row("8-byte get", iters, [&] { shmem_getmem(&got, raw_word, 8, peer); },
        [&] {
          splitc::get(&got, their_word);
          splitc::sync();
        });
    row("8-byte read", iters, [&] { shmem_getmem(&got, raw_word, 8, peer); },
        [&] { got = splitc::read(their_word); });
    row("8-byte put", iters,
        [&] {
          shmem_putmem(raw_word, &value, 8, peer);
          shmem_quiet();
        },
        [&] {
          splitc::put(their_word, value);
          splitc::sync();
        });
    row("8-byte write", iters,
        [&] {
          shmem_putmem(raw_word, &value, 8, peer);
          shmem_quiet();
        },
        [&] { splitc::write(their_word, value); });
    row("8-byte puts x100", iters / 100,
        [&] {
          for (int i = 0; i < 100; ++i) shmem_putmem(raw_word, &value, 8, peer);
          shmem_quiet();
        },
        [&] {
          for (int i = 0; i < 100; ++i) splitc::put(their_word, value);
          splitc::sync();
        });
    row("bulk_put 4 MiB", 20,
        [&] {
          shmem_putmem(raw_big, local_big, big, peer);
          shmem_quiet();
        },
        [&] {
          splitc::bulk_put(their_big, local_big, big);
          splitc::sync();
        });
    row("bulk_get 4 MiB", 20, [&] { shmem_getmem(local_big, raw_big, big, peer); },
        [&] {
          splitc::bulk_get(local_big, their_big, big);
          splitc::sync();
        });
    row("fetch-add", iters, [&] { got = shmem_long_atomic_fetch_add(raw_word + 1, 1, peer); },
        [&] { got = splitc::fetch_and_add(their_word + 1, 1L); });
    row("fetch-add by AM", iters,
        [&] { got = shmem_long_atomic_fetch_add(raw_word + 1, 1, peer); },
        [&] { got = splitc::atomic(add_one, their_word + 2); });
    if (auto* mapped = static_cast<volatile long*>(shmem_ptr(raw_word, peer))) {
      auto* mapped_big = static_cast<char*>(shmem_ptr(raw_big, peer));
      row("get / ptr load", iters, [&] { got = mapped[0]; },
          [&] {
            splitc::get(&got, their_word);
            splitc::sync();
          });
      row("put / ptr store", iters, [&] { mapped[0] = value; },
          [&] {
            splitc::put(their_word, value);
            splitc::sync();
          });
      row("bulk_put / memcpy", 20, [&] { std::memcpy(mapped_big, local_big, big); },
          [&] {
            splitc::bulk_put(their_big, local_big, big);
            splitc::sync();
          });
    }
    raw_row("signalling put (raw)", iters, [&] {
      shmem_putmem(raw_word + 2, &value, 8, peer);
      shmem_fence();
      shmem_long_atomic_add(raw_word + 3, 8, peer);
    });
  }
  // The stores, with a receiver that reads their counts as one waiting for a
  // signalling put does: PE 1 polls splitc and reads the raw store's count word
  // in turn until PE 0 is done, so both kinds meet the same reader.
  splitc::barrier();
  if (me == 0) {
    long stored = 0;  // the raw store's running byte count
    row("8-byte store", iters,
        [&] {
          shmem_putmem(raw_word + 5, &value, 8, peer);
          shmem_fence();
          stored += 8;
          shmem_putmem(raw_word + 6, &stored, 8, peer);
        },
        [&] { splitc::store(their_word + 3, value); });
    row("bulk_store 4 MiB", 20,
        [&] {
          shmem_putmem(raw_big, local_big, big, peer);
          shmem_fence();
          stored += static_cast<long>(big);
          shmem_putmem(raw_word + 6, &stored, 8, peer);
        },
        [&] { splitc::bulk_store(their_big, local_big, big); });
    const long done = 1;
    shmem_putmem(raw_word + 7, &done, 8, peer);
    shmem_quiet();
  } else {
    const volatile long* done = raw_word + 7;
    const volatile long* raw_count = raw_word + 6;
    long last = 0;
    while (*done == 0) {
      splitc::poll();
      last = *raw_count;
    }
    (void)last;
  }
  // Every store PE 0 made has arrived (and is taken off both counters).
  splitc::all_store_sync();
  // The barriers, measured together (both PEs take part).
  splitc::barrier();
  {
    std::vector<double> r, s, ratio;
    for (int k = 0; k < runs + 1; ++k) {
      const double a = per_op(iters / 4, [] { shmem_barrier_all(); });
      const double b = per_op(iters / 4, [] { splitc::barrier(); });
      if (k == 0) continue;
      r.push_back(a);
      s.push_back(b);
      ratio.push_back(b / a);
    }
    if (me == 0)
      std::printf("%-22s %12.1f %12.1f %8.3f\n", "barrier", median(r), median(s), median(ratio));
  }
  splitc::barrier();
  splitc::all_spread_free(bigs);
  splitc::all_spread_free(words);
  shmem_free(raw_big);
  shmem_free(raw_word);
  std::free(local_big);
  splitc::finalize();
  return 0;
}
