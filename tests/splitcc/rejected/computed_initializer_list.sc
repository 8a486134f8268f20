/* expect: computed_initializer_list.sc:6:17: error: initializer element is not a compile-time constant */
#include <split-c/split-c.h>
int A[16]::;
/* A computed initializer is set at start-up only for a declaration of one
 * variable: a list needs one declaration per pointer. */
int *spread p = &A[3], *spread r = A;
int splitc_main(int argc, char **argv) { return toproc(p) + toproc(r); }
