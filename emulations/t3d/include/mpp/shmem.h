/* The Cray T3D SHMEM emulation's header (emulations/t3d/README.md): the T3D
 * names as T3D programs used them (<mpp/shmem.h> on the T3D), plus the few
 * later SHMEM names the splitc port uses (byte-granular shmem_putmem and
 * shmem_getmem, shmem_fence, shmem_quiet, start_pes, shmem_global_exit,
 * shmem_finalize: T3E / OpenSHMEM vocabulary, provided here for the port).
 *
 * What a T3D program may rely on, and what it may not do, as this emulation
 * enforces it (each error names the PE and ends the job, status 70):
 *  - a remote address (a put's target, a get's source, a swap's or lock's
 *    word) must be symmetric: inside the symmetric heap (shmalloc). Anything
 *    else is an "operand range error", as on the T3D. Static data is NOT
 *    symmetric in this emulation (README: a [U] choice).
 *  - shmem_put/shmem_get move 64-bit words: both addresses 8-byte aligned;
 *    shmem_put32 moves 32-bit words: both addresses 4-byte aligned.
 *  - successive puts from one PE to another arrive in the order issued.
 *  - shmem_get blocks until the data is here. */
#ifndef MPP_SHMEM_H
#define MPP_SHMEM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SPLITC_MPP_SHMEM_LAYER "T3D SHMEM emulation"

/* Start-up and identity. start_pes(0) joins the job (the argument is the
 * T3E/OpenSHMEM one; 0 means "as launched"); it is collective. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* The symmetric heap. shmalloc is not collective; its results are the same
 * address on every PE when every PE makes the same sequence of shmalloc and
 * shfree calls (as on the T3D). Blocks are 64-byte aligned. NULL when the
 * heap is exhausted. */
void *shmalloc(size_t bytes);
void shfree(void *block);

/* Word transfers (64-bit words; 8-byte aligned addresses). shmem_put returns
 * once `source` may be reused; the data arrives at `pe` later, after every
 * earlier put from this PE to `pe`. shmem_get returns with the data here. */
void shmem_put(long *target, const long *source, size_t nlong, int pe);
void shmem_get(long *target, const long *source, size_t nlong, int pe);
/* 32-bit words (4-byte aligned addresses). */
void shmem_put32(void *target, const void *source, size_t n32, int pe);

/* Wait until *ivar != value (a word of this PE that other PEs put to). */
void shmem_wait(long *ivar, long value);
/* Atomically: old = target on pe; target on pe = value; return old. */
long shmem_swap(long *target, long value, int pe);
/* A lock: a symmetric long, zero when free (README: PE 0's copy is the lock). */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);

/* Every PE arrives before any leaves (the T3D's hardware barrier). An inline
 * name over the library's _t3d_barrier: a program linked with splitc (whose
 * C interface has a barrier() of its own) sees no clash of symbols. */
void _t3d_barrier(void);
static inline void barrier(void) { _t3d_barrier(); }

/* Remote writes into this PE become visible to its loads (the T3D's
 * automatic cache invalidation; README says what it does here). */
void shmem_set_cache_inv(void);
void shmem_clear_cache_inv(void);
void shmem_udcflush(void);

/* ---- later SHMEM names, provided for the splitc port ------------------------------- */
/* Byte-granular put and get: any alignment, any length. */
void shmem_putmem(void *target, const void *source, size_t bytes, int pe);
void shmem_getmem(void *target, const void *source, size_t bytes, int pe);
/* Puts issued before are delivered before puts issued after (to each PE). */
void shmem_fence(void);
/* Every put issued before is complete at its target. */
void shmem_quiet(void);
/* End the whole job with `status` (every PE). */
void shmem_global_exit(int status) __attribute__((noreturn));
/* Leave the job (after a barrier of its own). */
void shmem_finalize(void);

#ifdef __cplusplus
}
#endif

#endif /* MPP_SHMEM_H */
