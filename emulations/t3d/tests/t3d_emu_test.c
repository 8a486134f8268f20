/* The T3D SHMEM emulation's own tests, one subcommand per property, on
 * either substrate (processes: run by splitc-run-t3d; the sim engine: by
 * splitc-run-sim, this program built with the sim wire). PE 0 prints
 * "PASS t3d_emu" when the property holds; a failed check names the PE and
 * exits non-zero.
 *
 *   order      successive puts from one PE to another arrive in order: a data
 *              word, then a flag, no fence; the receiver sees the data whenever
 *              it sees the flag
 *   transfer   word, 32-bit and byte transfers to and from every PE; shmalloc
 *              gives one address on every PE (on the sim engine, where every
 *              PE's heap has its own address, one offset in every heap);
 *              shfree's space is reused
 *   swaplock   shmem_swap returns each old value exactly once; shmem_set_lock
 *              excludes: no two PEs are inside at once
 *   bad_target / bad_static / bad_align / bad_pe
 *              a put to a stack address, to static data, a misaligned
 *              shmem_put, a put to a PE that does not exist: the job ends
 *              with the layer's error naming the PE
 *   stall      PE 1 prints "stalled pid N" and waits in barrier() forever (the
 *              others too): a test kills it and expects the job to end */
#include <mpp/shmem.h>
#ifdef SPLITC_SIM_SUBSTRATE
#include <splitc/sim_engine.h>
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One place of the symmetric heap on two PEs: the same address, or on the sim engine the same
 * offset from each PE's heap (docs/sim.md, "P segments, P addresses"). */
static int same_place(const void *a, const void *b) {
#ifdef SPLITC_SIM_SUBSTRATE
  void *arena;
  size_t stride;
  splitc_sim_segment_places(&arena, &stride);
  return (((uintptr_t)a - (uintptr_t)arena) & (stride - 1)) == (((uintptr_t)b - (uintptr_t)arena) & (stride - 1));
#else
  return a == b;
#endif
}

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "t3d_emu_test: PE %d: %s\n", _my_pe(), what);
    fflush(stderr);
    shmem_global_exit(1);
  }
}

enum { rounds = 2000, lock_rounds = 200 };

static void test_order(void) {
  const int me = _my_pe(), n = _num_pes();
  long *data = shmalloc(sizeof(long) * rounds);
  long *flag = shmalloc(sizeof(long));
  *flag = 0;
  barrier();
  const int to = (me + 1) % n;
  for (long k = 0; k < rounds; ++k) {
    const long value = k * 7 + me, next = k + 1;
    shmem_put(&data[k], &value, 1, to);
    shmem_put(flag, &next, 1, to);  /* no fence: the T3D keeps them in order */
  }
  const int from = (me + n - 1) % n;
  long seen = 0;
  while (seen < rounds) {
    shmem_wait(flag, seen);
    const long now = *(volatile long *)flag;
    check(now > seen && now <= rounds, "the flag went backwards or too far");
    for (long k = seen; k < now; ++k) check(data[k] == k * 7 + from, "a flag arrived before its data");
    seen = now;
  }
  barrier();
}

static void test_transfer(void) {
  const int me = _my_pe(), n = _num_pes();
  long *words = shmalloc(sizeof(long) * 64);
  int32_t *halves = shmalloc(sizeof(int32_t) * 64);
  unsigned char *bytes = shmalloc(256);
  void **addresses = shmalloc(sizeof(void *) * 3);
  addresses[0] = words;
  addresses[1] = halves;
  addresses[2] = bytes;
  for (int i = 0; i < 64; ++i) {
    words[i] = me * 1000 + i;
    halves[i] = -1;
  }
  memset(bytes, 0, 256);
  barrier();
  for (int pe = 0; pe < n; ++pe) {
    void *theirs[3];
    shmem_get((long *)(void *)theirs, (const long *)(void *)addresses, 3, pe);
    check(same_place(theirs[0], words) && same_place(theirs[1], halves) && same_place(theirs[2], bytes),
          "shmalloc gave different addresses on different PEs");
    long got[64];
    shmem_get(got, words, 64, pe);
    for (int i = 0; i < 64; ++i) check(got[i] == pe * 1000 + i, "shmem_get read wrong words");
  }
  /* 32-bit words into the next PE; odd bytes at odd offsets into the previous one. */
  int32_t mine[64];
  for (int i = 0; i < 64; ++i) mine[i] = me * 100 + i;
  shmem_put32(&halves[0], mine, 64, (me + 1) % n);
  unsigned char text[7] = {1, 2, 3, 4, 5, 6, (unsigned char)me};
  shmem_putmem(bytes + 3, text, sizeof text, (me + n - 1) % n);
  barrier();
  const int left = (me + n - 1) % n, right = (me + 1) % n;
  for (int i = 0; i < 64; ++i) check(halves[i] == left * 100 + i, "shmem_put32 wrote wrong words");
  check(bytes[2] == 0 && bytes[3] == 1 && bytes[8] == 6 && bytes[9] == right && bytes[10] == 0,
        "shmem_putmem wrote wrong bytes");
  unsigned char back[7];
  shmem_getmem(back, bytes + 3, sizeof back, left);
  check(back[6] == me, "shmem_getmem read wrong bytes");
  /* shfree's space comes back: the same sequence of calls, the same addresses. */
  barrier();
  shfree(bytes);
  unsigned char *again = shmalloc(200);
  check(again == bytes, "shmalloc did not reuse the freed block");
  barrier();
}

