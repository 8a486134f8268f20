// Split-C's entry point: a program that defines splitc_main() and no main()
// gets this main, which runs splitc_main on every processor. The linker only
// pulls this object out of the library when the program has no main of its own.
#include <splitc.h>

int main(int argc, char** argv) {
  splitc_init(&argc, &argv);
  const int status = splitc_main(argc, argv);
  splitc_finalize();
  return status;
}
