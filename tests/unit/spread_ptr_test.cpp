// spread_ptr arithmetic over P processors (seed 003 §3.2, §7.2): wrap, negative steps, distance.
#include <splitc/spread_ptr.hpp>

#include <gtest/gtest.h>

#include <compare>
#include <cstddef>
#include <type_traits>

namespace {

using splitc::spread_ptr;

long g_rows[64];
constexpr spread_ptr<long> g_start(0, &g_rows[20]);
// advanced/distance_from need no running job and are constexpr.
static_assert(g_start.advanced(5, 4).proc() == 1);
static_assert(g_start.advanced(5, 4).local() == &g_rows[21]);
static_assert(g_start.advanced(-1, 4).proc() == 3);
static_assert(g_start.advanced(-1, 4).local() == &g_rows[19]);
static_assert(g_start.advanced(17, 4).distance_from(g_start, 4) == 17);

class SpreadArithmetic : public ::testing::TestWithParam<int> {
 protected:
  // Rows 0..63 of a cyclic layout; start in the middle so negative steps stay inside.
  int rows[64] = {};
  int* origin = &rows[32];
};

TEST_P(SpreadArithmetic, ElementIIsOnProcessorIModPAtRowIDivP) {
  const int procs = GetParam();
  const spread_ptr<int> base(0, origin);
  for (std::ptrdiff_t i = 0; i < 8 * procs; ++i) {
    const auto p = base.advanced(i, procs);
    EXPECT_EQ(p.proc(), static_cast<int>(i % procs)) << "i=" << i;
    EXPECT_EQ(p.local(), origin + i / procs) << "i=" << i;
  }
}

TEST_P(SpreadArithmetic, StepByOneWrapsAndAdvancesTheAddressOnce) {
  const int procs = GetParam();
  spread_ptr<int> p(0, origin);
  for (int row = 0; row < 5; ++row) {
    for (int q = 0; q < procs; ++q) {
      EXPECT_EQ(p.proc(), q);
      EXPECT_EQ(p.local(), origin + row);
      p = p.advanced(1, procs);
    }
  }
  EXPECT_EQ(p.proc(), 0);
  EXPECT_EQ(p.local(), origin + 5);
}

TEST_P(SpreadArithmetic, NegativeStepsWrapBackwards) {
  const int procs = GetParam();
  spread_ptr<int> p(0, origin);
  // One step back from processor 0 is the last processor of the previous row.
  const auto back = p.advanced(-1, procs);
  EXPECT_EQ(back.proc(), procs - 1);
  EXPECT_EQ(back.local(), origin - 1);
  for (std::ptrdiff_t n = 1; n <= 4 * procs; ++n) {
    const auto q = p.advanced(-n, procs);
    // Floor division: -n = rows*procs + col with 0 <= col < procs.
    const std::ptrdiff_t col = ((-n % procs) + procs) % procs;
    const std::ptrdiff_t row = (-n - col) / procs;
    EXPECT_EQ(q.proc(), col) << "n=" << n;
    EXPECT_EQ(q.local(), origin + row) << "n=" << n;
    // And back again.
    EXPECT_EQ(q.advanced(n, procs), p) << "n=" << n;
  }
}

TEST_P(SpreadArithmetic, FromANonZeroProcessor) {
  const int procs = GetParam();
  for (int start = 0; start < procs; ++start) {
    const spread_ptr<int> s(start, origin);
    for (std::ptrdiff_t n = -3 * procs; n <= 3 * procs; ++n) {
      const auto p = s.advanced(n, procs);
      const std::ptrdiff_t linear = start + n;  // linear index relative to origin row 0
      const std::ptrdiff_t col = ((linear % procs) + procs) % procs;
      EXPECT_EQ(p.proc(), col) << "start=" << start << " n=" << n;
      EXPECT_EQ(p.local(), origin + (linear - col) / procs) << "start=" << start << " n=" << n;
    }
  }
}

TEST_P(SpreadArithmetic, DistanceIsTheInverseOfAdvance) {
  const int procs = GetParam();
  for (int start = 0; start < procs; ++start) {
    const spread_ptr<int> s(start, origin);
    for (std::ptrdiff_t n = -3 * procs - 1; n <= 3 * procs + 1; ++n) {
      const auto p = s.advanced(n, procs);
      EXPECT_EQ(p.distance_from(s, procs), n) << "start=" << start << " n=" << n;
      EXPECT_EQ(s.distance_from(p, procs), -n) << "start=" << start << " n=" << n;
    }
  }
}

TEST_P(SpreadArithmetic, AdvanceComposes) {
  const int procs = GetParam();
  const spread_ptr<int> s(procs - 1, origin);
  for (std::ptrdiff_t a = -7; a <= 7; ++a)
    for (std::ptrdiff_t b = -7; b <= 7; ++b)
      EXPECT_EQ(s.advanced(a, procs).advanced(b, procs), s.advanced(a + b, procs))
          << "a=" << a << " b=" << b;
}

TEST_P(SpreadArithmetic, OrderFollowsTheLinearIndex) {
  const int procs = GetParam();
  const spread_ptr<int> s(0, origin);
  for (std::ptrdiff_t i = -2 * procs; i < 2 * procs; ++i) {
    const auto a = s.advanced(i, procs);
    const auto b = s.advanced(i + 1, procs);
    EXPECT_LT(a, b) << "i=" << i;
    EXPECT_GT(b, a) << "i=" << i;
    EXPECT_NE(a, b);
    EXPECT_EQ(a <=> a, std::strong_ordering::equal);
  }
}

INSTANTIATE_TEST_SUITE_P(Procs, SpreadArithmetic, ::testing::Values(1, 2, 3, 4, 7, 16));

TEST(SpreadPtr, OneProcessorIsPlainPointerArithmetic) {
  double a[10];
  const spread_ptr<double> s(0, &a[3]);
  for (int n = -3; n < 7; ++n) {
    EXPECT_EQ(s.advanced(n, 1).proc(), 0);
    EXPECT_EQ(s.advanced(n, 1).local(), &a[3 + n]);
  }
}

TEST(SpreadPtr, LargeSteps) {
  static char big[4096];
  const spread_ptr<char> s(2, &big[100]);
  const auto p = s.advanced(1000003, 1024);  // linear 1000005 = 976*1024 + 581
  EXPECT_EQ(p.proc(), 581);
  EXPECT_EQ(p.local(), &big[100 + 976]);
  EXPECT_EQ(p.distance_from(s, 1024), 1000003);
  const auto q = p.advanced(-1000003, 1024);
  EXPECT_EQ(q, s);
}

TEST(SpreadPtr, NullAndConstruction) {
  spread_ptr<int> p;
  EXPECT_EQ(p.proc(), 0);
  EXPECT_EQ(p.local(), nullptr);
  EXPECT_FALSE(p);
  spread_ptr<int> q = nullptr;
  EXPECT_FALSE(q);
  EXPECT_EQ(p, q);
  int x;
  spread_ptr<int> r(3, &x);
  EXPECT_TRUE(r);
  EXPECT_EQ(splitc::toproc(r), 3);
  EXPECT_EQ(splitc::tolocal(r), &x);
}

TEST(SpreadPtr, ConvertsToAndFromGlobalPointers) {
  int x;
  const auto g = splitc::toglobal(5, &x);
  const spread_ptr<int> s(g);  // explicit
  static_assert(!std::is_convertible_v<splitc::global_ptr<int>, spread_ptr<int>>);
  static_assert(std::is_convertible_v<spread_ptr<int>, splitc::global_ptr<int>>);
  EXPECT_EQ(s.proc(), 5);
  EXPECT_EQ(s.local(), &x);
  const splitc::global_ptr<int> back = s;
  EXPECT_EQ(back, g);
  const auto t = splitc::tospread(g);
  static_assert(std::is_same_v<decltype(t), const spread_ptr<int>>);
  EXPECT_EQ(t, s);
}

TEST(SpreadPtr, EqualityNeedsProcessorAndAddress) {
  int a[2];
  EXPECT_EQ(spread_ptr<int>(1, &a[0]), spread_ptr<int>(1, &a[0]));
  EXPECT_NE(spread_ptr<int>(1, &a[0]), spread_ptr<int>(0, &a[0]));
  EXPECT_NE(spread_ptr<int>(1, &a[0]), spread_ptr<int>(1, &a[1]));
}

}  // namespace
