// A job of one: compound assignment, increment and decrement through the
// dereference proxy (each a read then a write), struct fields through a
// global pointer (gp->*&S::f, member_of, ref.member), and reading through a
// pointer to const. What must not compile is in neg/.
#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

namespace {

using splitc::global_ptr;

template <class R>
concept adds = requires(R r) { r += 1; };
template <class R>
concept steps = requires(R r) {
  ++r;
  r--;
};

struct particle {
  double x;
  int charge;
  char tag[3];
};

TEST(GlobalRef, CompoundAssignmentReadsThenWrites) {
  int v = 10;
  const global_ptr<int> gp = splitc::toglobal(splitc::myproc(), &v);
  *gp += 5;
  EXPECT_EQ(v, 15);
  *gp -= 3;
  EXPECT_EQ(v, 12);
  *gp *= 4;
  EXPECT_EQ(v, 48);
  *gp /= 5;
  EXPECT_EQ(v, 9);
  *gp %= 4;
  EXPECT_EQ(v, 1);
  *gp <<= 4;
  EXPECT_EQ(v, 16);
  *gp |= 3;
  EXPECT_EQ(v, 19);
  *gp &= 6;
  EXPECT_EQ(v, 2);
  *gp ^= 7;
  EXPECT_EQ(v, 5);
  *gp >>= 1;
  EXPECT_EQ(v, 2);
  // The result is the reference again, so assignments chain as in C.
  int w = (*gp += 1);
  EXPECT_EQ(w, 3);
  EXPECT_EQ(v, 3);
}

TEST(GlobalRef, IncrementAndDecrement) {
  long a[3] = {1, 2, 3};
  const global_ptr<long> gp = splitc::toglobal(splitc::myproc(), a);
  EXPECT_EQ((*gp)++, 1);  // postfix: the value read
  EXPECT_EQ(a[0], 2);
  EXPECT_EQ(gp[1]--, 2);
  EXPECT_EQ(a[1], 1);
  const long pre = ++*gp;  // prefix: the reference, read again
  EXPECT_EQ(pre, 3);
  EXPECT_EQ(a[0], 3);
  --gp[2];
  EXPECT_EQ(a[2], 2);
  double d = 0.5;
  const global_ptr<double> gd = splitc::toglobal(splitc::myproc(), &d);
  *gd += 0.25;
  ++*gd;
  EXPECT_EQ(d, 1.75);
}

TEST(GlobalRef, StructFieldsThroughAGlobalPointer) {
  particle ps[2] = {{1.5, -1, {'a', 'b', 'c'}}, {2.5, 2, {'d', 'e', 'f'}}};
  const global_ptr<particle> gp = splitc::toglobal(splitc::myproc(), ps);

  // gp->*&S::field is the field as a reference.
  const double x = gp->*&particle::x;
  EXPECT_EQ(x, 1.5);
  (gp + 1)->*&particle::charge = 7;
  EXPECT_EQ(ps[1].charge, 7);
  (gp->*&particle::charge) += 2;
  EXPECT_EQ(ps[0].charge, 1);

  // member_of gives the field's global pointer: same processor, field address.
  const global_ptr<int> charge = splitc::member_of(gp + 1, &particle::charge);
  EXPECT_EQ(charge.proc(), splitc::myproc());
  EXPECT_EQ(charge.local(), &ps[1].charge);
  EXPECT_EQ(*charge, 7);

  // From a reference (an element of an array, a spread array ...).
  gp[1].member(&particle::x) = 9.0;
  EXPECT_EQ(ps[1].x, 9.0);
  EXPECT_EQ(&gp[0].member(&particle::charge), splitc::toglobal(splitc::myproc(), &ps[0].charge));
  // An array field: its pointer, then its elements.
  const global_ptr<char[3]> tag = splitc::member_of(gp + 1, &particle::tag);
  EXPECT_EQ(tag.local(), &ps[1].tag);
  EXPECT_EQ(splitc::global_pointer_cast<char>(tag)[1], 'e');

  // The whole struct still moves as one value.
  const particle copy = gp[1];
  EXPECT_EQ(copy.charge, 7);
  EXPECT_EQ(copy.tag[2], 'f');
}

TEST(GlobalRef, StructFieldsThroughASpreadPointer) {
  particle ps[2] = {{1.0, 1, {}}, {2.0, 2, {}}};
  // One processor: a spread pointer steps through local memory.
  splitc::spread_ptr<particle> sp(splitc::myproc(), ps);
  ++sp;
  sp->*&particle::charge += 40;
  EXPECT_EQ(ps[1].charge, 42);
  EXPECT_EQ(static_cast<double>(sp->*&particle::x), 2.0);
}

TEST(GlobalRef, ThroughAPointerToConstOnlyReads) {
  particle p{3.0, 4, {'x', 'y', 'z'}};
  const global_ptr<const particle> gp = splitc::toglobal(splitc::myproc(), static_cast<const particle*>(&p));
  const global_ptr<const int> charge = splitc::member_of(gp, &particle::charge);
  EXPECT_EQ(*charge, 4);
  EXPECT_EQ(gp->*&particle::x, 3.0);
  static_assert(std::is_same_v<decltype(splitc::member_of(gp, &particle::x)), global_ptr<const double>>);
  // No assignment, compound assignment or increment through it.
  static_assert(!std::is_assignable_v<splitc::global_ref<const int>, int>);
  static_assert(!adds<splitc::global_ref<const int>> && !steps<splitc::global_ref<const int>>);
  // Nor on types without the operator.
  static_assert(!adds<splitc::global_ref<particle>> && !steps<splitc::global_ref<particle>>);
  static_assert(adds<splitc::global_ref<int>> && steps<splitc::global_ref<int>>);
}

}  // namespace
