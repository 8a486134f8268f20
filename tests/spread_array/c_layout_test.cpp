// The C interface's spread-array layouts (splitc.h: splitc_place_*) place
// every element where the C++ layouts (splitc/spread_array.hpp) do, and the
// 2-D block numbering and its inverse agree with the C++ one. No running job.
#include <splitc.h>
#include <splitc/spread_array.hpp>

#include <gtest/gtest.h>

#include <cstddef>

namespace {

namespace layout = splitc::layout;

TEST(CLayout, CyclicIsOneElementPerBlock) {
  const layout::cyclic l{23};
  for (std::size_t i = 0; i < l.n; ++i) {
    const splitc_placement_t c = splitc_place_cyclic(i);
    EXPECT_EQ(c.block, l.place({i}).block);
    EXPECT_EQ(c.within, l.place({i}).within);
  }
}

TEST(CLayout, BlockCyclicMatchesCxx) {
  for (std::size_t b : {1u, 2u, 3u, 8u}) {
    const layout::block_cyclic l{7, b};
    for (std::size_t x = 0; x < l.m * l.b; ++x) {
      const splitc_placement_t c = splitc_place_block_cyclic(x, b);
      EXPECT_EQ(c.block, l.place({x}).block) << "b=" << b << " x=" << x;
      EXPECT_EQ(c.within, l.place({x}).within) << "b=" << b << " x=" << x;
    }
  }
}

TEST(CLayout, BlockedCyclic2dMatchesCxx) {
  // Figure 8 (n x m = 8*b1 x 9*b2 blocks, r = 4, c = 3) and smaller shapes.
  const layout::blocked_cyclic_2d shapes[] = {
      {8 * 2, 9 * 3, 4, 3, 2, 3}, {8, 9, 4, 3, 1, 1}, {6, 4, 2, 2, 3, 1}, {4, 4, 1, 1, 2, 2}};
  for (const auto& l : shapes) {
    ASSERT_TRUE(l.valid());
    const splitc_layout_2d_t cl{l.n, l.m, l.r, l.c, l.b1, l.b2};
    EXPECT_EQ(splitc_layout_2d_blocks(&cl), l.spread_count());
    for (std::size_t x = 0; x < l.n; ++x)
      for (std::size_t y = 0; y < l.m; ++y) {
        const splitc_placement_t c = splitc_place_blocked_cyclic_2d(&cl, x, y);
        const splitc::placement cxx = l.place({x, y});
        EXPECT_EQ(c.block, cxx.block) << "x=" << x << " y=" << y;
        EXPECT_EQ(c.within, cxx.within) << "x=" << x << " y=" << y;
        for (splitc::proc_t p : {1, 4, 5, 12})
          EXPECT_EQ(static_cast<splitc::proc_t>(c.block % static_cast<std::size_t>(p)),
                    splitc::element_owner(l, {x, y}, p));
      }
    for (std::size_t k = 0; k < l.spread_count(); ++k) {
      std::size_t bi = 0, bj = 0;
      splitc_layout_2d_block_coords(&cl, k, &bi, &bj);
      const auto cxx = l.block_coords(k);
      EXPECT_EQ(bi, cxx[0]);
      EXPECT_EQ(bj, cxx[1]);
      EXPECT_EQ(splitc_layout_2d_block_number(&cl, bi, bj), k);
    }
  }
}

}  // namespace
