// Spread-array index math without a running job (seed 003 §7.2, Figures 7-8):
// owner and offset of every element for every layout at P = 1..7, the
// Figure 8 picture, the literal-declaration form agreeing with the named
// layouts, and the for_my ranges partitioning the index space.
#include <splitc/spread_array.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <set>
#include <utility>
#include <vector>

namespace {

using splitc::proc_t;
using std::size_t;
namespace layout = splitc::layout;

// ---- compile-time checks ----------------------------------------------------------

static_assert(splitc::spread_layout<layout::cyclic>);
static_assert(splitc::spread_layout<layout::block_cyclic>);
static_assert(splitc::spread_layout<layout::blocked_cyclic_2d>);
static_assert(splitc::spread_layout<layout::dims<1>>);
static_assert(splitc::spread_layout<layout::dims<4, 2>>);
// (clang before 16 cannot evaluate libstdc++'s range concepts at all)
#if !defined(__clang__) || __clang_major__ >= 16
static_assert(std::ranges::forward_range<splitc::my_1d_range>);
static_assert(std::ranges::forward_range<splitc::my_2d_range>);
static_assert(std::ranges::forward_range<splitc::my_blocks_range<layout::blocked_cyclic_2d>>);
static_assert(std::ranges::view<splitc::my_1d_range>);
static_assert(std::ranges::borrowed_range<splitc::my_2d_range>);
#endif
static_assert(!std::is_copy_constructible_v<splitc::cyclic_array<int>>);
// make_spread_array deduces the declaration's shape from braced extents.
static_assert(std::is_same_v<decltype(splitc::make_spread_array<double>({2, 3}, {4})),
                             splitc::spread_array<double, layout::dims<2, 1>>>);
static_assert(std::is_same_v<decltype(splitc::make_spread_array<double>({5})),
                             splitc::spread_array<double, layout::dims<1>>>);
static_assert(std::is_same_v<decltype(splitc::make_spread_array<double, 2, 2>({2, 3}, {4, 4})),
                             splitc::spread_array<double, layout::dims<2, 2>>>);
static_assert(std::is_same_v<decltype(splitc::make_spread_array<int>(std::array<size_t, 3>{})),
                             splitc::spread_array<int, layout::dims<3>>>);
static_assert(std::is_nothrow_move_constructible_v<splitc::cyclic_array<int>>);

// Element 9 of A[n]:: over 4 processors: processor 1, row 2.
static_assert(splitc::element_owner(layout::cyclic{20}, {9}, 4) == 1);
static_assert(splitc::element_offset(layout::cyclic{20}, {9}, 4) == 2);
// Element 9 of A[5]::[3] over 2 processors: block 3 -> processor 1, block-row 1, slot 0.
static_assert(splitc::element_owner(layout::block_cyclic{5, 3}, {9}, 2) == 1);
static_assert(splitc::element_offset(layout::block_cyclic{5, 3}, {9}, 2) == 3);
// Figure 8: block (5, 7) is on processor (5 mod 4) * 3 + 7 mod 3 = 4.
constexpr layout::blocked_cyclic_2d figure8{8, 9, 4, 3, 1, 1};
static_assert(figure8.valid());
static_assert(splitc::block_owner(figure8.block_number({5, 7}), 12) == 4);
static_assert(!layout::blocked_cyclic_2d{8, 9, 3, 3, 1, 1}.valid());  // 8 rows, r = 3

// ---- helpers --------------------------------------------------------------------

/// Every logical index of a layout, in row-major order.
template <class L>
std::vector<typename L::index_type> all_indices(const L& l) {
  const auto e = l.extents();
  size_t total = 1;
  for (auto x : e) total *= x;
  std::vector<typename L::index_type> out;
  for (size_t k = 0; k < total; ++k) out.push_back(splitc::row_major_coords(k, e));
  return out;
}

/// Each element lands inside its owner's part, and no two land on the same
/// place: the layout fills P parts of ceil(count/P) block-rows exactly.
template <class L>
void expect_one_to_one_and_dense(const L& l, proc_t nprocs) {
  std::set<std::pair<proc_t, size_t>> seen;
  const auto indices = all_indices(l);
  for (const auto& idx : indices) {
    const proc_t p = splitc::element_owner(l, idx, nprocs);
    const size_t off = splitc::element_offset(l, idx, nprocs);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, nprocs);
    EXPECT_LT(off, splitc::blocks_on(l.spread_count(), p, nprocs) * l.block_size());
    EXPECT_TRUE(seen.emplace(p, off).second) << "two elements at processor " << p << " offset "
                                             << off;
  }
  EXPECT_EQ(indices.size(), l.spread_count() * l.block_size());
}

