// port/backoff.hpp's rule for yields among busy programs: a yield that kept the process off the
// CPU for longer than slow_yield_ns makes waits sleep instead of yielding for
// slow_yield_window_ns. Most tests give the times; the two that yield or sleep for real check
// only what holds whatever the machine's load.
#include <splitc/port/backoff.hpp>

#include <gtest/gtest.h>

namespace {

namespace port = splitc::port;

/// Each test starts and ends with no window open (the variable is the process's).
class YieldRule : public ::testing::Test {
 protected:
  void SetUp() override { port::yields_slow_until_ns.store(0); }
  void TearDown() override { port::yields_slow_until_ns.store(0); }
};

constexpr std::uint64_t t0 = 1'000'000'000'000;  // an arbitrary monotonic time

TEST_F(YieldRule, YieldingPaysWhenNoYieldWasSlow) {
  EXPECT_TRUE(port::yielding_pays(t0));
  EXPECT_TRUE(port::yielding_pays(0));
}

TEST_F(YieldRule, AQuickYieldLeavesYieldingOn) {
  port::note_yield(t0, t0 + 3'000);  // 3 us: the job's own waiters took their turns
  port::note_yield(t0, t0 + port::slow_yield_ns);  // at the limit: not slow
  EXPECT_TRUE(port::yielding_pays(t0 + port::slow_yield_ns + 1));
}

TEST_F(YieldRule, ASlowYieldMakesWaitsSleepForTheWindowThenYieldAgain) {
  const std::uint64_t back = t0 + port::slow_yield_ns + 1;
  port::note_yield(t0, back);
  EXPECT_FALSE(port::yielding_pays(back));
  EXPECT_FALSE(port::yielding_pays(back + port::slow_yield_window_ns - 1));
  EXPECT_TRUE(port::yielding_pays(back + port::slow_yield_window_ns));
}

TEST_F(YieldRule, ALaterSlowYieldExtendsTheWindow) {
  port::note_yield(t0, t0 + 2 * port::slow_yield_ns);
  const std::uint64_t later = t0 + 2 * port::slow_yield_ns + port::slow_yield_window_ns / 2;
  port::note_yield(later - 2 * port::slow_yield_ns, later);
  EXPECT_FALSE(port::yielding_pays(later + port::slow_yield_window_ns - 1));
  EXPECT_TRUE(port::yielding_pays(later + port::slow_yield_window_ns));
}

TEST_F(YieldRule, YieldCpuReturnsAndTimesItsYield) {
  // A yield on an idle core returns at once; whether it was slow depends on the machine's load,
  // so only its effect on the window is checked to be consistent with the rule.
  const std::uint64_t before = port::monotonic_ns();
  port::yield_cpu();
  const std::uint64_t after = port::monotonic_ns();
  const std::uint64_t until = port::yields_slow_until_ns.load();
  if (after - before <= port::slow_yield_ns) {
    EXPECT_EQ(until, 0u);
  } else {
    EXPECT_GE(until, before + port::slow_yield_window_ns);
    EXPECT_LE(until, after + port::slow_yield_window_ns);
  }
}

TEST_F(YieldRule, YieldIfItPaysDeclinesWithinTheWindowAndYieldsAfterIt) {
  port::yields_slow_until_ns.store(port::monotonic_ns() + 3'600'000'000'000ull);  // an hour
  EXPECT_FALSE(port::yield_if_it_pays());
  port::yields_slow_until_ns.store(port::monotonic_ns() - 1);  // a window that has ended
  EXPECT_TRUE(port::yield_if_it_pays());
}

/// Pauses that take a backoff through flat-out polling and spinning (4,000 rounds at most, or
/// fewer if 100 us pass) to a round after them, where it yields or sleeps. (Whether it yields
/// there depends on the machine: under load the spinning may end early and the yields run out,
/// or a yield may be slow, so only the window's effect is tested.)
void pause_past_spinning(port::backoff& b) {
  for (int i = 0; i < 4001; ++i) b.pause();
}

TEST_F(YieldRule, ABackoffWithinTheWindowSleepsInsteadOfYielding) {
  port::yields_slow_until_ns.store(port::monotonic_ns() + 3'600'000'000'000ull);  // an hour
  port::backoff b;
  pause_past_spinning(b);
  EXPECT_TRUE(b.has_slept());
  b.reset();
  EXPECT_FALSE(b.has_slept());
}

}  // namespace
