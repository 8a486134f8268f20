/* The part of the per-process context that the C interface's inline code
 * reads (splitc.h). The C++ context derives from it; both languages reach it
 * through the one pointer splitc_current_context. */
#ifndef SPLITC_C_CONTEXT_H
#define SPLITC_C_CONTEXT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct splitc_context_prefix {
  int32_t myproc;           /* MYPROC */
  int32_t procs;            /* PROCS */
  int64_t *store_sent;      /* library store counter: bytes issued */
  int64_t *store_received;  /* library store counter: bytes received (in the segment) */
};

/* The one pointer to this process's runtime state (null before init). */
extern struct splitc_context_prefix *splitc_current_context;

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_C_CONTEXT_H */
