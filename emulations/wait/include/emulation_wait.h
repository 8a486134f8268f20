/* How an emulated vendor layer waits on processes of one host once spinning has not paid:
 * it yields the core, unless yields are slow. A yield hands the core to another runnable
 * process; among the job's own processes that is a turn of microseconds, but a program that
 * never yields (a build, another job, the suite's other tests) then runs out its whole time
 * slice, milliseconds. So each yield is timed: one that kept this process off the CPU for more
 * than 0.5 ms makes every wait of the layer sleep instead of yielding for the next 10 ms.
 * This is the porting kit's rule (include/splitc/port/backoff.hpp: port::yield_if_it_pays;
 * docs/running.md, "Beside other programs"), in C for the layers below splitc, which do not
 * depend on the library above them. The window is per translation unit: each layer's waits
 * are in one source (the CM-5's wire_procs.c, the T3D's wire_processes.c, the NX and MPL
 * wire's wire_mpi.c). */
#ifndef EMULATION_WAIT_H
#define EMULATION_WAIT_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

enum {
  emulation_slow_yield_ns = 500000,          /* the kit's slow_yield_ns */
  emulation_slow_yield_window_ns = 10000000  /* the kit's slow_yield_window_ns */
};

static inline uint64_t emulation_monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Until when this layer's waits sleep instead of yielding (monotonic ns). */
static inline uint64_t *emulation_yields_slow_until(void) {
  static uint64_t until;
  return &until;
}

/* Yield the core, or sleep `sleep_ns` (< 1 s) instead while yields are slow. */
static inline void emulation_yield(long sleep_ns) {
  uint64_t *until = emulation_yields_slow_until();
  const uint64_t before = emulation_monotonic_ns();
  if (before < __atomic_load_n(until, __ATOMIC_RELAXED)) {
    const struct timespec t = {0, sleep_ns};
    nanosleep(&t, NULL);
    return;
  }
  sched_yield();
  const uint64_t after = emulation_monotonic_ns();
  if (after - before > emulation_slow_yield_ns)
    __atomic_store_n(until, after + emulation_slow_yield_window_ns, __ATOMIC_RELAXED);
}

#endif
