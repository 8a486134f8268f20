// SPLITC_NO_SEED_MACROS leaves for_my_1d/for_my_2d undefined (so a program may
// use those names itself) while the ranges stay available.
#define SPLITC_NO_SEED_MACROS
#include <splitc/spread_array.hpp>

#include <gtest/gtest.h>

#ifdef for_my_1d
#error "for_my_1d defined despite SPLITC_NO_SEED_MACROS"
#endif
#ifdef for_my_2d
#error "for_my_2d defined despite SPLITC_NO_SEED_MACROS"
#endif

namespace {

int for_my_1d(int x) { return x + 1; }  // the name is free

TEST(SpreadArrayNoSeedMacros, NamesAreFreeAndRangesRemain) {
  EXPECT_EQ(for_my_1d(1), 2);
  std::size_t count = 0;
  for (std::size_t i : splitc::my_indices_1d(10, 1, 3)) count += i;
  EXPECT_EQ(count, 1u + 4u + 7u);
}

}  // namespace
