/* expect: nonconstant_initializer.sc:6:9: error: initializer element is not a compile-time constant */
#include <split-c/split-c.h>
/* A global or spread pointer may be initialized with a computed value (at
 * start-up); any other file-scope variable keeps C's rule. */
int f(void);
int x = f();
int splitc_main(int argc, char **argv) { return x; }
