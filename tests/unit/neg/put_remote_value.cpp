// Must not compile: a put whose value is a remote reference; read it first.
// diagnostic: splitc::put: the value put must be local, not a remote reference
#include <splitc/splitc.hpp>

void f(splitc::global_ptr<int> dst, splitc::global_ptr<int> src) {
#ifdef SPLITC_NEG_CONTROL
  const int v = *src;
  splitc::put(dst, v);
#else
  splitc::put(dst, src[1]);
#endif
}
