/* The thin shim: Cray T3D SHMEM names (as emulations/t3d/include/mpp/shmem.h
 * declares them) on OpenSHMEM, so the T3D port (ports/t3d) compiles
 * unchanged against Debian's Open MPI oshmem (OpenSHMEM 1.4: no
 * shmem_putmem_signal; see docs/ports.md "## T3D").
 *
 * Most T3D names survive in OpenSHMEM with the same meaning (start_pes,
 * _my_pe, _num_pes, shmalloc, shfree, shmem_wait, shmem_set_lock,
 * shmem_clear_lock, shmem_set_cache_inv, shmem_put32, and the later
 * shmem_quiet, shmem_fence, shmem_long_fadd, shmem_long_add): they are
 * OpenSHMEM's own. The rest are mapped here:
 *   shmem_put/shmem_get (64-bit words)  -> shmem_put64/shmem_get64
 *   shmem_swap (long)                    -> shmem_long_swap
 *   barrier()                            -> shmem_barrier_all()
 * (In C, OpenSHMEM's type-generic shmem_put/shmem_get/shmem_swap macros are
 * replaced by these word forms.) The port's native atomics, compiled for this
 * layer alone (SPLITC_BACKEND_SHMEM), call OpenSHMEM's shmem_int_atomic_* and
 * shmem_long_atomic_* by their own names. */
#ifndef SPLITC_MPP_SHMEM_ON_OPENSHMEM_H
#define SPLITC_MPP_SHMEM_ON_OPENSHMEM_H

#include <shmem.h>
#include <stddef.h>

#define SPLITC_MPP_SHMEM_LAYER "OpenSHMEM"

#ifdef shmem_put
#undef shmem_put
#endif
#ifdef shmem_get
#undef shmem_get
#endif
#ifdef shmem_swap
#undef shmem_swap
#endif

static inline void shmem_put(long* target, const long* source, size_t nlong, int pe) {
  shmem_put64(target, source, nlong, pe);
}
static inline void shmem_get(long* target, const long* source, size_t nlong, int pe) {
  shmem_get64(target, source, nlong, pe);
}
static inline long shmem_swap(long* target, long value, int pe) {
  return shmem_long_swap(target, value, pe);
}
static inline void barrier(void) { shmem_barrier_all(); }

#endif
