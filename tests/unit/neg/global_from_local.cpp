// Must not compile: a global pointer made implicitly from a local one; say
// which processor it is on with toglobal(proc, p).
// diagnostic: conversion from .*int\*.* to non-scalar type .*global_ptr<int>
#include <splitc/global_ptr.hpp>

splitc::global_ptr<int> f(int* p) {
#ifdef SPLITC_NEG_CONTROL
  splitc::global_ptr<int> g = splitc::toglobal(0, p);
#else
  splitc::global_ptr<int> g = p;
#endif
  return g;
}
