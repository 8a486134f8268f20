// The C++ reference for tests/splitcc/programs/matmul.sc (test splitcc.compare.matmul.*):
// the same three blocked products C = A x B (n x r times r x m blocks of b x b, the same
// element formulas) on splitc's C++ API: each matrix a spread array `double M[n][m]::[b][b]`
// (splitc::make_spread_array), the owner of each block of C (for_my_2d) computing it with
// bulk_get of the blocks of A and B. Processor 0 prints the same "result" lines as the
// Split-C program: per product and processor, its blocks of C's count, sum and hash.
#include "digest.hpp"

#include <splitc/splitc.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

using blocks = splitc::spread_array<double, splitc::layout::dims<2, 2>>;

double a_value(std::size_t row, std::size_t col) {
  return static_cast<double>(static_cast<int>((row * 7 + col * 3) % 11) - 5);
}
double b_value(std::size_t row, std::size_t col) {
  return static_cast<double>(static_cast<int>((row * 5 + col * 2) % 13) - 6);
}

/// Each block of M owned here, from value(row, column) of the whole matrix.
template <class Value>
void fill(const blocks& M, std::size_t rows, std::size_t cols, std::size_t b, Value value) {
  for_my_2d(i, j, rows, cols) {
    double* block = M.gptr(i, j, 0, 0).local();
    for (std::size_t x = 0; x < b; ++x)
      for (std::size_t y = 0; y < b; ++y) block[x * b + y] = value(i * b + x, j * b + y);
  }
}

struct digest {
  int blocks;
  double sum;
  std::uint64_t hash;
};

/// C = A x B, n x r blocks times r x m blocks, then the result lines. Collective.
void product(std::size_t n, std::size_t r, std::size_t m, std::size_t b) {
  blocks A = splitc::make_spread_array<double>({n, r}, {b, b});
  blocks B = splitc::make_spread_array<double>({r, m}, {b, b});
  blocks C = splitc::make_spread_array<double>({n, m}, {b, b});  // zeros
  fill(A, n, r, b, a_value);
  fill(B, r, m, b, b_value);
  splitc::barrier();

  std::vector<double> la(b * b), lb(b * b);
  for_my_2d(i, j, n, m) {
    double* lc = C.gptr(i, j, 0, 0).local();
    for (std::size_t k = 0; k < r; ++k) {
      splitc::bulk_get(la.data(), A.gptr(i, k, 0, 0), b * b * sizeof(double));
      splitc::bulk_get(lb.data(), B.gptr(k, j, 0, 0), b * b * sizeof(double));
      splitc::sync();
      for (std::size_t x = 0; x < b; ++x)
        for (std::size_t y = 0; y < b; ++y)
          for (std::size_t z = 0; z < b; ++z) lc[x * b + y] += la[x * b + z] * lb[z * b + y];
    }
  }
  splitc::barrier();

  // This processor's blocks in storage order, each row by row.
  const auto mine = C.my_storage();
  digest d{static_cast<int>(mine.size() / (b * b)), 0.0, reference::hash_start};
  for (double v : mine) {
    d.sum += v;
    d.hash = reference::hash_word(d.hash, v);
  }
  reference::print_results(d, [&](int p, const digest& x) {
    std::printf("result matmul %zux%zux%zu/%zu proc %d blocks %d sum %.17g hash %016llx\n", n, r,
                m, b, p, x.blocks, x.sum, static_cast<unsigned long long>(x.hash));
  });
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  product(3, 2, 4, 3);
  product(static_cast<std::size_t>(splitc::procs()), 1, 2, 4);
  product(1, 3, 1, 2);
  splitc::finalize();
  return 0;
}
