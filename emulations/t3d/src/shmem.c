/* The T3D SHMEM emulation's logic (include/mpp/shmem.h), written once above
 * the substrate seam (wire.h): the checks the T3D made (operand range errors
 * for non-symmetric remote addresses, alignment of the word forms, PE
 * numbers), the symmetric heap's allocator, and the operations in terms of
 * wire puts, gets and swaps. */
#define _GNU_SOURCE
#include <mpp/shmem.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

enum { block_alignment = 64 };

/* The program's static data (the linker's etext .. end): named in errors. */
extern char etext, end;

static void fail(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fail(const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  wire_fail(message);
}

static struct t3d_local *started(const char *op) {
  struct t3d_local *l = wire_local();
  if (!l->started) fail("%s: called before start_pes", op);
  return l;
}

static void check_pe(const struct t3d_local *l, const char *op, int pe) {
  if (pe < 0 || pe >= l->npes)
    fail("%s: PE %d does not exist (the job has PEs 0..%d)", op, pe, l->npes - 1);
}

/* Where a non-symmetric address lies, for the operand range error. */
static const char *describe_address(const void *addr) {
  const uintptr_t a = (uintptr_t)addr, here = (uintptr_t)__builtin_frame_address(0);
  if (a >= (uintptr_t)&etext && a < (uintptr_t)&end)
    return "it is the program's static data, which this emulation does not make symmetric "
           "(emulations/t3d/README.md: use shmalloc)";
  const uintptr_t stack_reach = (uintptr_t)64 << 20;
  if (a > here - stack_reach && a < here + stack_reach)
    return "it looks like this PE's stack (automatic variables are not symmetric)";
  return "it is not in the symmetric heap (shmalloc)";
}

/* The T3D validated a remote address in the caller's own address space
 * (Brightwell 1996 §3.3); here it must lie in the symmetric heap. Returns its
 * offset there. */
static size_t symmetric_offset(const struct t3d_local *l, const char *op, const char *role,
                               const void *addr, size_t len, int pe) {
  const uintptr_t a = (uintptr_t)addr, base = (uintptr_t)l->heap;
  if (a < base || a - base > l->heap_bytes || len > l->heap_bytes - (a - base)) {
    fail("%s: operand range error: the %s %p (%zu bytes, on PE %d) is not symmetric: %s; the "
         "symmetric heap is %p..%p",
         op, role, addr, len, pe, describe_address(addr), (void *)l->heap,
         (void *)(l->heap + l->heap_bytes));
  }
  return (size_t)(a - base);
}

static void check_aligned(const char *op, const void *target, const void *source, size_t unit) {
  if ((uintptr_t)target % unit != 0 || (uintptr_t)source % unit != 0)
    fail("%s: alignment error: it moves %zu-bit words, so the target (%p) and the source (%p) "
         "must be %zu-byte aligned (shmem_putmem/shmem_getmem take any alignment)",
         op, unit * 8, target, source, unit);
}

/* ---- start-up and identity ---------------------------------------------------------- */

void start_pes(int npes) {
  struct t3d_local *l = wire_local();
  if (l->started) return;
  wire_start(l);
  if (npes != 0 && npes != l->npes)
    fail("start_pes(%d): the job was started with %d PEs", npes, l->npes);
  l->block_capacity = 16;
  l->blocks = calloc(l->block_capacity, sizeof *l->blocks);
  if (l->blocks == NULL) fail("start_pes: out of memory");
  l->blocks[0] = (struct t3d_block){0, l->heap_bytes, 0};
  l->nblocks = 1;
  l->started = 1;
  wire_barrier();
}

int _my_pe(void) { return started("_my_pe")->pe; }
int _num_pes(void) { return started("_num_pes")->npes; }

/* ---- the symmetric heap: first fit, deterministic ------------------------------------ */

void *shmalloc(size_t bytes) {
  struct t3d_local *l = started("shmalloc");
  if (bytes == 0) bytes = 1;
  if (bytes > l->heap_bytes) return NULL;
  bytes = (bytes + block_alignment - 1) / block_alignment * block_alignment;
  for (size_t i = 0; i < l->nblocks; ++i) {
    struct t3d_block *b = &l->blocks[i];
    if (b->used || b->bytes < bytes) continue;
    if (b->bytes > bytes) {
      if (l->nblocks == l->block_capacity) {
        struct t3d_block *grown = realloc(l->blocks, 2 * l->block_capacity * sizeof *grown);
        if (grown == NULL) return NULL;
        l->blocks = grown;
        l->block_capacity *= 2;
        b = &l->blocks[i];
      }
      memmove(&l->blocks[i + 2], &l->blocks[i + 1], (l->nblocks - i - 1) * sizeof *b);
      l->blocks[i + 1] = (struct t3d_block){b->offset + bytes, b->bytes - bytes, 0};
      ++l->nblocks;
      b->bytes = bytes;
    }
    b->used = 1;
    return l->heap + b->offset;
  }
  return NULL;
}

void shfree(void *block) {
  struct t3d_local *l = started("shfree");
  if (block == NULL) return;
  const uintptr_t a = (uintptr_t)block, base = (uintptr_t)l->heap;
  for (size_t i = 0; i < l->nblocks; ++i) {
    struct t3d_block *b = &l->blocks[i];
    if (base + b->offset != a || !b->used) continue;
    b->used = 0;
    if (i + 1 < l->nblocks && !l->blocks[i + 1].used) {  /* join the next */
      b->bytes += l->blocks[i + 1].bytes;
      memmove(&l->blocks[i + 1], &l->blocks[i + 2], (l->nblocks - i - 2) * sizeof *b);
      --l->nblocks;
    }
    if (i > 0 && !l->blocks[i - 1].used) {  /* join the previous */
      l->blocks[i - 1].bytes += b->bytes;
      memmove(&l->blocks[i], &l->blocks[i + 1], (l->nblocks - i - 1) * sizeof *b);
      --l->nblocks;
    }
    return;
  }
  fail("shfree: %p is not a block shmalloc returned (or it was freed already)", block);
}

/* ---- transfers ---------------------------------------------------------------------- */

static void put_bytes(const char *op, void *target, const void *source, size_t bytes, int pe) {
  const struct t3d_local *l = started(op);
  check_pe(l, op, pe);
  const size_t offset = symmetric_offset(l, op, "target", target, bytes, pe);
  if (bytes != 0) wire_put(pe, offset, source, bytes);
}

static void get_bytes(const char *op, void *target, const void *source, size_t bytes, int pe) {
  const struct t3d_local *l = started(op);
  check_pe(l, op, pe);
  const size_t offset = symmetric_offset(l, op, "source", source, bytes, pe);
  if (bytes != 0) wire_get(pe, offset, target, bytes);
}

void shmem_put(long *target, const long *source, size_t nlong, int pe) {
  check_aligned("shmem_put", target, source, 8);
  put_bytes("shmem_put", target, source, nlong * 8, pe);
}

void shmem_get(long *target, const long *source, size_t nlong, int pe) {
  check_aligned("shmem_get", target, source, 8);
  get_bytes("shmem_get", target, source, nlong * 8, pe);
}

void shmem_put32(void *target, const void *source, size_t n32, int pe) {
  check_aligned("shmem_put32", target, source, 4);
  put_bytes("shmem_put32", target, source, n32 * 4, pe);
}

void shmem_putmem(void *target, const void *source, size_t bytes, int pe) {
  put_bytes("shmem_putmem", target, source, bytes, pe);
}

void shmem_getmem(void *target, const void *source, size_t bytes, int pe) {
  get_bytes("shmem_getmem", target, source, bytes, pe);
}

void shmem_fence(void) { wire_fence(); }
void shmem_quiet(void) { wire_quiet(); }

/* ---- synchronisation ------------------------------------------------------------------ */

void shmem_wait(long *ivar, long value) {
  started("shmem_wait");
  unsigned spins = 0;
  for (;;) {
    wire_land();
    if (__atomic_load_n(ivar, __ATOMIC_ACQUIRE) != value) return;
    wire_wait_for_put("shmem_wait", &spins);
  }
}

long shmem_swap(long *target, long value, int pe) {
  const struct t3d_local *l = started("shmem_swap");
  check_pe(l, "shmem_swap", pe);
  if ((uintptr_t)target % 8 != 0)
    fail("shmem_swap: alignment error: the word %p is not 8-byte aligned", (void *)target);
  return wire_swap(pe, symmetric_offset(l, "shmem_swap", "target", target, 8, pe), value);
}

/* The lock is PE 0's copy of the word: 0 free, 1 held. */
void shmem_set_lock(long *lock) {
  const struct t3d_local *l = started("shmem_set_lock");
  if ((uintptr_t)lock % 8 != 0)
    fail("shmem_set_lock: alignment error: the lock %p is not 8-byte aligned", (void *)lock);
  const size_t offset = symmetric_offset(l, "shmem_set_lock", "lock", lock, 8, 0);
  unsigned spins = 0;
  while (wire_swap(0, offset, 1) != 0) wire_relax(&spins);
}

void shmem_clear_lock(long *lock) {
  const struct t3d_local *l = started("shmem_clear_lock");
  const size_t offset = symmetric_offset(l, "shmem_clear_lock", "lock", lock, 8, 0);
  wire_quiet();  /* what the holder wrote is complete before the lock is free */
  if (wire_swap(0, offset, 0) != 1)
    fail("shmem_clear_lock: the lock %p is not held", (void *)lock);
}

void _t3d_barrier(void) {
  started("barrier");
  wire_quiet();
  wire_barrier();
}

/* Remote writes are visible to this PE's loads whenever it calls into the
 * layer (README): the cache calls only make them land. */
void shmem_set_cache_inv(void) { wire_land(); }
void shmem_clear_cache_inv(void) {}
void shmem_udcflush(void) {
  unsigned spins = 0;
  wire_relax(&spins);
}

void shmem_global_exit(int status) { wire_exit_job(status); }

void shmem_finalize(void) {
  struct t3d_local *l = started("shmem_finalize");
  wire_quiet();
  wire_barrier();
  wire_finalize();
  free(l->blocks);
  l->blocks = NULL;
  l->started = 0;
}
