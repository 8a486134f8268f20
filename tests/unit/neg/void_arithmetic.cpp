// Must not compile: arithmetic on a global pointer to void (as in C); cast
// to a sized element type first.
// diagnostic: (no match for .operator\+=|constraints not satisfied|required from here)
#include <splitc/global_ptr.hpp>

splitc::global_ptr<void> f(splitc::global_ptr<void> gp) {
#ifdef SPLITC_NEG_CONTROL
  return splitc::global_pointer_cast<char>(gp) + 8;
#else
  gp += 8;
  return gp;
#endif
}
