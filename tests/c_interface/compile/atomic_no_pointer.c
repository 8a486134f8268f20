/* Must not compile: atomic_d without its global pointer. */
#include <splitc.h>

static void procedure(int *target) { atomic_return_d(*target / 2.0); }

double call(void) { return atomic_d(procedure); }
