// Must not compile: a spread pointer made implicitly from a global one (the
// two have different arithmetic; tospread() says which is meant). The other
// way is allowed: a spread pointer is a global pointer with other arithmetic.
// diagnostic: conversion from .*global_ptr<int>.* to non-scalar type .*spread_ptr<int>
#include <splitc/spread_ptr.hpp>

splitc::spread_ptr<int> f(splitc::global_ptr<int> gp) {
#ifdef SPLITC_NEG_CONTROL
  splitc::spread_ptr<int> s = splitc::tospread(gp);
  splitc::global_ptr<int> back = s;
  (void)back;
#else
  splitc::spread_ptr<int> s = gp;
#endif
  return s;
}
