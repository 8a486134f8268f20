// Must not compile: a local pointer taken from a global one without tolocal()
// (Split-C's cast discards the processor; here it must be said).
// diagnostic: cannot convert .*global_ptr<int>.* to .*int\*
#include <splitc/global_ptr.hpp>

int* f(splitc::global_ptr<int> gp) {
#ifdef SPLITC_NEG_CONTROL
  int* p = splitc::tolocal(gp);
#else
  int* p = gp;
#endif
  return p;
}
