/* <split-c/split-c.h>: the header every Split-C program of the 1990s
 * includes, reconstructed on splitc's C interface (docs/splitcc.md,
 * "Compatibility headers"). splitcc includes it in every translation unit
 * before the program's own text, so it is there even when a program forgets
 * it. It gives the seed's names (sync(), MYPROC, PROCS, PROCSLOG, barrier,
 * the global-memory, bulk, collective, heap and atomic calls of splitc.h),
 * Split-C's control macros (<split-c/control.h>) and on_one. */
#ifndef SPLIT_C_SPLIT_C_H
#define SPLIT_C_SPLIT_C_H

#ifndef SPLITC_SEED_NAMES
#define SPLITC_SEED_NAMES 1    /* sync() */
#endif
#ifndef SPLITC_NO_SEED_MACROS
#define SPLITC_NO_SEED_MACROS 1 /* Split-C's for_my_1d (control.h), not splitc.h's */
#endif

#include <stdio.h>
#include <stdlib.h>

#include <splitc.h>
#include <split-c/splitcc-runtime.h>

#define PROCSLOG (splitcc_procs_log())

#include <split-c/control.h>

#endif /* SPLIT_C_SPLIT_C_H */
