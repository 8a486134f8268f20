// How many elements the team collectives' tests send per pair of members: what a check asks
// for, but fewer on teams of more than 256 members, where the data grows as n² over the job
// and the sim runs all of its 1024 processors in one process of this 24 GiB machine
// (sim.teams.p1024, sim.split_phase.p1024).
#pragma once

#include <algorithm>
#include <cstddef>

namespace splitc_tests {

/// Up to `wanted`, so that a member of a team of n holds about 51,200 elements per vector of
/// n blocks (400 KiB of 8-byte ones): `wanted` itself up to n = 51,200 / wanted; never 0.
inline std::size_t per_pair(int n, std::size_t wanted) {
  return std::max<std::size_t>(1, std::min<std::size_t>(wanted, 51200 / static_cast<std::size_t>(n)));
}

}  // namespace splitc_tests
