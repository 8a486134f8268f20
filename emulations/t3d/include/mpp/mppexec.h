/* Starting a job of the T3D SHMEM emulation on processes of this host: what
 * the T3D's mppexec did (allocate the partition), reduced to the one step a
 * launcher needs. Not a T3D header (README: the name is ours).
 *
 * A launcher calls t3d_job_create(npes, heap_bytes, heap_base) once, before
 * it starts the processes; each process inherits the descriptor it returns,
 * finds it in the environment variable T3D_JOB_FD_ENV (the launcher sets
 * it) and takes its PE number and the job size from SPLITC_MYPROC and
 * SPLITC_PROCS. A program started without a job (no T3D_JOB_FD_ENV) runs
 * as a job of one PE. */
#ifndef MPP_MPPEXEC_H
#define MPP_MPPEXEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define T3D_JOB_FD_ENV "T3D_JOB_FD"

/* A PE started without a job (a job of one) makes its own heap: this many
 * bytes (the variable T3D_HEAP_BYTES_ENV, or the default) at the default base. */
#define T3D_HEAP_BYTES_ENV "T3D_HEAP_BYTES"
#define T3D_DEFAULT_HEAP_BYTES ((size_t)64 << 20)
#define T3D_DEFAULT_HEAP_BASE ((uintptr_t)0x200000000000ull)

/* The job's shared memory: every PE's symmetric heap of `heap_bytes`
 * (rounded up to pages), which each PE maps at `heap_base` (page-aligned;
 * the same address on every PE). Returns the descriptor (not close-on-exec),
 * or -1 with a message on stderr. */
int t3d_job_create(int npes, size_t heap_bytes, uintptr_t heap_base);

#ifdef __cplusplus
}
#endif

#endif /* MPP_MPPEXEC_H */
