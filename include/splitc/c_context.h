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

/* The one pointer to the runtime's state, per thread: set for the thread that called init
 * (and switched with the running processor where processors share a process), null before
 * init and on every other thread. splitc's threading model is one thread per process making
 * splitc calls (MPI's FUNNELED): a call from another thread finds this null, and its check
 * (the one every call makes anyway) ends the job naming the cause (docs/api.md, "Threads").
 * Initial-exec: one thread-pointer-relative load, as cheap as a plain global's. */
#if defined(__GNUC__) || defined(__clang__)
#define SPLITC_THREAD_LOCAL_ __thread __attribute__((tls_model("initial-exec")))
#else
#define SPLITC_THREAD_LOCAL_ _Thread_local
#endif
extern SPLITC_THREAD_LOCAL_ struct splitc_context_prefix *splitc_current_context;
/* The same, for the whole process (error messages, MPI_Initialized): not for calls. */
extern struct splitc_context_prefix *splitc_process_context;

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_C_CONTEXT_H */
