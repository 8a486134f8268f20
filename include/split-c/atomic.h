/* <split-c/atomic.h>: kept for programs that include it by name; the calls it
 * named are declared by <split-c/split-c.h> (splitc.h underneath). */
#ifndef SPLIT_C_ATOMIC_H
#define SPLIT_C_ATOMIC_H
#include <split-c/split-c.h>
#endif
