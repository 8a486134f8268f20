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

/* Where the segments lie when the processors share one process (the sim engine's fibers:
 * docs/sim.md, "P segments, P addresses"): processor p's at base + (p << shift), span bytes
 * for all of them. Every other backend keeps one segment per process at the same address
 * everywhere, and this stays zero. A global pointer holds an address of its processor's own
 * segment (splitc_placed_, made by toglobal and every conversion): the same place in every
 * segment is at the same offset, so "the same address on every processor" of the seed becomes
 * "the same offset", and tolocal() of any processor's pointer names the running processor's
 * own copy, as on every other backend. */
struct splitc_segment_places {
  uintptr_t base;
  uintptr_t span;  /* 0: one segment per process (every backend but the sim's) */
  unsigned shift;  /* log2 of the distance between two processors' segments */
};
extern struct splitc_segment_places splitc_segment_places;

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

/* `addr` moved to the same place in processor `proc`'s segment: itself outside the segments,
 * and always on a backend whose processors have their own processes (compiled away there:
 * SPLITC_SIM_SUBSTRATE is set by the sim engine's backends, in their CMake targets and
 * pkg-config flags). */
static inline void *splitc_placed_(int proc, const volatile void *addr) {
#ifdef SPLITC_SIM_SUBSTRATE
  const uintptr_t at = (uintptr_t)addr, off = at - splitc_segment_places.base;
  if (off < splitc_segment_places.span) {
    const unsigned shift = splitc_segment_places.shift;
    return (void *)(splitc_segment_places.base + ((uintptr_t)(unsigned)proc << shift) +
                    (off & ((((uintptr_t)1) << shift) - 1)));
  }
#else
  (void)proc;
#endif
  return (void *)addr;
}

/* The running processor's copy of the place `addr` names on any processor (tolocal, a global
 * pointer's local()): `addr` itself before init and on every backend but the sim's. */
static inline void *splitc_placed_here_(const volatile void *addr) {
#ifdef SPLITC_SIM_SUBSTRATE
  if (splitc_current_context != 0) return splitc_placed_(splitc_current_context->myproc, addr);
#endif
  return (void *)addr;
}

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_C_CONTEXT_H */
