// Must not compile: assigning, or adding, through a global pointer to const.
// diagnostic: no match for .operator(=|\+=)
#include <splitc/splitc.hpp>

int f(splitc::global_ptr<const int> gp) {
#ifdef SPLITC_NEG_CONTROL
  return *gp + 1;
#else
  *gp = 1;
  *gp += 1;
  return 0;
#endif
}
