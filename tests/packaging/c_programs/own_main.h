/* The C packaging programs are written the Split-C way, as splitc_main().
 * Built with -DSPLITC_OWN_MAIN they bring their own main() instead of
 * linking splitc-main: the other form a C program may take. */
#ifndef SPLITC_PACKAGING_OWN_MAIN_H
#define SPLITC_PACKAGING_OWN_MAIN_H

#include <splitc.h>

#ifdef SPLITC_OWN_MAIN
int main(int argc, char **argv) {
  splitc_init(&argc, &argv);
  const int status = splitc_main(argc, argv);
  splitc_finalize();
  return status;
}
#endif

#endif
