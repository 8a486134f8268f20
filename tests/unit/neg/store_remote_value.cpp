// Must not compile: a store whose value is a remote reference (Split-C's
// `*g :- l` stores a local value); read it first.
// diagnostic: splitc::store: the value stored must be local, not a remote reference
#include <splitc/splitc.hpp>

void f(splitc::global_ptr<int> dst, splitc::global_ptr<int> src) {
#ifdef SPLITC_NEG_CONTROL
  const int v = *src;
  splitc::store(dst, v);
#else
  splitc::store(dst, *src);
#endif
}
