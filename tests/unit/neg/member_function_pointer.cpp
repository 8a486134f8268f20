// Must not compile: member_of with a member function (only data members
// have an address on the owner).
// diagnostic: (no matching function for call to .member_of|constraints not satisfied)
#include <splitc/global_ptr.hpp>

struct counter_like {
  int n;
  int get() const { return n; }
};

void f(splitc::global_ptr<counter_like> gp) {
#ifdef SPLITC_NEG_CONTROL
  (void)splitc::member_of(gp, &counter_like::n);
#else
  (void)splitc::member_of(gp, &counter_like::get);
#endif
}
