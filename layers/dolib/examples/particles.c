/* Lagrangian particle tracking on DOLIB (the seed's motivating use, sections 2 and 4.1): a
 * flow field on a G x G periodic grid (two global double arrays, u and v) is read-only during
 * a time step, and every processor moves its particles through it, gathering the field at
 * each particle's cell (random index lists: many readers of the same read-only pages). With
 * caching on, the pages a processor reads stay in its cache for the whole step; at the end
 * of the step the cache is purged (do_disable), the field is recomputed and re-enabled.
 * The run is done twice, caching off and on: the particles must end in the same places
 * (the cache only changes where values come from), and the gather times are printed.
 *
 *   splitc-run -n P particles [G] [particles per processor] [steps] [cache pages]
 *   (default 256 4000 8 2048) */
#include <dolib.h>
#include <splitc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The field at step s: a rotating pattern. */
static double field_u(int x, int y, int g, int s) { (void)x; return sin(6.2831853 * (y + s) / g); }
static double field_v(int x, int y, int g, int s) { (void)y; return cos(6.2831853 * (x - s) / g); }

/* Writes this processor's share of the field at step s (whole rows, contiguous). */
static void compute_field(int U, int V, int g, int s) {
  const int P = PROCS, me = MYPROC;
  double* row = malloc(sizeof(double) * (size_t)g);
  for (int y = me; y < g; y += P) {
    for (int x = 0; x < g; ++x) row[x] = field_u(x, y, g, s);
    do_bscatter(U, g, y * g, row);
    for (int x = 0; x < g; ++x) row[x] = field_v(x, y, g, s);
    do_bscatter(V, g, y * g, row);
  }
  free(row);
  do_gsync();
}

/* Tracks the particles for `steps` steps; returns a checksum of their final positions and
 * adds the time spent gathering to *tgather. */
static double track(int g, int np, int steps, int cache, double* tgather) {
  const int me = MYPROC;
  int U, V;
  do_declare(&U, "u", g * g, "double", 64, 2);
  do_declare(&V, "v", g * g, "double", 64, 2);
  double* px = malloc(sizeof(double) * (size_t)np);
  double* py = malloc(sizeof(double) * (size_t)np);
  int* cell = malloc(sizeof(int) * (size_t)np);
  double* u = malloc(sizeof(double) * (size_t)np);
  double* v = malloc(sizeof(double) * (size_t)np);
  unsigned long long r = 88172645463325252ull + (unsigned long long)me * 7919u;
  for (int k = 0; k < np; ++k) {
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    px[k] = (double)(r % 1000000) / 1000000.0 * g;
    r ^= r << 13; r ^= r >> 7; r ^= r << 17;
    py[k] = (double)(r % 1000000) / 1000000.0 * g;
  }
  const double dt = 0.7;
  for (int s = 0; s < steps; ++s) {
    compute_field(U, V, g, s);
    if (cache) {
      do_enable(U);
      do_enable(V);
    }
    /* Several substeps per step: the field is read-only meanwhile. */
    for (int sub = 0; sub < 4; ++sub) {
      for (int k = 0; k < np; ++k) cell[k] = ((int)py[k] % g) * g + ((int)px[k] % g);
      const double t0 = now();
      const int ru = do_agather(U, np, cell, u);
      do_gather(V, np, cell, v);
      do_wait(ru);
      *tgather += now() - t0;
      for (int k = 0; k < np; ++k) {
        px[k] = fmod(px[k] + dt * u[k] + g, (double)g);
        py[k] = fmod(py[k] + dt * v[k] + g, (double)g);
      }
    }
    if (cache) {
      do_disable(U);  /* the field changes: purge its pages */
      do_disable(V);
    }
    do_gsync();  /* everyone has read this step's field */
  }
  double sum = 0;
  for (int k = 0; k < np; ++k) sum += px[k] * 1.000001 + py[k];
  free(px); free(py); free(cell); free(u); free(v);
  do_destroy(U);
  do_destroy(V);
  return sum;
}

int splitc_main(int argc, char** argv) {
  do_init(MYPROC, PROCS);
  const int g = argc > 1 ? atoi(argv[1]) : 256;
  const int np = argc > 2 ? atoi(argv[2]) : 4000;
  const int steps = argc > 3 ? atoi(argv[3]) : 8;
  const int pages = argc > 4 ? atoi(argv[4]) : 2048;
  do_setchsize(pages);
  double t_off = 0, t_on = 0;
  const double s_off = track(g, np, steps, 0, &t_off);
  const double s_on = track(g, np, steps, 1, &t_on);
  t_off = all_reduce_to_all_dmax(t_off);
  t_on = all_reduce_to_all_dmax(t_on);
  const int same = all_reduce_to_all_min(s_off == s_on);
  long long st[5];
  do_getstats(st);
  if (MYPROC == 0) {
    printf("particles: %d processors, %dx%d field, %d particles each, %d steps x 4 substeps\n",
           PROCS, g, g, np, steps);
    printf("gather time (slowest processor): caching off %.4f s, on %.4f s (%.2fx)\n", t_off,
           t_on, t_on > 0 ? t_off / t_on : 0.0);
    printf("processor 0: %lld cache hits, %lld pages fetched, %lld evicted\n", st[2], st[3], st[4]);
    if (same) printf("PASS particles\n");
    else printf("particles: positions differ between caching off and on\n");
  }
  return same ? 0 : 1;
}