/// block_coords inverts block_number.
template <class L>
void expect_block_coords_invert(const L& l) {
  for (size_t k = 0; k < l.spread_count(); ++k)
    EXPECT_EQ(l.block_number(l.block_coords(k)), k) << "block " << k;
}

class SpreadArrayLayout : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(P1to7, SpreadArrayLayout, ::testing::Range(1, 8));

// ---- the placement rule ------------------------------------------------------------

TEST_P(SpreadArrayLayout, BlocksOnSumsToTheCountAndDiffersByAtMostOne) {
  const proc_t P = GetParam();
  for (size_t count = 0; count < 30; ++count) {
    size_t sum = 0;
    for (proc_t p = 0; p < P; ++p) {
      const size_t mine = splitc::blocks_on(count, p, P);
      EXPECT_LE(mine, (count + P - 1) / P);
      EXPECT_GE(mine + 1, (count + P - 1) / P);
      sum += mine;
    }
    EXPECT_EQ(sum, count);
  }
}

// ---- cyclic: T A[n]:: ---------------------------------------------------------------

TEST_P(SpreadArrayLayout, CyclicElementIIsOnIModPAtRowIDivP) {
  const proc_t P = GetParam();
  for (size_t n : {size_t{0}, size_t{1}, size_t(P), size_t(5 * P + 3)}) {
    const layout::cyclic l{n};
    for (size_t i = 0; i < n; ++i) {
      EXPECT_EQ(splitc::element_owner(l, {i}, P), static_cast<proc_t>(i % P));
      EXPECT_EQ(splitc::element_offset(l, {i}, P), i / P);
    }
    expect_one_to_one_and_dense(l, P);
  }
}

TEST_P(SpreadArrayLayout, CyclicMatchesSpreadPointerArithmetic) {
  const proc_t P = GetParam();
  static long rows[64];
  const splitc::spread_ptr<long> base(0, rows);
  const layout::cyclic l{40};
  for (size_t i = 0; i < l.n; ++i) {
    const auto sp = base.advanced(static_cast<std::ptrdiff_t>(i), P);
    EXPECT_EQ(sp.proc(), splitc::element_owner(l, {i}, P));
    EXPECT_EQ(sp.local(), rows + splitc::element_offset(l, {i}, P));
  }
}

// ---- block-cyclic: T A[m]::[b] ---------------------------------------------------------

TEST_P(SpreadArrayLayout, BlockCyclicBlockJOnJModPAtBlockRowJDivP) {
  const proc_t P = GetParam();
  for (size_t m : {size_t{1}, size_t(P), size_t(P + 1), size_t(3 * P + 2)}) {
    for (size_t b : {1, 2, 5}) {
      const layout::block_cyclic l{m, b};
      ASSERT_EQ(l.extents()[0], m * b);
      for (size_t x = 0; x < m * b; ++x) {
        const size_t j = x / b;
        EXPECT_EQ(splitc::element_owner(l, {x}, P), static_cast<proc_t>(j % P));
        EXPECT_EQ(splitc::element_offset(l, {x}, P), (j / P) * b + x % b);
      }
      expect_one_to_one_and_dense(l, P);
    }
  }
}

