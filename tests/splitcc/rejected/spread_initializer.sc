/* expect: spread_initializer.sc:3:5: error: a spread array cannot have an initializer */
#include <split-c/split-c.h>
int A[4]:: = {1, 2, 3, 4};
int splitc_main(int argc, char **argv) { return 0; }
