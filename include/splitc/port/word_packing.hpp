// Porting kit: a 16-bit field carried in the top bits of an argument word. Every user-space
// address, length and count fits in 48 bits, signed, so a layer whose packets hold a handler
// and a few words can carry a header (a handler index, the sender, a count) above the
// arguments instead of in a word of its own: the CM-5 and HPAM ports send a message of four
// words as one packet that way, as the seed's layers did (docs/sim-machines.md).
#pragma once

#include <splitc/port/am.hpp>

#include <cstdint>

namespace splitc::port::word_packing {

inline constexpr int field_shift = 48;

/// `w` fits in the 48 bits below the field, signed.
inline bool fits(am_word w) noexcept {
  const auto v = static_cast<std::int64_t>(w);
  return v >= -(std::int64_t{1} << 47) && v < (std::int64_t{1} << 47);
}

/// The low 48 bits of `w` with `field` above them, as the layer's word.
inline long with_field(am_word w, std::uint16_t field) noexcept {
  return static_cast<long>((w & ((std::uint64_t{1} << field_shift) - 1)) |
                           static_cast<std::uint64_t>(field) << field_shift);
}

/// The field a packed word carries.
inline std::uint16_t field(long packed) noexcept {
  return static_cast<std::uint16_t>(static_cast<std::uint64_t>(packed) >> field_shift);
}

/// The argument a packed word carries, sign-extended from its 48 bits.
inline am_word argument(long packed) noexcept {
  return static_cast<am_word>(static_cast<std::int64_t>(static_cast<std::uint64_t>(packed) << 16) >> 16);
}

}  // namespace splitc::port::word_packing