TEST_P(SpreadArrayLayout, BlockedGivesEachProcessorOneContiguousRun) {
  const proc_t P = GetParam();
  for (size_t b : {1, 3, 8}) {
    const auto l = layout::blocked(b, P);
    EXPECT_EQ(l.m, static_cast<size_t>(P));
    for (size_t x = 0; x < l.m * b; ++x) {
      EXPECT_EQ(splitc::element_owner(l, {x}, P), static_cast<proc_t>(x / b));
      EXPECT_EQ(splitc::element_offset(l, {x}, P), x % b);
    }
  }
}

TEST(SpreadArrayCyclic, IsBlockCyclicWithBlocksOfOne) {
  const layout::cyclic c{23};
  const layout::block_cyclic bc{23, 1};
  for (size_t i = 0; i < 23; ++i) EXPECT_EQ(c.place({i}), bc.place({i}));
}

// ---- the literal declaration form --------------------------------------------------

TEST_P(SpreadArrayLayout, DeclaredFormsAreOneToOneAndDense) {
  const proc_t P = GetParam();
  expect_one_to_one_and_dense(layout::dims<1>{{11}, {}}, P);
  expect_one_to_one_and_dense(layout::dims<1, 1>{{5}, {3}}, P);
  expect_one_to_one_and_dense(layout::dims<2>{{3, 5}, {}}, P);
  expect_one_to_one_and_dense(layout::dims<2, 2>{{3, 4}, {2, 3}}, P);
  expect_one_to_one_and_dense(layout::dims<3, 1>{{2, 3, 2}, {4}}, P);
  expect_block_coords_invert(layout::dims<3, 1>{{2, 3, 2}, {4}});
}

TEST_P(SpreadArrayLayout, BlockCyclicIsTheDeclarationMColonColonB) {
  const proc_t P = GetParam();
  const layout::block_cyclic named{7, 3};
  const layout::dims<1, 1> declared{{7}, {3}};
  for (size_t x = 0; x < 21; ++x)
    EXPECT_EQ(named.place({x}), declared.place({x / 3, x % 3})) << "x=" << x << " P=" << P;
}

// Figure 7 (n = 7, m = 9, k = 3, 4 processors): X[n]::[m] keeps each row on one
// processor; Y[n][m+k]:: with m+k a multiple of PROCS keeps each column on one.
TEST(SpreadArrayFigure7, RowLayoutAndColumnLayout) {
  constexpr size_t n = 7, m = 9, k = 3;
  constexpr proc_t P = 4;
  const layout::dims<1, 1> X{{n}, {m}};
  const layout::dims<2> Y{{n, m + k}, {}};
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < m; ++j) {
      EXPECT_EQ(splitc::element_owner(X, {i, j}, P), static_cast<proc_t>(i % P));
      EXPECT_EQ(splitc::element_owner(Y, {i, j}, P), static_cast<proc_t>(j % P));
    }
  }
}

// ---- blocked-cyclic in two dimensions: M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2] ----------

// Figure 8: n = 8, m = 9 (blocks), r = 4, c = 3, 12 processors; each entry is
// the processor that owns the block.
// clang-format off
constexpr int figure8_owners[8][9] = {
    {0,  1,  2, 0,  1,  2, 0,  1,  2},
    {3,  4,  5, 3,  4,  5, 3,  4,  5},
    {6,  7,  8, 6,  7,  8, 6,  7,  8},
    {9, 10, 11, 9, 10, 11, 9, 10, 11},
    {0,  1,  2, 0,  1,  2, 0,  1,  2},
    {3,  4,  5, 3,  4,  5, 3,  4,  5},
    {6,  7,  8, 6,  7,  8, 6,  7,  8},
    {9, 10, 11, 9, 10, 11, 9, 10, 11},
};
// clang-format on

