// The computation that overlap measurements hide collectives behind (bench/parts/teams.cpp and
// its Open MPI counterpart in mpi_reference.cpp): the same kernel on both sides.
#pragma once

namespace bench {

/// A piece of computation: `steps` dependent floating-point updates of a small private array.
inline double compute(long steps) {
  double a[64] = {};
  double x = 1.0;
  for (long k = 0; k < steps; ++k) {
    double& v = a[k & 63];
    v = v * 0.999999 + x;
    x = v * 1e-9 + 1.0;
  }
  return x;
}

}  // namespace bench
