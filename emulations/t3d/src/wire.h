/* The substrate seam of the T3D SHMEM emulation: what src/shmem.c (the
 * emulated layer's logic, written once) needs from whatever carries the
 * remote memory accesses. Two implementations: wire_processes.c (processes
 * of this host sharing memory) and wire_sim.c (the sim backend's engine). */
#ifndef T3D_EMU_WIRE_H
#define T3D_EMU_WIRE_H

#include <stddef.h>

/* One PE's own state of the layer (per processor: on the engine, statics are
 * shared by every simulated processor, so the wire keeps one per PE). */
struct t3d_block {
  size_t offset, bytes;
  int used;
};
struct t3d_local {
  int started;
  int pe, npes;
  unsigned char *heap; /* the symmetric heap: the same address on every PE */
  size_t heap_bytes;
  struct t3d_block *blocks; /* shmalloc's blocks, by offset, covering the heap */
  size_t nblocks, block_capacity;
};

/* Join the job; fills pe, npes, heap, heap_bytes of this PE's state. */
void wire_start(struct t3d_local *local);
/* This PE's state (zeroed before wire_start). */
struct t3d_local *wire_local(void);

/* Remote memory: `offset` from the start of `pe`'s symmetric heap. Puts from
 * one PE to one target land in issue order. */
void wire_put(int pe, size_t offset, const void *src, size_t len);
void wire_get(int pe, size_t offset, void *dst, size_t len);
long wire_swap(int pe, size_t offset, long value);
void wire_fence(void);
void wire_quiet(void);

/* Make the puts that have arrived here visible to this PE's loads. */
void wire_land(void);
/* A waiting loop's pause (*spins counts this wait's pauses): lets the other
 * PEs run. */
void wire_relax(unsigned *spins);
/* Nothing to do until another PE's put lands here (or a pause). */
void wire_wait_for_put(const char *what, unsigned *spins);

void wire_barrier(void);
void wire_finalize(void);

/* An error of the layer: "splitc: processor N of P: T3D SHMEM: <message>",
 * and the whole job ends (status 70). */
void wire_fail(const char *message) __attribute__((noreturn));
/* End the whole job with `status`. */
void wire_exit_job(int status) __attribute__((noreturn));

#endif