TEST(SpreadArrayFigure8, OwnersOfTheBlocks) {
  for (size_t b : {1, 2}) {  // same picture with 1x1 and 2x2 blocks
    const layout::blocked_cyclic_2d l{8 * b, 9 * b, 4, 3, b, b};
    ASSERT_TRUE(l.valid());
    for (size_t bi = 0; bi < 8; ++bi)
      for (size_t bj = 0; bj < 9; ++bj) {
        EXPECT_EQ(splitc::block_owner(l.block_number({bi, bj}), 12), figure8_owners[bi][bj])
            << "block (" << bi << ", " << bj << ")";
        for (size_t u = 0; u < b; ++u)  // every element of the block with it
          for (size_t v = 0; v < b; ++v)
            EXPECT_EQ(splitc::element_owner(l, {bi * b + u, bj * b + v}, 12),
                      figure8_owners[bi][bj]);
      }
  }
}

TEST(SpreadArrayFigure8, EightBlocksOfAColumnOnFourProcessorsNineOfARowOnThree) {
  const layout::blocked_cyclic_2d l{8, 9, 4, 3, 1, 1};
  for (size_t bj = 0; bj < 9; ++bj) {
    std::set<proc_t> column;
    for (size_t bi = 0; bi < 8; ++bi)
      column.insert(splitc::block_owner(l.block_number({bi, bj}), 12));
    EXPECT_EQ(column.size(), 4u) << "column " << bj;
  }
  for (size_t bi = 0; bi < 8; ++bi) {
    std::set<proc_t> row;
    for (size_t bj = 0; bj < 9; ++bj) row.insert(splitc::block_owner(l.block_number({bi, bj}), 12));
    EXPECT_EQ(row.size(), 3u) << "row " << bi;
  }
}

/// The named 2-D layout places every element exactly where the literal
/// declaration M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2] does.
void expect_same_as_declaration(const layout::blocked_cyclic_2d& l, proc_t P) {
  const layout::dims<4, 2> declared{l.spread_extents(), {l.b1, l.b2}};
  for (size_t x = 0; x < l.n; ++x)
    for (size_t y = 0; y < l.m; ++y) {
      const size_t bi = x / l.b1, bj = y / l.b2;
      const std::array<size_t, 6> raw{bi / l.r, bj / l.c, bi % l.r, bj % l.c, x % l.b1, y % l.b2};
      EXPECT_EQ(l.place({x, y}), declared.place(raw)) << "(" << x << ", " << y << ")";
      EXPECT_EQ(splitc::element_offset(l, {x, y}, P), splitc::element_offset(declared, raw, P));
    }
}

TEST_P(SpreadArrayLayout, Blocked2dAgreesWithTheDeclarationAndIsDense) {
  const proc_t P = GetParam();
  using L2 = layout::blocked_cyclic_2d;
  for (auto l : {L2{8, 9, 4, 3, 1, 1}, L2{12, 12, 2, 3, 3, 2}, L2{6, 10, 1, 5, 2, 1},
                 L2{4, 4, 1, 1, 4, 4}}) {
    ASSERT_TRUE(l.valid());
    expect_same_as_declaration(l, P);
    expect_one_to_one_and_dense(l, P);
    expect_block_coords_invert(l);
  }
}

// With an r x c grid of exactly P processors, block (bi, bj) is on grid
// position (bi mod r, bj mod c).
TEST_P(SpreadArrayLayout, Blocked2dWithRTimesCEqualToPIsAProcessorGrid) {
  const proc_t P = GetParam();
  for (size_t r = 1; r <= static_cast<size_t>(P); ++r) {
    if (P % r != 0) continue;
    const size_t c = P / r;
    const layout::blocked_cyclic_2d l{3 * r * 2, 2 * c * 3, r, c, 2, 3};
    for (size_t bi = 0; bi < 3 * r; ++bi)
      for (size_t bj = 0; bj < 2 * c; ++bj)
        EXPECT_EQ(splitc::block_owner(l.block_number({bi, bj}), P),
                  static_cast<proc_t>((bi % r) * c + bj % c));
  }
}

// ---- for_my ranges ------------------------------------------------------------------

