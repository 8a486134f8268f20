// The element types the tests move, seeded values of each, and byte patterns for bulk data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace testvals {

struct s24 {
  std::int32_t a;
  std::int32_t b;
  double c;
  std::int64_t d;
};
struct s64 {
  std::uint16_t s[4];
  std::int32_t i[2];
  double d[5];
  char c[8];
};
static_assert(sizeof(s24) == 24 && std::is_trivially_copyable_v<s24>);
static_assert(sizeof(s64) == 64 && std::is_trivially_copyable_v<s64>);

inline std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline double finite_double(std::uint64_t h) noexcept {
  return static_cast<double>(static_cast<std::int64_t>(h % 2000001) - 1000000) + 0.25;
}

/// A value of T that depends on every bit of `seed` (no padding bytes in any of the types).
template <class T>
T make_value(std::uint64_t seed) noexcept {
  const std::uint64_t h = mix(seed);
  T v;
  if constexpr (std::is_floating_point_v<T>) {
    v = static_cast<T>(finite_double(h));
  } else if constexpr (std::is_integral_v<T>) {
    std::memcpy(&v, &h, sizeof(T));
  } else if constexpr (std::is_same_v<T, s24>) {
    v.a = static_cast<std::int32_t>(h);
    v.b = static_cast<std::int32_t>(h >> 32);
    v.c = finite_double(mix(h));
    v.d = static_cast<std::int64_t>(mix(h + 1));
  } else {
    static_assert(std::is_same_v<T, s64>);
    for (int k = 0; k < 4; ++k) v.s[k] = static_cast<std::uint16_t>(mix(h + k));
    for (int k = 0; k < 2; ++k) v.i[k] = static_cast<std::int32_t>(mix(h + 10 + k));
    for (int k = 0; k < 5; ++k) v.d[k] = finite_double(mix(h + 20 + k));
    const std::uint64_t c = mix(h + 30);
    std::memcpy(v.c, &c, 8);
  }
  return v;
}

template <class T>
bool same(const T& a, const T& b) noexcept {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
constexpr const char* type_name() noexcept {
  if constexpr (std::is_same_v<T, char>) return "char";
  else if constexpr (std::is_same_v<T, short>) return "short";
  else if constexpr (std::is_same_v<T, int>) return "int";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, long long>) return "long long";
  else if constexpr (std::is_same_v<T, s24>) return "struct24";
  else if constexpr (std::is_same_v<T, s64>) return "struct64";
  else return "?";
}

/// Word k of a pattern that depends on the seed and the position (for bulk transfers): cheap
/// enough for hundreds of MiB, and different in every byte of every word, so shifted,
/// truncated or misplaced copies are caught.
inline std::uint64_t pattern_word(std::uint64_t seed, std::uint64_t k) noexcept {
  std::uint64_t x = seed * 0xd1b54a32d192ed03ULL + k * 0x9e3779b97f4a7c15ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  return x ^ (x >> 29);
}
inline unsigned char pattern_byte(std::uint64_t seed, std::size_t i) noexcept {
  return static_cast<unsigned char>(pattern_word(seed, i / 8) >> ((i % 8) * 8));
}
inline void fill_pattern(void* dst, std::size_t len, std::uint64_t seed) noexcept {
  auto* d = static_cast<unsigned char*>(dst);
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    const std::uint64_t w = pattern_word(seed, i / 8);
    std::memcpy(d + i, &w, 8);
  }
  for (; i < len; ++i) d[i] = pattern_byte(seed, i);
}
/// Index of the first byte that differs from the pattern, or len when all match.
inline std::size_t check_pattern(const void* src, std::size_t len, std::uint64_t seed) noexcept {
  const auto* s = static_cast<const unsigned char*>(src);
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    const std::uint64_t w = pattern_word(seed, i / 8);
    if (std::memcmp(s + i, &w, 8) != 0) break;
  }
  for (; i < len; ++i)
    if (s[i] != pattern_byte(seed, i)) return i;
  return len;
}

}  // namespace testvals
