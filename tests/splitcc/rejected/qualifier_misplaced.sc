/* expect: qualifier_misplaced.sc:3:5: error: 'global' qualifies a pointer: write it after the '\*' */
#include <split-c/split-c.h>
int global *p;
int splitc_main(int argc, char **argv) { return 0; }
