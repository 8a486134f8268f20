// splitc::counter: an opaque, non-copyable 8-byte completion counter; shared updates are atomic.
#include <splitc/counter.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using splitc::counter;

static_assert(sizeof(counter) == 8);
static_assert(alignof(counter) == 8);
static_assert(!std::is_copy_constructible_v<counter>);
static_assert(!std::is_copy_assignable_v<counter>);
static_assert(!std::is_move_constructible_v<counter>);
static_assert(std::is_nothrow_default_constructible_v<counter>);
// Counters may live in static storage (same address on every processor): constant-initialized.
constinit counter g_static_counter;

TEST(Counter, StartsAtZero) {
  counter c;
  EXPECT_EQ(c.value(), 0);
  EXPECT_EQ(g_static_counter.value(), 0);
}

TEST(Counter, LocalAndSharedUpdatesAdd) {
  counter c;
  c.add_local(3);
  EXPECT_EQ(c.value(), 3);
  c.add_shared(10);
  EXPECT_EQ(c.value(), 13);
  c.add_local(-13);
  EXPECT_EQ(c.value(), 0);
  c.add_shared(-5);  // store counters may go below zero transiently
  EXPECT_EQ(c.value(), -5);
  c.add_shared(5);
  EXPECT_EQ(c.value(), 0);
}

TEST(Counter, SixtyFourBitRange) {
  counter c;
  const std::int64_t big = std::int64_t{1} << 40;  // byte counts of huge stores
  c.add_shared(big);
  c.add_shared(big);
  EXPECT_EQ(c.value(), 2 * big);
}

TEST(Counter, ConcurrentSharedUpdatesAreNotLost) {
  counter c;
  constexpr int threads = 4;
  constexpr int per_thread = 200000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&c, t] {
      for (int i = 0; i < per_thread; ++i) c.add_shared(t + 1);
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(c.value(), std::int64_t{per_thread} * (1 + 2 + 3 + 4));
}

TEST(Counter, ValueSeesAnotherThreadsUpdate) {
  counter c;
  int payload = 0;
  std::thread writer([&] {
    payload = 42;
    c.add_shared(1);  // release: the payload is visible once the count is
  });
  while (c.value() == 0) std::this_thread::yield();
  EXPECT_EQ(payload, 42);
  writer.join();
}

}  // namespace
