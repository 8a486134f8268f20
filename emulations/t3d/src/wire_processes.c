/* The T3D SHMEM emulation's substrate on processes of this host (wire.h):
 * the job's memory is one memfd made by the launcher (t3d_job_create,
 * include/mpp/mppexec.h) holding a header page and every PE's symmetric
 * heap. Each PE maps its own heap at the job's heap base (the same address
 * everywhere) and the whole file once more, through which it reaches the
 * other PEs' heaps: a put is a copy into the target's heap, a get a copy out
 * of it, a swap an atomic exchange on it; nothing runs on the target. */
#define _GNU_SOURCE
#include <mpp/mppexec.h>
#include <emulation_wait.h>

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "wire.h"

enum { header_bytes = 4096, error_exit_status = 70 };
static const uint64_t job_magic = 0x54334a4f42763031ull; /* "T3JOBv01" */

struct job_header {
  uint64_t magic;
  uint64_t npes;
  uint64_t heap_bytes;
  uint64_t heap_base;
  uint64_t barrier_arrived;    /* atomically */
  uint64_t barrier_generation; /* atomically */
};

static struct t3d_local local;
static struct job_header *job;     /* the header page */
static unsigned char *job_heaps;   /* every PE's heap, in PE order */

struct t3d_local *wire_local(void) { return &local; }

static size_t page_round(size_t bytes) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (bytes + page - 1) / page * page;
}

