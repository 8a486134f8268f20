/* Compiles without a diagnostic: <unistd.h> before splitc.h with
 * SPLITC_SEED_NAMES; sync() is splitc's, POSIX's stays reachable as (sync)(). */
#define _DEFAULT_SOURCE /* so that <unistd.h> declares POSIX sync() */
#include <unistd.h>
#define SPLITC_SEED_NAMES
#include <splitc.h>

void flush_both(void) {
  sync();
  (sync)();
}
