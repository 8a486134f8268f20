// Blocked matrix multiply (Culler et al. 1993, Program 7; Luna 1994 §6.1):
// what the splitc and the MPI version share — the problem, its sizes, the
// local b x b kernel, and the verification. Only the way blocks are fetched
// differs between the two programs.
//
// The problem: C = A * B, all N x N, N = nb * b, stored as nb x nb blocks of
// b x b doubles (row-major inside a block). Block (i, j) has linear number
// i * nb + j and lives on processor (i * nb + j) mod P at block-row
// (i * nb + j) div P: Split-C's  double C[nb][nb]::[b][b].
//
// "s x s per processor" (the seed's problem sizes: "64x64 means that each
// processor contained a 64x64 element square of each matrix") gives N = s *
// sqrt(P) rounded to a multiple of b, which is exact when P is a perfect
// square (the seed's 4, 16, 64 processors) and within one block otherwise.
//
// The elements are small integers given by formulas of their global row and
// column, so every product and sum is exact in double whatever the summation
// order: the check is exact equality.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace matmul {

struct problem {
  std::size_t n = 0;   ///< matrix side, elements
  std::size_t b = 0;   ///< block side
  std::size_t nb = 0;  ///< blocks per side
  int procs = 1;
  std::size_t block_elems() const { return b * b; }
  std::size_t blocks() const { return nb * nb; }
  /// Blocks (of each matrix) processor p owns.
  std::size_t blocks_on(int p) const {
    const auto q = static_cast<std::size_t>(p);
    return blocks() > q ? (blocks() - q - 1) / static_cast<std::size_t>(procs) + 1 : 0;
  }
  double flops() const {
    return 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  }
};

/// N for "s x s elements per processor" with blocks of b.
inline problem per_processor(std::size_t s, std::size_t b, int procs) {
  const double x =
      static_cast<double>(s) * std::sqrt(static_cast<double>(procs)) / static_cast<double>(b);
  std::size_t nb = static_cast<std::size_t>(std::llround(x));
  if (nb == 0) nb = 1;
  return {nb * b, b, nb, procs};
}
/// An N x N problem given directly (N a multiple of b).
inline problem global(std::size_t n, std::size_t b, int procs) { return {n, b, n / b, procs}; }

// ---- the matrices --------------------------------------------------------------------

inline double a_elem(std::size_t r, std::size_t c) {
  return static_cast<double>(static_cast<int>((r * 7 + c * 3 + 1) % 9) - 4);
}
inline double b_elem(std::size_t r, std::size_t c) {
  return static_cast<double>(static_cast<int>((r * 5 + c * 11 + 2) % 7) - 3);
}
/// The vector the check multiplies with.
inline double x_elem(std::size_t c) {
  return static_cast<double>(static_cast<int>((c * 13 + 5) % 11) - 5);
}

/// Fill block (bi, bj) of A or B.
template <class Elem>
inline void fill_block(double* blk, const problem& pr, std::size_t bi, std::size_t bj, Elem elem) {
  for (std::size_t r = 0; r < pr.b; ++r)
    for (std::size_t c = 0; c < pr.b; ++c) blk[r * pr.b + c] = elem(bi * pr.b + r, bj * pr.b + c);
}

// ---- the local kernel: C += A * B on b x b blocks ----------------------------------------
//
// i-k-j order: the innermost loop streams a row of B into a row of C, both
// contiguous, which the compiler vectorizes; two rows of C at a time halve
// the loads of B. The common block sides are compiled with a constant side.

template <std::size_t B>
inline void kernel_fixed(double* __restrict c, const double* __restrict a,
                         const double* __restrict b) {
  static_assert(B % 2 == 0);
  for (std::size_t i = 0; i < B; i += 2) {
    double* __restrict c0 = c + i * B;
    double* __restrict c1 = c0 + B;
    for (std::size_t k = 0; k < B; ++k) {
      const double a0 = a[i * B + k], a1 = a[(i + 1) * B + k];
      const double* __restrict bk = b + k * B;
      for (std::size_t j = 0; j < B; ++j) {
        c0[j] += a0 * bk[j];
        c1[j] += a1 * bk[j];
      }
    }
  }
}

inline void kernel_any(std::size_t n, double* __restrict c, const double* __restrict a,
                       const double* __restrict b) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = a[i * n + k];
      const double* __restrict bk = b + k * n;
      double* __restrict ci = c + i * n;
      for (std::size_t j = 0; j < n; ++j) ci[j] += aik * bk[j];
    }
}

/// The seed's matrix_mult(b, b, b, lc, la, lb): lc += la * lb.
inline void block_multiply(std::size_t b, double* c, const double* a, const double* bm) {
  switch (b) {
    case 8:
      return kernel_fixed<8>(c, a, bm);
    case 16:
      return kernel_fixed<16>(c, a, bm);
    case 32:
      return kernel_fixed<32>(c, a, bm);
    case 64:
      return kernel_fixed<64>(c, a, bm);
    case 128:
      return kernel_fixed<128>(c, a, bm);
    default:
      return kernel_any(b, c, a, bm);
  }
}

// ---- verification ------------------------------------------------------------------------

/// Add this processor's part of C*x: for each owned block (bi, bj) (block k
/// holds C block k), partial[row] += sum over the block's columns of C * x.
/// Summed over processors this is C*x.
inline void add_partial_cx(const problem& pr, std::size_t bi, std::size_t bj, const double* blk,
                           std::vector<double>& partial) {
  for (std::size_t r = 0; r < pr.b; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < pr.b; ++c) s += blk[r * pr.b + c] * x_elem(bj * pr.b + c);
    partial[bi * pr.b + r] += s;
  }
}

/// A * (B * x) from the formulas: O(N^2), computed by every processor.
inline std::vector<double> expected_cx(const problem& pr) {
  std::vector<double> bx(pr.n, 0.0), abx(pr.n, 0.0);
  for (std::size_t r = 0; r < pr.n; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < pr.n; ++c) s += b_elem(r, c) * x_elem(c);
    bx[r] = s;
  }
  for (std::size_t r = 0; r < pr.n; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < pr.n; ++c) s += a_elem(r, c) * bx[c];
    abx[r] = s;
  }
  return abx;
}

/// Element-by-element check of one C block against the formulas (O(N b^2)
/// per block): used when N is small. Returns the number of wrong elements.
inline std::size_t check_block_exact(const problem& pr, std::size_t bi, std::size_t bj,
                                     const double* blk) {
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < pr.b; ++r)
    for (std::size_t c = 0; c < pr.b; ++c) {
      const std::size_t gr = bi * pr.b + r, gc = bj * pr.b + c;
      double s = 0;
      for (std::size_t k = 0; k < pr.n; ++k) s += a_elem(gr, k) * b_elem(k, gc);
      if (s != blk[r * pr.b + c]) ++wrong;
    }
  return wrong;
}

/// Problems at most this large are also checked element by element.
inline constexpr std::size_t exact_check_limit = 384;

/// The seed's table 1 (elements per processor) and table 2 (scaled speedup, 128 x 128 per
/// processor).
inline constexpr std::size_t table1_sizes[] = {64, 128, 256, 512};
inline constexpr std::size_t scaled_size = 128;

}  // namespace matmul
