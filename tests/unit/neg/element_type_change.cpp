// Must not compile: an implicit change of element type; global_pointer_cast
// is the Split-C pointer cast. (To void and to const are implicit, as in C.)
// diagnostic: conversion from .*global_ptr<int>.* to non-scalar type .*global_ptr<double>
#include <splitc/global_ptr.hpp>

splitc::global_ptr<double> f(splitc::global_ptr<int> gp) {
#ifdef SPLITC_NEG_CONTROL
  splitc::global_ptr<const void> v = gp;
  (void)v;
  splitc::global_ptr<double> d = splitc::global_pointer_cast<double>(gp);
#else
  splitc::global_ptr<double> d = gp;
#endif
  return d;
}
