/* Must not compile: atomic with five arguments, the fifth 0 (the old macro
 * made this a call with no arguments at all). */
#include <splitc.h>

static void procedure(int *target, long a) { *target += (int)a; }

void call(__globPtrType g) { atomic(procedure, g, 7, 1, 2, 3, 0); }
