// Consumer of an installed splitc: built by tests/packaging through
// find_package(splitc) + splitc::splitc, and with plain pkg-config flags.
#include <splitc/splitc.hpp>

#include <cstdio>

#if !defined(SPLITC_BACKEND_SMP) && !defined(SPLITC_BACKEND_TEMPLATE)
#error "no SPLITC_BACKEND_<NAME> definition: the package did not pass the backend's flags"
#endif

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  int x = 0;
  splitc::global_ptr<int> g = splitc::toglobal(splitc::myproc(), &x);
  splitc::write(g, 42);
  int v = splitc::read(g);
  splitc::barrier();
  splitc::finalize();
  if (v != 42) {
    std::fprintf(stderr, "consumer FAILED: read %d, expected 42\n", v);
    return 1;
  }
  std::puts("consumer ok");
  return 0;
}
