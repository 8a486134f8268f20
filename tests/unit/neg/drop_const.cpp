// Must not compile: a global pointer to const made into one to non-const.
// diagnostic: conversion from .*global_ptr<const int>.* to non-scalar type .*global_ptr<int>
#include <splitc/global_ptr.hpp>

splitc::global_ptr<int> f(splitc::global_ptr<const int> gp) {
#ifdef SPLITC_NEG_CONTROL
  splitc::global_ptr<int> p = splitc::toglobal(gp.proc(), const_cast<int*>(gp.local()));
#else
  splitc::global_ptr<int> p = gp;
#endif
  return p;
}
