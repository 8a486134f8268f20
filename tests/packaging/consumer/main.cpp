// Consumer of an installed splitc: built by tests/packaging through
// find_package(splitc) + splitc::splitc, and with plain pkg-config flags.
#include <splitc/splitc.hpp>

#include <cstdio>

// (splitc/backend.hpp stops the build if the flags named no backend.)

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
