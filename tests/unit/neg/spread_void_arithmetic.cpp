// Must not compile: stepping or dereferencing a spread pointer to void.
// diagnostic: no match for .operator(\+\+|\*)
#include <splitc/splitc.hpp>

int f(splitc::spread_ptr<void> sp) {
#ifdef SPLITC_NEG_CONTROL
  splitc::spread_ptr<int> ints = splitc::spread_pointer_cast<int>(sp);
  ++ints;
  return *ints;
#else
  ++sp;
  return *sp;
#endif
}
