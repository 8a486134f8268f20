// global_ptr<T>: construction, null, arithmetic (the processor never moves), comparison, casts.
#include <splitc/global_ptr.hpp>

#include <gtest/gtest.h>

#include <compare>
#include <map>
#include <type_traits>

namespace {

using splitc::global_ptr;

int g_array[16];

// Everything but dereference is constexpr and needs no running job.
constexpr global_ptr<int> g_at3 = splitc::toglobal(3, &g_array[4]);
static_assert(g_at3.proc() == 3);
static_assert(g_at3.local() == &g_array[4]);
static_assert((g_at3 + 5).local() == &g_array[9] && (g_at3 + 5).proc() == 3);
static_assert((g_at3 - 4).local() == &g_array[0] && (g_at3 - 4).proc() == 3);
static_assert((g_at3 + 7) - g_at3 == 7);
static_assert(g_at3 - (g_at3 + 7) == -7);
static_assert(!global_ptr<int>{});
static_assert(static_cast<bool>(g_at3));
static_assert(std::is_trivially_copyable_v<global_ptr<double>>);
static_assert(std::is_nothrow_default_constructible_v<global_ptr<double>>);

struct base_s {
  int a;
};
struct derived_s : base_s {
  int b;
};

TEST(GlobalPtr, DefaultIsNullOnProcessorZero) {
  global_ptr<int> p;
  EXPECT_EQ(p.proc(), 0);
  EXPECT_EQ(p.local(), nullptr);
  EXPECT_FALSE(p);
  EXPECT_TRUE(p == nullptr);
  EXPECT_EQ(p, global_ptr<int>(nullptr));
}

TEST(GlobalPtr, NullptrConstructionAndComparison) {
  global_ptr<double> p = nullptr;
  EXPECT_FALSE(p);
  EXPECT_TRUE(p == nullptr);
  EXPECT_TRUE(nullptr == p);
  EXPECT_FALSE(p != nullptr);
  double x = 0;
  global_ptr<double> q(2, &x);
  EXPECT_TRUE(q);
  EXPECT_FALSE(q == nullptr);
  EXPECT_TRUE(q != nullptr);
}

TEST(GlobalPtr, NullIsAboutTheAddressNotTheProcessor) {
  // A null local address is null whichever processor it names.
  global_ptr<int> p(5, nullptr);
  EXPECT_FALSE(p);
  EXPECT_TRUE(p == nullptr);
  EXPECT_EQ(p.proc(), 5);
}

TEST(GlobalPtr, ToglobalToprocTolocal) {
  int x = 0;
  auto g = splitc::toglobal(6, &x);
  static_assert(std::is_same_v<decltype(g), global_ptr<int>>);
  EXPECT_EQ(splitc::toproc(g), 6);
  EXPECT_EQ(splitc::tolocal(g), &x);
  EXPECT_EQ(g.proc(), 6);
  EXPECT_EQ(g.local(), &x);
}

TEST(GlobalPtr, ArithmeticMovesTheAddressAndKeepsTheProcessor) {
  double a[32];
  const auto g = splitc::toglobal(4, &a[10]);
  for (int n = -10; n < 22; ++n) {
    EXPECT_EQ((g + n).proc(), 4) << n;
    EXPECT_EQ((g + n).local(), &a[10 + n]) << n;
    EXPECT_EQ((g - n).proc(), 4) << n;
    EXPECT_EQ((g + n) - g, n);
    EXPECT_EQ((g + n) - n, g);
  }
  // Element size, not bytes.
  EXPECT_EQ(reinterpret_cast<char*>((g + 1).local()) - reinterpret_cast<char*>(g.local()),
            static_cast<std::ptrdiff_t>(sizeof(double)));
}

TEST(GlobalPtr, IncrementDecrementAndCompoundAssignment) {
  long long a[8];
  auto g = splitc::toglobal(1, &a[2]);
  auto old = g++;
  EXPECT_EQ(old.local(), &a[2]);
  EXPECT_EQ(g.local(), &a[3]);
  old = g--;
  EXPECT_EQ(old.local(), &a[3]);
  EXPECT_EQ(g.local(), &a[2]);
  EXPECT_EQ((++g).local(), &a[3]);
  EXPECT_EQ((--g).local(), &a[2]);
  g += 5;
  EXPECT_EQ(g.local(), &a[7]);
  g -= 7;
  EXPECT_EQ(g.local(), &a[0]);
  EXPECT_EQ(g.proc(), 1);
}

TEST(GlobalPtr, EqualityNeedsProcessorAndAddress) {
  int a[4];
  EXPECT_EQ(splitc::toglobal(1, &a[0]), splitc::toglobal(1, &a[0]));
  EXPECT_NE(splitc::toglobal(1, &a[0]), splitc::toglobal(2, &a[0]));
  EXPECT_NE(splitc::toglobal(1, &a[0]), splitc::toglobal(1, &a[1]));
}

TEST(GlobalPtr, OrderIsProcessorThenAddress) {
  int a[4];
  const auto p0a3 = splitc::toglobal(0, &a[3]);
  const auto p1a0 = splitc::toglobal(1, &a[0]);
  const auto p1a2 = splitc::toglobal(1, &a[2]);
  EXPECT_LT(p0a3, p1a0);  // lower processor first, whatever the address
  EXPECT_LT(p1a0, p1a2);
  EXPECT_GT(p1a2, p0a3);
  EXPECT_LE(p1a0, p1a0);
  EXPECT_GE(p1a0, p1a0);
  EXPECT_EQ(p1a0 <=> p1a0, std::strong_ordering::equal);
  EXPECT_EQ(p0a3 <=> p1a0, std::strong_ordering::less);
  // Usable as a key of an ordered container.
  std::map<global_ptr<int>, int> m{{p1a2, 3}, {p0a3, 1}, {p1a0, 2}};
  int expect = 1;
  for (const auto& [k, v] : m) EXPECT_EQ(v, expect++);
}

TEST(GlobalPtr, ConversionsToVoidAndConst) {
  int x = 0;
  const auto g = splitc::toglobal(3, &x);
  global_ptr<void> v = g;
  EXPECT_EQ(v.proc(), 3);
  EXPECT_EQ(v.local(), static_cast<void*>(&x));
  global_ptr<const int> c = g;
  EXPECT_EQ(c.proc(), 3);
  EXPECT_EQ(c.local(), &x);
  global_ptr<const void> cv = c;
  EXPECT_EQ(cv.local(), static_cast<const void*>(&x));
  static_assert(std::is_convertible_v<global_ptr<int>, global_ptr<void>>);
  static_assert(std::is_convertible_v<global_ptr<int>, global_ptr<const int>>);
  static_assert(!std::is_convertible_v<global_ptr<const int>, global_ptr<int>>);
  static_assert(!std::is_convertible_v<global_ptr<void>, global_ptr<int>>);
  static_assert(!std::is_convertible_v<global_ptr<int>, global_ptr<long>>);
  static_assert(std::is_convertible_v<global_ptr<derived_s>, global_ptr<base_s>>);
}

TEST(GlobalPtr, PointerCastKeepsProcessorAndAddress) {
  double d[2];
  const auto g = splitc::toglobal(2, &d[1]);
  const auto c = splitc::global_pointer_cast<char>(g);
  static_assert(std::is_same_v<decltype(c), const global_ptr<char>>);
  EXPECT_EQ(c.proc(), 2);
  EXPECT_EQ(static_cast<void*>(c.local()), static_cast<void*>(&d[1]));
  // Arithmetic now steps in bytes.
  EXPECT_EQ(static_cast<void*>((c + 8).local()), static_cast<void*>(&d[1] + 1));
  const auto back = splitc::global_pointer_cast<double>(c);
  EXPECT_EQ(back, g);
}

}  // namespace