int t3d_job_create(int npes, size_t heap_bytes, uintptr_t heap_base) {
  if (npes < 1 || heap_bytes == 0 || heap_base == 0 || heap_base % (uintptr_t)sysconf(_SC_PAGESIZE)) {
    fprintf(stderr, "t3d_job_create: bad arguments (%d PEs, %zu bytes at %#lx)\n", npes, heap_bytes,
            (unsigned long)heap_base);
    return -1;
  }
  heap_bytes = page_round(heap_bytes);
  const int fd = memfd_create("splitc-t3d-job", 0);
  if (fd < 0) {
    fprintf(stderr, "t3d_job_create: memfd_create: %s\n", strerror(errno));
    return -1;
  }
  const struct job_header h = {job_magic, (uint64_t)npes, heap_bytes, heap_base, 0, 0};
  if (ftruncate(fd, (off_t)(header_bytes + (size_t)npes * heap_bytes)) != 0 ||
      pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
    fprintf(stderr, "t3d_job_create: cannot size the job's memory (%d PEs of %zu bytes): %s\n", npes,
            heap_bytes, strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

static void fail_start(const char *what, const char *detail) __attribute__((noreturn));
static void fail_start(const char *what, const char *detail) {
  char message[512];
  snprintf(message, sizeof message, "start_pes: %s%s%s", what, detail ? ": " : "", detail ? detail : "");
  wire_fail(message);
}

static long env_number(const char *name, long fallback) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') return fallback;
  char *e = NULL;
  const long n = strtol(v, &e, 0);
  if (*e != '\0') fail_start("a variable of the job is not a number", name);
  return n;
}

void wire_start(struct t3d_local *l) {
  int fd = (int)env_number(T3D_JOB_FD_ENV, -1);
  l->pe = (int)env_number("SPLITC_MYPROC", 0);
  if (fd < 0) {
    /* Started without a job: a job of one PE (more need the launcher). */
    if (env_number("SPLITC_PROCS", 1) > 1)
      fail_start("this process is one of several but was not started by the T3D launcher", T3D_JOB_FD_ENV " is unset");
    fd = t3d_job_create(1, (size_t)env_number(T3D_HEAP_BYTES_ENV, T3D_DEFAULT_HEAP_BYTES),
                        T3D_DEFAULT_HEAP_BASE);
    if (fd < 0) fail_start("cannot make a job of one PE", NULL);
    l->pe = 0;
  }
  struct job_header h;
  if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h || h.magic != job_magic)
    fail_start("the job's memory is not a T3D job's", T3D_JOB_FD_ENV);
  l->npes = (int)h.npes;
  if (l->pe < 0 || l->pe >= l->npes) fail_start("SPLITC_MYPROC is not a PE of the job", NULL);
  const size_t total = header_bytes + (size_t)h.npes * h.heap_bytes;
  void *all = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  if (all == MAP_FAILED) fail_start("cannot map the job's memory", strerror(errno));
  void *heap = mmap((void *)(uintptr_t)h.heap_base, h.heap_bytes, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd,
                    (off_t)(header_bytes + (size_t)l->pe * h.heap_bytes));
  if (heap != (void *)(uintptr_t)h.heap_base) {
    char detail[160];
    snprintf(detail, sizeof detail, "cannot map the symmetric heap at %#lx: %s",
             (unsigned long)h.heap_base, heap == MAP_FAILED ? strerror(errno) : "the address is in use");
    fail_start("no symmetric heap", detail);
  }
  close(fd);
  job = all;
  job_heaps = (unsigned char *)all + header_bytes;
  l->heap = heap;
  l->heap_bytes = h.heap_bytes;
}

static unsigned char *heap_of(int pe) {
  return pe == local.pe ? local.heap : job_heaps + (size_t)pe * local.heap_bytes;
}

/* Copies are stores: in program order to every reader on this host (large
 * copies may use non-temporal stores, which the fence orders). */
void wire_put(int pe, size_t offset, const void *src, size_t len) {
  memmove(heap_of(pe) + offset, src, len);
#if defined(__x86_64__) || defined(__i386__)
  if (len >= 65536) __builtin_ia32_sfence();
#endif
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

void wire_get(int pe, size_t offset, void *dst, size_t len) {
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  memmove(dst, heap_of(pe) + offset, len);
}

long wire_swap(int pe, size_t offset, long value) {
  return __atomic_exchange_n((long *)(void *)(heap_of(pe) + offset), value, __ATOMIC_SEQ_CST);
}

void wire_fence(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
void wire_quiet(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void wire_land(void) { __atomic_thread_fence(__ATOMIC_ACQUIRE); }

/* Spin a little, then yield, then sleep: jobs run with more PEs than cores. */
void wire_relax(unsigned *spins) {
  const unsigned n = (*spins)++;
  if (n < 64) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else if (n < 256) {
    emulation_yield(50000);
  } else {
    const struct timespec t = {0, 50000};
    nanosleep(&t, NULL);
  }
}

void wire_wait_for_put(const char *what, unsigned *spins) {
  (void)what;
  wire_relax(spins);
}

/* A counter and a generation in the header: the last to arrive starts the next generation. */
void wire_barrier(void) {
  const uint64_t generation = __atomic_load_n(&job->barrier_generation, __ATOMIC_ACQUIRE);
  if (__atomic_add_fetch(&job->barrier_arrived, 1, __ATOMIC_ACQ_REL) == job->npes) {
    __atomic_store_n(&job->barrier_arrived, 0, __ATOMIC_RELAXED);
    __atomic_add_fetch(&job->barrier_generation, 1, __ATOMIC_RELEASE);
    return;
  }
  unsigned spins = 0;
  while (__atomic_load_n(&job->barrier_generation, __ATOMIC_ACQUIRE) == generation) wire_relax(&spins);
}

void wire_finalize(void) {}

void wire_fail(const char *message) {
  fflush(stdout);
  char line[768];
  const int n = local.npes > 0
                    ? snprintf(line, sizeof line, "splitc: processor %d of %d: T3D SHMEM: %s\n", local.pe,
                               local.npes, message)
                    : snprintf(line, sizeof line, "splitc: processor %s: T3D SHMEM: %s\n",
                               getenv("SPLITC_MYPROC") ? getenv("SPLITC_MYPROC") : "0", message);
  if (n > 0) {
    ssize_t w = write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
  }
  _exit(error_exit_status); /* the launcher ends the other PEs */
}

void wire_exit_job(int status) {
  fflush(stdout);
  fflush(stderr);
  _exit(status); /* the launcher ends the other PEs */
}
