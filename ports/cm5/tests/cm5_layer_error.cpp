// Bad input the CM-5 layer itself rejects, under splitc: processor 1 calls
// CMAML_reply outside any handler. The emulation stops the partition through
// the port's error hook, so the job ends with splitc's error naming the
// processor ("splitc: processor 1 of 4: cmaml: CMAML_reply: called outside a
// request handler") -- it never hangs.
#include "harness.hpp"

#include <cmaml.h>

static void nothing(long, long, long, long) {}

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 1) CMAML_reply(0, nothing, 0, 0, 0, 0);
  splitc::barrier();
  return harness::pass("cm5_layer_error");
}
