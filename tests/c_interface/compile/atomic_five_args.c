/* Must not compile: atomic_i with five arguments after the global pointer.
 * The fifth argument is 3, which the old counting macro took as the count
 * (it silently dropped the fourth). */
#include <splitc.h>

static void procedure(int *target, long a, long b, long c, long d) {
  atomic_return_i(*target + (int)(a + b + c + d));
}

int call(__globPtrType g) { return atomic_i(procedure, g, 1, 2, 3, 4, 3); }
