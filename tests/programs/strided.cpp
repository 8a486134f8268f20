// Strided transfers (splitc/strided.hpp): 1-, 2- and 3-dimensional regions put, got and
// stored between neighbours -- sub-blocks, a transposing get, negative strides walking a
// region backwards, a zero stride replicating the element read, an interleaved but disjoint
// destination, rows of 1 KiB, thousands of 8-byte elements (several messages on the
// backends that send them), regions with a zero count or no dimensions, many in flight on
// one counter -- each checked element by element, and the bytes around each region
// checked untouched.
#include "harness.hpp"

#include <splitc/strided.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace {

constexpr int rows = 64, cols = 160;  // a grid of int32, and 64 rows of 1 KiB
constexpr int row_bytes = 1024, many = 3000;
constexpr std::int32_t untouched = -7;

struct board {
  std::int32_t grid[rows][cols];
  unsigned char bytes[rows][2 * row_bytes];
  std::int64_t words[2 * many];
  std::int32_t cube[4][5][6];
  unsigned char odd[8];
};

std::int32_t value(int from, int round, int i) { return from * 100003 + round * 1009 + i; }

std::span<const std::ptrdiff_t> s(const std::vector<std::ptrdiff_t>& v) { return v; }
splitc::strided_shape shape(std::size_t elem, const std::vector<std::size_t>& counts) {
  return {elem, counts};
}

