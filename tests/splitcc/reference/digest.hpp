// What the C++ references of tests/splitcc/reference/ share: the digest hash and the
// printing of one "result" line per processor from processor 0, in processor order (the
// lines `splitcc_test.sh compare` checks against the Split-C program's).
#pragma once

#include <splitc/splitc.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>

namespace reference {

/// FNV-1a over 64-bit words: order-dependent, and each step a bijection of the hash, so a
/// value that differs, or a value in another place, changes the result.
constexpr std::uint64_t hash_start = 14695981039346656037ull;
constexpr std::uint64_t hash_word(std::uint64_t h, std::uint64_t w) {
  return (h ^ w) * 1099511628211ull;
}
inline std::uint64_t hash_word(std::uint64_t h, double v) {
  return hash_word(h, std::bit_cast<std::uint64_t>(v));
}

/// The digest of a sequence of keys (radix and sample sort): how many, their sum and xor,
/// and the hash of the keys in order; print_keys prints the result lines.
struct key_digest {
  int count = 0;
  long long sum = 0;
  std::uint32_t xor_all = 0;
  std::uint64_t hash = hash_start;
};
template <class Keys>
key_digest digest_keys(const Keys& keys) {
  key_digest d;
  for (std::uint32_t k : keys) {
    ++d.count;
    d.sum += k;
    d.xor_all ^= k;
    d.hash = hash_word(d.hash, std::uint64_t{k});
  }
  return d;
}

/// Collective: every processor gives its digest; processor 0 calls print(p, digest of p)
/// for p = 0, 1, ..., reading each from a spread array of one digest per processor.
template <class Digest, class Print>
void print_results(const Digest& mine, Print print) {
  auto all = splitc::make_blocked<Digest>(1);  // Digest all[PROCS]::[1]
  all.my_storage()[0] = mine;
  splitc::barrier();
  if (splitc::myproc() == 0)
    for (splitc::proc_t p = 0; p < splitc::procs(); ++p) print(p, splitc::read(all.gptr(p)));
}  // ~spread_array: collective, after processor 0 is done reading

/// Collective: "result NAME proc P count N sum S xor X hash H", one line per processor.
inline void print_keys(const char* name, const key_digest& mine) {
  print_results(mine, [name](int p, const key_digest& x) {
    std::printf("result %s proc %d count %d sum %lld xor %08x hash %016llx\n", name, p, x.count,
                x.sum, static_cast<unsigned>(x.xor_all), static_cast<unsigned long long>(x.hash));
  });
}

}  // namespace reference
