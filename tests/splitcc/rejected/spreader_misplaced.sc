/* expect: spreader_misplaced.sc:3:7: error: spreader '::' must follow the dimensions of an array declarator */
#include <split-c/split-c.h>
int a ::;
int splitc_main(int argc, char **argv) { return 0; }
