// A job of one: every single-value operation, every element type, on every kind of local memory.
#include "value_types.hpp"

#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

namespace {

using testvals::make_value;
using testvals::s24;
using testvals::s64;
using testvals::same;

static_assert(splitc::transferable<char> && splitc::transferable<s24> &&
              splitc::transferable<s64> && splitc::transferable<long long>);
static_assert(!splitc::transferable<void>);
static_assert(!splitc::transferable<std::unique_ptr<int>>);

constexpr int kCount = 24;

template <class T>
T g_static_area[kCount];

splitc::counter g_received;  // explicit store counters: static, as the receiver needs them
splitc::counter g_sent;

template <class T>
class LocalOps : public ::testing::Test {
 protected:
  /// Every operation on `area` (kCount elements of T on this processor); `salt` keeps values
  /// of different operations apart.
  static void exercise(T* area) {
    const splitc::proc_t me = splitc::myproc();
    ASSERT_EQ(me, 0);
    auto gp = [&](int i) { return splitc::toglobal(me, area + i); };
    auto value = [](int op, int i) { return make_value<T>(std::uint64_t(op) * 1000 + i); };
    auto expect_area = [&](int op) {
      for (int i = 0; i < kCount; ++i)
        ASSERT_TRUE(same(area[i], value(op, i))) << testvals::type_name<T>() << " op " << op
                                                 << " element " << i;
    };

    // write, then read it back both directly and through read().
    for (int i = 0; i < kCount; ++i) splitc::write(gp(i), value(1, i));
    expect_area(1);
    for (int i = 0; i < kCount; ++i) ASSERT_TRUE(same(splitc::read(gp(i)), value(1, i))) << i;

    // put + sync.
    for (int i = 0; i < kCount; ++i) splitc::put(gp(i), value(2, i));
    splitc::sync();
    EXPECT_TRUE(splitc::is_sync());
    expect_area(2);

    // get + sync.
    T got[kCount];
    for (int i = 0; i < kCount; ++i) splitc::get(&got[i], gp(i));
    splitc::sync();
    for (int i = 0; i < kCount; ++i) ASSERT_TRUE(same(got[i], value(2, i))) << i;

    // Counter forms.
    splitc::counter ctr;
    for (int i = 0; i < kCount; ++i) splitc::put(gp(i), value(3, i), ctr);
    splitc::sync_ctr(ctr);
    EXPECT_TRUE(splitc::is_sync_ctr(ctr));
    expect_area(3);
    T got2[kCount];
    for (int i = 0; i < kCount; ++i) splitc::get(&got2[i], gp(i), ctr);
    splitc::sync(ctr);
    EXPECT_TRUE(splitc::is_sync(ctr));
    for (int i = 0; i < kCount; ++i) ASSERT_TRUE(same(got2[i], value(3, i))) << i;

    // store with the library counter: kCount*sizeof(T) bytes arrive here.
    for (int i = 0; i < kCount; ++i) splitc::store(gp(i), value(4, i));
    splitc::store_sync(kCount * static_cast<std::int64_t>(sizeof(T)));
    expect_area(4);
    EXPECT_FALSE(splitc::is_store_sync(1)) << "every stored byte was taken by store_sync";

    // store with explicit counters.
    for (int i = 0; i < kCount; ++i) splitc::store(gp(i), value(5, i), g_received, g_sent);
    EXPECT_TRUE(splitc::is_store_sync(kCount * static_cast<std::int64_t>(sizeof(T)), g_received,
                                      g_sent));
    EXPECT_EQ(g_received.value(), 0);
    expect_area(5);
    EXPECT_FALSE(splitc::is_store_sync(1)) << "explicit counters leave the library's alone";

    // store then all_store_sync (a job of one is trivially balanced).
    for (int i = 0; i < kCount; ++i) splitc::store(gp(i), value(6, i));
    splitc::all_store_sync();
    expect_area(6);
    EXPECT_FALSE(splitc::is_store_sync(1));

    // Dereference proxy: *gp, gp[i], and copying one element to another.
    for (int i = 0; i < kCount; ++i) *gp(i) = value(7, i);
    expect_area(7);
    for (int i = 0; i < kCount; ++i) {
      const T v = gp(0)[i];
      ASSERT_TRUE(same(v, value(7, i))) << i;
    }
    gp(0)[1] = gp(0)[2];
    ASSERT_TRUE(same(area[1], value(7, 2)));
    EXPECT_EQ(&*gp(3), gp(3));
  }
};

using ElementTypes = ::testing::Types<char, short, int, float, double, long long, s24, s64>;
TYPED_TEST_SUITE(LocalOps, ElementTypes);

TYPED_TEST(LocalOps, SpreadHeap) {
  auto* area = static_cast<TypeParam*>(splitc::my_segment().base);
  this->exercise(area);
}

TYPED_TEST(LocalOps, Stack) {
  TypeParam area[kCount];
  this->exercise(area);
}

TYPED_TEST(LocalOps, StaticData) { this->exercise(g_static_area<TypeParam>); }

TYPED_TEST(LocalOps, Malloc) {
  auto* area = static_cast<TypeParam*>(std::malloc(sizeof(TypeParam) * kCount));
  ASSERT_NE(area, nullptr);
  this->exercise(area);
  std::free(area);
}

TEST(LocalOpsMisc, GetAndPutOfAnUnalignedElement) {
  // Global memory moves trivially copyable bytes; alignment is not required.
  alignas(8) unsigned char bytes[32] = {};
  auto* odd = reinterpret_cast<int*>(bytes + 3);
  const auto g = splitc::toglobal(0, odd);
  splitc::write(g, 0x12345678);
  EXPECT_EQ(splitc::read(g), 0x12345678);
  EXPECT_EQ(bytes[2], 0);
  EXPECT_EQ(bytes[7], 0);
}

}  // namespace
