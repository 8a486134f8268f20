// Internal to the core's sources: finalize's barrier is a collective of its own kind, with a
// signature no program collective has, so that a processor in finalize() and one still in a
// collective of the program (a barrier the first skipped) see each other's messages as a
// mismatch and the job ends naming both, instead of pairing up and hanging in the next
// collective (issue 45). runtime.cpp runs it; errors.cpp names it.
#pragma once

#include <splitc/detail/collective_algorithms.hpp>

namespace splitc::detail {

struct finalize_barrier_kind;
inline constexpr std::uint64_t finalize_signature =
    collective_signature<collective_kind::barrier, finalize_barrier_kind, void>;

}  // namespace splitc::detail
