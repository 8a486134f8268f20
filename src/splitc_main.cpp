// Split-C's entry point (library splitc::main, -lsplitc-main): a program that
// defines splitc_main() links it and gets this main, which runs splitc_main
// on every processor.
#include <splitc.h>

int main(int argc, char** argv) {
  splitc_init(&argc, &argv);
  const int status = splitc_main(argc, argv);
  splitc_finalize();
  return status;
}