void reset(board& b) {
  std::fill(&b.grid[0][0], &b.grid[0][0] + rows * cols, untouched);
  std::memset(b.bytes, 0xEE, sizeof b.bytes);
  std::fill(std::begin(b.words), std::end(b.words), -1);
  std::fill(&b.cube[0][0][0], &b.cube[0][0][0] + 4 * 5 * 6, untouched);
  std::memset(b.odd, 0, sizeof b.odd);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  auto boards = splitc::all_spread_malloc<board>(static_cast<std::size_t>(P));
  board* mine = boards.local();  // the same address on every processor
  reset(*mine);
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  auto at = [](int q, void* field) { return splitc::global_ptr<void>(q, field); };
  splitc::barrier();

  // 1. A 2-D sub-block (13 rows of 21 columns at row 5, column 7) put from a contiguous
  //    source into the right neighbour's grid; every other element untouched.
  {
    std::vector<std::int32_t> src(13 * 21);
    for (int i = 0; i < 13 * 21; ++i) src[static_cast<std::size_t>(i)] = value(me, 1, i);
    splitc::bulk_put_strided(at(right, &mine->grid[5][7]), s({4, cols * 4}), src.data(),
                             s({4, 21 * 4}), shape(4, {21, 13}));
    splitc::sync();
    splitc::barrier();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const bool in = r >= 5 && r < 18 && c >= 7 && c < 28;
        const std::int32_t want = in ? value(left, 1, (r - 5) * 21 + (c - 7)) : untouched;
        CHECK_MSG(mine->grid[r][c] == want, "1: grid[{}][{}] = {}, want {}", r, c, mine->grid[r][c], want);
      }
    splitc::barrier();
  }

  // 2. A transposing get: the left neighbour's 13x21 block read column by column into a
  //    local 21x13 array (the source's strides swapped).
  {
    std::vector<std::int32_t> t(21 * 13, untouched);
    splitc::bulk_get_strided(t.data(), s({4, 13 * 4}), at(left, &mine->grid[5][7]),
                             s({cols * 4, 4}), shape(4, {13, 21}));
    splitc::sync();
    // The left neighbour's block holds what its own left neighbour put there.
    const int origin = (left + P - 1) % P;
    for (int c = 0; c < 21; ++c)
      for (int r = 0; r < 13; ++r)
        CHECK_MSG(t[static_cast<std::size_t>(c * 13 + r)] == value(origin, 1, r * 21 + c),
                  "2: t[{}][{}] = {}", c, r, t[static_cast<std::size_t>(c * 13 + r)]);
    splitc::barrier();
  }

  // 3. A 3-D put walking the source backwards in every dimension (negative strides from its
  //    last element), into a 2x3x4 corner of the right neighbour's cube, split-phase.
  {
    std::array<std::int32_t, 24> src{};
    for (int i = 0; i < 24; ++i) src[static_cast<std::size_t>(i)] = value(me, 3, i);
    splitc::counter ctr;
    splitc::bulk_put_strided(at(right, &mine->cube[1][1][1]), s({4, 6 * 4, 5 * 6 * 4}),
                             &src[23], s({-4, -4 * 4, -12 * 4}), shape(4, {4, 3, 2}), ctr);
    splitc::sync(ctr);
    splitc::barrier();
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 6; ++k) {
          const bool in = i >= 1 && i < 3 && j >= 1 && j < 4 && k >= 1 && k < 5;
          const int n = in ? (i - 1) * 12 + (j - 1) * 4 + (k - 1) : 0;
          const std::int32_t want = in ? value(left, 3, 23 - n) : untouched;
          CHECK_MSG(mine->cube[i][j][k] == want, "3: cube[{}][{}][{}] = {}, want {}", i, j, k,
                    mine->cube[i][j][k], want);
        }
    splitc::barrier();
  }

  // 4. A zero stride on the side read: one value replicated down column 3 of the right
  //    neighbour's grid (a destination column: stride of a row).
  {
    const std::int32_t one = value(me, 4, 0);
    splitc::bulk_put_strided(at(right, &mine->grid[0][3]), s({cols * 4}), &one, s({0}),
                             shape(4, {rows}));
    splitc::sync();
    splitc::barrier();
    for (int r = 0; r < rows; ++r)
      CHECK_MSG(mine->grid[r][3] == value(left, 4, 0), "4: grid[{}][3] = {}", r, mine->grid[r][3]);
    splitc::barrier();
  }

  // 5. An interleaved destination that is still disjoint (byte offsets 0 2 4 3 5 7), and the
  //    degenerate regions: a zero count moves nothing, no dimensions moves one element.
  {
    const unsigned char src[6] = {11, 12, 13, 14, 15, 16};
    splitc::bulk_put_strided(at(right, mine->odd), s({2, 3}), src, s({1, 3}), shape(1, {3, 2}));
    const std::int32_t nothing = 99;
    splitc::bulk_put_strided(at(right, &mine->grid[1][1]), s({4, cols * 4}), &nothing,
                             s({4, 4}), shape(4, {5, 0}));
    const std::int32_t single = value(me, 5, 0);
    splitc::bulk_put_strided(at(right, &mine->grid[2][2]), {}, &single, {}, shape(4, {}));
    splitc::sync();
    splitc::barrier();
    const unsigned char want[8] = {11, 0, 12, 14, 13, 15, 0, 16};
    for (int i = 0; i < 8; ++i) CHECK_MSG(mine->odd[i] == want[i], "5: odd[{}] = {}", i, mine->odd[i]);
    CHECK(mine->grid[1][1] == untouched);
    CHECK_MSG(mine->grid[2][2] == value(left, 5, 0), "5: grid[2][2] = {}", mine->grid[2][2]);
    splitc::barrier();
  }

  // 6. 64 rows of 1 KiB into every other KiB of the right neighbour's bytes, then got back
  //    from the left neighbour into a contiguous buffer.
  {
    std::vector<unsigned char> src(rows * row_bytes);
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(me * 31 + i * 7);
    splitc::bulk_put_strided(at(right, mine->bytes), s({1, 2 * row_bytes}), src.data(),
                             s({1, row_bytes}), shape(1, {row_bytes, rows}));
    splitc::sync();
    splitc::barrier();
    for (int r = 0; r < rows; ++r)
      for (int i = 0; i < 2 * row_bytes; ++i) {
        const unsigned char want = i < row_bytes
                                       ? static_cast<unsigned char>(left * 31 + (r * row_bytes + i) * 7)
                                       : 0xEE;
        CHECK_MSG(mine->bytes[r][i] == want, "6: bytes[{}][{}] = {}", r, i, mine->bytes[r][i]);
      }
    std::vector<unsigned char> back(rows * row_bytes);
    splitc::bulk_get_strided(back.data(), s({1, row_bytes}), at(left, mine->bytes),
                             s({1, 2 * row_bytes}), shape(1, {row_bytes, rows}));
    splitc::sync();
    const int origin = (left + P - 1) % P;
    for (std::size_t i = 0; i < back.size(); ++i)
      CHECK_MSG(back[i] == static_cast<unsigned char>(origin * 31 + i * 7), "6: back[{}]", i);
    splitc::barrier();
  }

  // 7. Thousands of 8-byte elements at every other word, put then stored (store_sync counts
  //    their bytes), then got with a stride of three words from the source side.
  {
    std::vector<std::int64_t> src(many);
    for (int i = 0; i < many; ++i) src[static_cast<std::size_t>(i)] = value(me, 7, i);
    splitc::bulk_put_strided(at(right, mine->words), s({16}), src.data(), s({8}), shape(8, {many}));
    splitc::sync();
    splitc::barrier();
    for (int i = 0; i < 2 * many; ++i) {
      const std::int64_t want = i % 2 == 0 ? value(left, 7, i / 2) : -1;
      CHECK_MSG(mine->words[i] == want, "7: words[{}] = {}", i, mine->words[i]);
    }
    splitc::barrier();
    for (int i = 0; i < many; ++i) src[static_cast<std::size_t>(i)] = value(me, 8, i);
    splitc::bulk_store_strided(at(right, &mine->words[1]), s({16}), src.data(), s({8}),
                               shape(8, {many}));
    splitc::store_sync(static_cast<std::int64_t>(many) * 8);
    for (int i = 0; i < 2 * many; ++i) {
      const std::int64_t want = value(left, i % 2 == 0 ? 7 : 8, i / 2);
      CHECK_MSG(mine->words[i] == want, "7: stored words[{}] = {}", i, mine->words[i]);
    }
    splitc::barrier();
    std::vector<std::int64_t> got(many / 3 * 2, 0);
    splitc::counter ctr;
    splitc::bulk_get_strided(got.data(), s({8}), at(left, mine->words), s({24}),
                             shape(8, {got.size()}), ctr);
    splitc::sync(ctr);
    const int origin = (left + P - 1) % P;
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::size_t w = 3 * k;
      CHECK_MSG(got[k] == value(origin, w % 2 == 0 ? 7 : 8, static_cast<int>(w / 2)), "7: got[{}]", k);
    }
    splitc::barrier();
  }

  // 8. Many regions in flight on one counter: each row of the right neighbour's grid, one
  //    column-strided put per column, all synced at once.
  {
    std::vector<std::int32_t> src(rows * cols);
    for (int i = 0; i < rows * cols; ++i) src[static_cast<std::size_t>(i)] = value(me, 9, i);
    splitc::counter ctr;
    for (int c = 0; c < cols; ++c)
      splitc::bulk_put_strided(at(right, &mine->grid[0][c]), s({cols * 4}), &src[static_cast<std::size_t>(c)],
                               s({cols * 4}), shape(4, {rows}), ctr);
    splitc::sync(ctr);
    splitc::barrier();
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        CHECK_MSG(mine->grid[r][c] == value(left, 9, r * cols + c), "8: grid[{}][{}]", r, c);
    splitc::barrier();
  }
  return harness::pass("strided");
}
