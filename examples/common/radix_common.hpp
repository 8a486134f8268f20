// Radix sort of 32-bit keys (Luna 1994 §6.2): what the splitc and the MPI
// version share — key generation, the local steps of a pass, the placement
// rule, and the checks. Only the scan and the movement of keys differ.
//
// The keys are a blocked array: processor p holds keys [p*N, (p+1)*N) of the
// global sequence (Split-C's  unsigned K[PROCS]::[N]). Each pass sorts stably
// on `bits` bits, least significant digit first:
//   fill      count this processor's keys per digit (a local histogram);
//   scan      for every digit d, where this processor's keys with digit d
//             start in the output: all keys with smaller digits, plus the keys
//             with digit d on lower-numbered processors (a scan over
//             processors of the histograms, plus their totals);
//   coalesce  send every key to its place. The keys of one digit from one
//             processor go to consecutive places, so they are first grouped
//             by digit locally and then moved as runs (at most one per digit
//             and destination processor).
#pragma once

#include "example_util.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace radix {

using key_t = std::uint32_t;
using count_t = std::uint32_t;  // total keys must stay below 2^32

struct config {
  std::size_t keys = 0;  ///< per processor
  int bits = 8;
  int passes() const { return (32 + bits - 1) / bits; }
  std::size_t buckets() const { return std::size_t{1} << bits; }
};

/// This processor's keys: a splitmix64 stream seeded by (seed, rank).
inline void generate(key_t* out, std::size_t n, std::uint64_t seed, int rank) {
  examples::rng g(seed, static_cast<std::uint64_t>(rank));
  for (std::size_t i = 0; i < n; ++i) out[i] = g.next32();
}

/// A fingerprint of a multiset of keys: count, sum, and sum of a 64-bit hash
/// of each key, all mod 2^64 (adding them over processors gives the whole
/// multiset's). A lost, duplicated or altered key changes it.
struct fingerprint {
  std::uint64_t count = 0, sum = 0, hash_sum = 0;
};
inline fingerprint fingerprint_of(const key_t* k, std::size_t n) {
  fingerprint f;
  f.count = n;
  for (std::size_t i = 0; i < n; ++i) {
    f.sum += k[i];
    f.hash_sum += examples::mix64(k[i] + 0x51ed270b27c1f3a5ULL);
  }
  return f;
}

inline std::uint32_t digit(key_t key, int shift, std::uint32_t mask) {
  return (key >> shift) & mask;
}

/// fill: counts[d] = number of keys with digit d.
inline void histogram(const key_t* keys, std::size_t n, int shift, std::uint32_t mask,
                      count_t* counts, std::size_t buckets) {
  std::memset(counts, 0, buckets * sizeof(count_t));
  for (std::size_t i = 0; i < n; ++i) ++counts[digit(keys[i], shift, mask)];
}

/// From the histogram, its inclusive scan over processors (this processor's
/// and all lower ones', per digit) and the totals over all processors: where
/// this processor's keys of digit d start in the global output.
inline void starts_from_scan(const count_t* counts, const count_t* inclusive, const count_t* totals,
                             std::size_t buckets, std::uint64_t* start) {
  std::uint64_t base = 0;
  for (std::size_t d = 0; d < buckets; ++d) {
    start[d] = base + (inclusive[d] - counts[d]);
    base += totals[d];
  }
}
/// The same from an exclusive scan (MPI_Exscan) and the totals.
inline void starts_from_exclusive(const count_t* exclusive, const count_t* totals,
                                  std::size_t buckets, std::uint64_t* start) {
  std::uint64_t base = 0;
  for (std::size_t d = 0; d < buckets; ++d) {
    start[d] = base + exclusive[d];
    base += totals[d];
  }
}

/// Group this processor's keys by digit, stably, into `out` (a local
/// counting-sort scatter); `first[d]` receives where digit d's run begins.
inline void group_by_digit(const key_t* keys, std::size_t n, int shift, std::uint32_t mask,
                           const count_t* counts, std::size_t buckets, key_t* out,
                           std::vector<std::size_t>& first, std::vector<std::size_t>& next) {
  std::size_t at = 0;
  for (std::size_t d = 0; d < buckets; ++d) {
    first[d] = next[d] = at;
    at += counts[d];
  }
  for (std::size_t i = 0; i < n; ++i) {
    const key_t k = keys[i];
    out[next[digit(k, shift, mask)]++] = k;
  }
}

/// For each run of grouped keys (digit d: counts[d] keys from first[d]) call
/// send(processor, offset there, local keys, count) once per destination
/// processor the run touches (the output is blocked, N keys per processor).
template <class Send>
inline void for_each_run(const count_t* counts, const std::uint64_t* start,
                         const std::vector<std::size_t>& first, std::size_t buckets,
                         std::size_t keys_per_proc, const key_t* grouped, Send send) {
  for (std::size_t d = 0; d < buckets; ++d) {
    std::size_t c = counts[d];
    if (c == 0) continue;
    std::uint64_t g = start[d];
    const key_t* from = grouped + first[d];
    while (c > 0) {
      const auto q = static_cast<int>(g / keys_per_proc);
      const std::size_t off = static_cast<std::size_t>(g % keys_per_proc);
      const std::size_t len = c < keys_per_proc - off ? c : keys_per_proc - off;
      send(q, off, from, len);
      g += len;
      from += len;
      c -= len;
    }
  }
}

/// Keys in non-decreasing order here? Returns the number of descents.
inline std::size_t descents(const key_t* k, std::size_t n) {
  std::size_t bad = 0;
  for (std::size_t i = 1; i < n; ++i) bad += k[i - 1] > k[i];
  return bad;
}

/// Per-phase times of one processor, in seconds, summed over passes.
struct phase_times {
  double fill = 0, scan = 0, coalesce = 0;
};

/// The seed's figures 22–25 (problem sizes, keys per processor) and figure 26 (scaled
/// speedup, 524,288 keys per processor).
inline constexpr std::size_t figure_sizes[] = {1 << 14, 1 << 16, 1 << 18, 1 << 20};
inline constexpr std::size_t scaled_keys = 524288;

}  // namespace radix