TEST_P(SpreadArrayLayout, My1dIsTheCyclicOwnersInIncreasingOrderAndPartitions) {
  const proc_t P = GetParam();
  for (size_t n : {size_t{0}, size_t{1}, size_t(P - 1), size_t(P), size_t(4 * P + 3)}) {
    std::vector<size_t> all;
    for (proc_t me = 0; me < P; ++me) {
      std::vector<size_t> mine;
      for (size_t i : splitc::my_indices_1d(n, me, P)) mine.push_back(i);
      std::vector<size_t> expected;
      for (size_t i = 0; i < n; ++i)
        if (splitc::element_owner(layout::cyclic{n}, {i}, P) == me) expected.push_back(i);
      EXPECT_EQ(mine, expected) << "n=" << n << " me=" << me;
      EXPECT_EQ(mine.size(), splitc::blocks_on(n, me, P));
      all.insert(all.end(), mine.begin(), mine.end());
    }
    std::sort(all.begin(), all.end());
    std::vector<size_t> every(n);
    for (size_t i = 0; i < n; ++i) every[i] = i;
    EXPECT_EQ(all, every) << "n=" << n;
  }
}

TEST_P(SpreadArrayLayout, My1dInRunsIsTheBlockCyclicOwners) {
  const proc_t P = GetParam();
  for (size_t m : {size_t{1}, size_t(P), size_t(2 * P + 1)}) {
    for (size_t b : {1, 3}) {
      const layout::block_cyclic l{m, b};
      size_t total = 0;
      for (proc_t me = 0; me < P; ++me) {
        std::vector<size_t> mine;
        for (size_t x : splitc::my_1d_range(m * b, me, P, b)) mine.push_back(x);
        std::vector<size_t> expected;
        for (size_t x = 0; x < m * b; ++x)
          if (splitc::element_owner(l, {x}, P) == me) expected.push_back(x);
        EXPECT_EQ(mine, expected) << "m=" << m << " b=" << b << " me=" << me;
        total += mine.size();
      }
      EXPECT_EQ(total, m * b);
    }
  }
}

TEST_P(SpreadArrayLayout, My2dIsTheRowMajorCyclicOwnersAndPartitions) {
  const proc_t P = GetParam();
  for (size_t n : {0, 1, 3, 5}) {
    for (size_t m : {0, 1, 2, 5, 9}) {
      std::set<std::array<size_t, 2>> all;
      for (proc_t me = 0; me < P; ++me) {
        std::vector<std::array<size_t, 2>> mine;
        for (auto [i, j] : splitc::my_indices_2d(n, m, me, P)) mine.push_back({i, j});
        std::vector<std::array<size_t, 2>> expected;
        for (size_t i = 0; i < n; ++i)
          for (size_t j = 0; j < m; ++j)
            if (splitc::element_owner(layout::dims<2>{{n, m}, {}}, {i, j}, P) == me)
              expected.push_back({i, j});
        EXPECT_EQ(mine, expected) << "n=" << n << " m=" << m << " me=" << me;
        all.insert(mine.begin(), mine.end());
      }
      EXPECT_EQ(all.size(), n * m);
    }
  }
}

// What spread_array::my_blocks walks: block numbers me, me+P, ... mapped to
// block coordinates; each is owned by me and together they cover the grid.
TEST_P(SpreadArrayLayout, MyBlocksOfThe2dLayoutPartitionTheBlockGrid) {
  const proc_t P = GetParam();
  const layout::blocked_cyclic_2d l{12, 12, 2, 3, 3, 2};
  std::set<std::array<size_t, 2>> all;
  for (proc_t me = 0; me < P; ++me)
    for (size_t k : splitc::my_indices_1d(l.spread_count(), me, P)) {
      const auto bij = l.block_coords(k);
      EXPECT_EQ(splitc::block_owner(l.block_number(bij), P), me);
      EXPECT_TRUE(all.insert(bij).second);
    }
  EXPECT_EQ(all.size(), l.spread_count());
}

}  // namespace
