/* Shared by the C packaging programs: count failed checks with a message
 * naming the processor, then agree on the outcome and print one PASS line. */
#ifndef SPLITC_PACKAGING_REPORT_H
#define SPLITC_PACKAGING_REPORT_H

#include <splitc.h>

#include <stdio.h>

static int report_errors_; /* this processor's failed checks */

#define CHECK(cond)                                                                        \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      ++report_errors_;                                                                    \
      fprintf(stderr, "processor %d: check failed at %s:%d: %s\n", MYPROC, __FILE__,      \
              __LINE__, #cond);                                                            \
    }                                                                                      \
  } while (0)

/* Collective: 0 and "PASS <name>" on processor 0 if no processor failed. */
static int report(const char *name) {
  const int failed = all_reduce_to_all_add(report_errors_);
  if (MYPROC == 0) {
    if (failed == 0)
      printf("PASS %s\n", name);
    else
      printf("FAIL %s: %d failed checks\n", name, failed);
    fflush(stdout);
  }
  return failed == 0 ? 0 : 1;
}

#endif
