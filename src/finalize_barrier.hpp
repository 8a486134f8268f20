// Internal to the core's sources: finalize's barrier is a collective of its own kind, with a
// signature no program collective has, so that a processor in finalize() and one still in a
// collective of the program (a barrier the first skipped) see each other's messages as a
// mismatch and the job ends naming both, instead of pairing up and hanging in the next
// collective (issue 45). runtime.cpp runs it; errors.cpp names it; mailbox.cpp judges it
// while a processor waits in a collective of the layer's own network.
//
// On a backend with native collectives (the CM-5's control network, which carries no
// signature) finalize's barrier runs on the mailboxes and its signature also carries how many
// native collectives its processor has passed (detail/native_collectives.hpp).
#pragma once

#include <splitc/detail/collective_algorithms.hpp>

#include <cstdint>
#include <optional>

namespace splitc::detail {

struct finalize_barrier_kind;
inline constexpr std::uint64_t finalize_signature =
    collective_signature<collective_kind::barrier, finalize_barrier_kind, void>;

/// finalize's signature on a backend with native collectives, after `native_passed` of them:
/// the count mixed in as a broadcast's root is (root_mix, invertible), modulo 2^31 -- a
/// processor waiting in one needs only to tell its own number's count from any other.
constexpr std::uint64_t finalize_signature_after(std::uint64_t native_passed) noexcept {
  return finalize_signature ^ root_mix(static_cast<proc_t>(native_passed & 0x7fffffffu));
}

/// Whether `signature` is finalize's; if it carries a count of native collectives, the count
/// (modulo 2^31). Another collective's signature passes for one with odds of 2^-33.
constexpr bool is_finalize_signature(std::uint64_t signature,
                                     std::optional<std::uint64_t>* native_passed = nullptr) {
  if (signature == finalize_signature) return true;
  const std::uint64_t count = root_unmix(signature ^ finalize_signature);
  if (count > 0x7fffffffu) return false;
  if (native_passed != nullptr) *native_passed = count;
  return true;
}
static_assert(is_finalize_signature(finalize_signature_after(0)) &&
              is_finalize_signature(finalize_signature_after(0x7fffffffu)) &&
              !is_finalize_signature(finalize_signature ^ 1));

/// A processor waiting in a native collective found `from`'s finalize message with another
/// count: one of the two skipped a collective, or called one the other did not (errors.cpp).
[[gnu::cold, noreturn]] void finalize_skipped_native(proc_t from);

}  // namespace splitc::detail
