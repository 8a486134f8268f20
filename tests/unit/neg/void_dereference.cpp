// Must not compile: dereferencing a global pointer to void.
// diagnostic: no match for .operator\*
#include <splitc/splitc.hpp>

int f(splitc::global_ptr<void> gp) {
#ifdef SPLITC_NEG_CONTROL
  return *splitc::global_pointer_cast<int>(gp);
#else
  return *gp;
#endif
}
