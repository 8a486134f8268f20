// Must not compile: ++ through a global pointer to a type without ++ (the
// proxy offers only what the element type has).
// diagnostic: no match for .operator\+\+
#include <splitc/splitc.hpp>

struct pair_of_ints {
  int a, b;
};

void f(splitc::global_ptr<pair_of_ints> gp) {
#ifdef SPLITC_NEG_CONTROL
  ++(gp->*&pair_of_ints::a);
#else
  ++*gp;
#endif
}