static void test_swaplock(void) {
  const int me = _my_pe(), n = _num_pes();
  long *word = shmalloc(sizeof(long));
  long *lock = shmalloc(sizeof(long));
  long *owner = shmalloc(sizeof(long));
  long *olds = shmalloc(sizeof(long) * (size_t)n);
  *word = -1;
  *lock = 0;
  barrier();
  /* Every PE swaps its number into PE 0's word: the old values form one chain. */
  const long old = shmem_swap(word, me, 0);
  for (int pe = 0; pe < n; ++pe) shmem_put(&olds[me], &old, 1, pe);
  barrier();
  if (me == 0) {
    long last;
    shmem_get(&last, word, 1, 0);
    int seen_start = 0;
    for (int pe = 0; pe < n; ++pe) {
      if (olds[pe] == -1) ++seen_start;
      for (int q = pe + 1; q < n; ++q) check(olds[pe] != olds[q], "shmem_swap returned an old value twice");
      check(olds[pe] != last, "the last value swapped in was also returned");
    }
    check(seen_start == 1, "shmem_swap did not return the initial value exactly once");
  }
  barrier();
  /* Mutual exclusion: inside the lock, PE 0's owner word is free (-1) when we
   * take it and still ours when we give it back; the holders are counted. */
  *owner = -1;
  barrier();
  for (int k = 0; k < lock_rounds; ++k) {
    shmem_set_lock(lock);
    check(shmem_swap(owner, me, 0) == -1, "two PEs held the lock at once");
    check(shmem_swap(owner, -1, 0) == me, "another PE wrote the owner word while we held the lock");
    shmem_clear_lock(lock);
  }
  barrier();
}

static long static_word;

int main(int argc, char **argv) {
  start_pes(0);
  const char *test = argc > 1 ? argv[1] : "";
  const int me = _my_pe(), n = _num_pes();
  long local_word = 0;
  const long one = 1;
  long *heap_word = shmalloc(2 * sizeof(long));
  barrier();
  if (strcmp(test, "order") == 0) {
    test_order();
  } else if (strcmp(test, "transfer") == 0) {
    test_transfer();
  } else if (strcmp(test, "swaplock") == 0) {
    test_swaplock();
  } else if (strcmp(test, "bad_target") == 0) {
    if (me == 1) shmem_put(&local_word, &one, 1, n - 1);
    barrier();
  } else if (strcmp(test, "bad_static") == 0) {
    if (me == 1) shmem_put(&static_word, &one, 1, n - 1);
    barrier();
  } else if (strcmp(test, "bad_align") == 0) {
    if (me == 1) shmem_put((long *)(void *)((char *)heap_word + 4), &one, 1, n - 1);
    barrier();
  } else if (strcmp(test, "bad_pe") == 0) {
    if (me == 1) shmem_put(heap_word, &one, 1, n);
    barrier();
  } else if (strcmp(test, "stall") == 0) {
    if (me == 1) {
      printf("stalled pid %ld\n", (long)getpid());
      fflush(stdout);
      for (;;) pause();
    }
    barrier();
  } else {
    fprintf(stderr, "usage: t3d_emu_test order|transfer|swaplock|bad_target|bad_static|bad_align|bad_pe|stall\n");
    return 2;
  }
  if (me == 0) printf("PASS t3d_emu\n");
  fflush(stdout);
  shmem_finalize();
  return 0;
}
