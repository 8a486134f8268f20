/* Expected failures of the C interface: processor 1 makes one bad call (named
 * by argv[1]) while the others wait in a barrier; the job must end with a
 * message naming processor 1, the call the program made and the bad value
 * (tests/c_interface/CMakeLists.txt gives the expected message). */
#include <splitc.h>

#include <stdio.h>
#include <string.h>

static double word; /* room for the widest value the calls below move */
static Counter received; /* a store counter: static, the same address everywhere */

static void procedure(int *target) { *target += 1; }

static void bad_call(const char *which) {
  char buf[16];
  Counter ctr = SPLITC_COUNTER_INIT;
  if (strcmp(which, "store_sync_ctr") == 0) store_sync_ctr(-4, &received, &ctr);
  if (strcmp(which, "store_sync") == 0) store_sync(-8);
  if (strcmp(which, "is_store_sync") == 0) (void)is_store_sync(-1);
  if (strcmp(which, "i_read") == 0) (void)__i_read(toglobal(PROCS + 1, &word));
  if (strcmp(which, "d_store_ctr") == 0) __d_store_ctr(toglobal(-1, &word), 1.0, &received, &ctr);
  if (strcmp(which, "bulk_get_ctr") == 0) bulk_get_ctr(buf, toglobal(0, &word), -1, &ctr);
  if (strcmp(which, "bulk_store_ctr") == 0)
    bulk_store_ctr(toglobal(0, &word), buf, -16, &received, &ctr);
  if (strcmp(which, "spread_malloc") == 0) (void)spread_malloc(-3, 4);
  if (strcmp(which, "team_all_gatherv_ctr") == 0) {
    const int counts[2] = {4, -4}; /* the world's team: PROCS is 2 */
    team_all_gatherv_ctr(splitc_team_world(), buf, 4, buf, counts, &ctr);
  }
  if (strcmp(which, "atomic_i") == 0)
    (void)splitc_atomic_call_i((splitc_atomic_fn)procedure, toglobal(0, &word), 9);
  fprintf(stderr, "xf_c_counts: '%s' did not fail\n", which);
}

int splitc_main(int argc, char **argv) {
  if (argc < 2) return 2;
  barrier();
  if (MYPROC == 1 || PROCS == 1) bad_call(argv[1]);
  barrier();
  return 1; /* not reached when the call failed as it must */
}
