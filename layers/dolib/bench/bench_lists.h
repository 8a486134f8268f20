/* The index lists of the DOLIB benchmarks, shared by the splitc side (dolib_bench) and the
 * Global Arrays side (ga_bench) so that both measure the same data: a seeded splitmix64
 * stream, the same on every processor count, per processor and repetition. */
#ifndef DOLIB_BENCH_LISTS_H
#define DOLIB_BENCH_LISTS_H

#include <stdint.h>

static inline uint64_t bench_mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Fills list[0..m) with 0-based indices into an array of n elements for processor `me`.
 * locality 0: uniform over the whole array; 1: only the first half of the caller's own
 * contiguous share [me*n/procs, (me+1)*n/procs) (what both libraries keep on the caller when
 * the array is cut in contiguous shares; see the README). */
static inline void bench_fill_list(int* list, int m, int n, int me, int procs, int locality,
                                   uint64_t seed) {
  uint64_t lo = 0, span = (uint64_t)n;
  if (locality == 1) {
    lo = (uint64_t)n * (uint64_t)me / (uint64_t)procs;
    span = (uint64_t)n * (uint64_t)(me + 1) / (uint64_t)procs - lo;
  }
  for (int k = 0; k < m; ++k) {
    list[k] = (int)(lo + bench_mix(seed * 1000003ull + (uint64_t)me * 7919ull + (uint64_t)k) % span);
  }
}

#endif
