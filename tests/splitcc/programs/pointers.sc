/* Global and spread pointers through C's type system: typedefs, struct
 * members, whole-struct reads, writes and split-phase copies, pointers to
 * global pointers, arrays of them, functions taking and returning them,
 * casts between local, global and spread pointers, arithmetic, comparison
 * (with NULL too), every scalar type, compound assignment and ++/--,
 * atomics, an atomic procedure, all_bcast, bulk_store and the spread heap. Every processor works on its right
 * neighbour's data and checks the values. */
#include <split-c/split-c.h>
#include <stdio.h>
#include <string.h>

typedef struct point_t {
  double x, y;
  int tag;
  char name[8];
} point;

typedef point *global gpoint;          /* a typedef of a global pointer */
typedef int *spread spread_int;

struct cell {
  long count;
  unsigned short small;
  gpoint where;                        /* a member holding a global pointer */
  struct cell *global next;
};

point points[4];
struct cell cells[2];
int counters[8];
unsigned long long wide;
float ratio;
char letters[4];

static int failures;
#define EXPECT(cond) do { if (!(cond)) { printf("processor %d, line %d: %s\n", MYPROC, __LINE__, #cond); failures++; } } while (0)

/* An atomic procedure: runs on the owner of the global pointer, with the
 * local address. */
static void add_and_return(int *target, long amount)
{
  *target += (int)amount;
  atomic_return_i(*target);
}

static gpoint neighbour_point(int k) { return toglobal((MYPROC + 1) % PROCS, &points[k]); }
static double sum_x(gpoint p, int n)
{
  double s = 0;
  int i;
  for (i = 0; i < n; i++) s += p[i].x;
  return s;
}

int splitc_main(int argc, char **argv)
{
  int k, right = (MYPROC + 1) % PROCS;
  gpoint gp;
  point local, copy;
  struct cell *global gc;
  gpoint *global gpp;                  /* a global pointer to a global pointer */
  gpoint table[4];
  int *global gi;
  spread_int heap;
  void *global gv;

  for (k = 0; k < 4; k++) {
    points[k].x = MYPROC * 10 + k;
    points[k].y = -k;
    points[k].tag = MYPROC;
    sprintf(points[k].name, "p%d.%d", MYPROC, k);
  }
  cells[0].count = 100 + MYPROC;
  cells[0].small = 7;
  cells[0].where = toglobal(MYPROC, &points[2]);
  cells[0].next = toglobal(MYPROC, &cells[1]);
  cells[1].count = 200 + MYPROC;
  wide = 1ULL << 40 | MYPROC;
  ratio = 0.5f * MYPROC;
  strcpy(letters, "abc");
  barrier();

  /* members, whole structs, arrays of structs */
  gp = neighbour_point(0);
  EXPECT(toproc(gp) == right && gp->tag == right && gp->x == right * 10);
  local = *gp;
  EXPECT(local.x == right * 10 && strcmp(local.name, "p") > 0 && local.name[1] - '0' == right % 10);
  EXPECT(gp[3].y == -3 && (gp + 2)->x == right * 10 + 2 && (*(gp + 1)).x == right * 10 + 1);
  EXPECT(sum_x(gp, 4) == 4 * right * 10 + 6);
  copy := gp[1];
  sync();
  EXPECT(copy.x == right * 10 + 1 && copy.tag == right);
  for (k = 0; k < 4; k++) table[k] = gp + k;
  EXPECT(table[3]->x == right * 10 + 3 && table[3] - table[0] == 3 && table[1] > table[0]);
  EXPECT(&gp->y != NULL && (double *global)&gp->y != (double *global)&gp->x);

  /* a cell on the neighbour: long, unsigned short, a member global pointer,
   * a global pointer reached through a global pointer */
  gc = toglobal(right, &cells[0]);
  EXPECT(gc->count == 100 + right && gc->small == 7);
  EXPECT(gc->where->x == right * 10 + 2 && toproc(gc->where) == right);
  EXPECT(gc->next->count == 200 + right);
  gpp = &gc->where;
  EXPECT((*gpp)->tag == right && toproc(*gpp) == right);
  barrier();
  gc->count += 5;
  gc->small--;
  ++gc->next->count;
  barrier();
  EXPECT(cells[0].count == 105 + MYPROC && cells[0].small == 6 && cells[1].count == 201 + MYPROC);

  /* scalars of other types through global pointers */
  EXPECT(*(unsigned long long *global)toglobal(right, &wide) == (1ULL << 40 | right));
  EXPECT(*(float *global)toglobal(right, &ratio) == 0.5f * right);
  EXPECT(((char *global)toglobal(right, letters))[2] == 'c');

  /* casts: local to global and back, global to spread, void */
  gi = (int *global)&counters[3];
  EXPECT(toproc(gi) == MYPROC && (int *)gi == &counters[3] && tolocal(gi) == (void *)&counters[3]);
  gv = gi;
  EXPECT((int *global)gv == gi);
  gi = NULL;
  EXPECT(gi == NULL && !gi);
  gi = toglobal(right, &counters[0]);
  EXPECT(gi);

  /* split-phase put, signalling store, atomics */
  barrier();
  gi[1] := MYPROC + 1;
  sync();
  gi[2] :- 40 + MYPROC;
  store_sync(sizeof(int));
  fetch_and_add(&gi[4], 1);
  barrier();
  k = (MYPROC + PROCS - 1) % PROCS;
  EXPECT(counters[1] == k + 1 && counters[2] == 40 + k && counters[4] == 1);

  /* an atomic procedure, a broadcast, a bulk store with its byte count */
  barrier();
  k = atomic_i(add_and_return, &gi[5], 10);
  EXPECT(k == 10);
  barrier();
  EXPECT(counters[5] == 10);
  k = all_bcast(MYPROC == 0 ? 1234 : -1);
  EXPECT(k == 1234);
  {
    int block[2];
    block[0] = MYPROC;
    block[1] = -MYPROC;
    bulk_store(&gi[6], block, sizeof block);
    store_sync(sizeof block);
    k = (MYPROC + PROCS - 1) % PROCS;
    EXPECT(counters[6] == k && counters[7] == -k);
  }
  barrier();

  /* the spread heap: one int per processor, then a spread walk */
  heap = all_spread_malloc(PROCS, sizeof(int));
  heap[MYPROC] = MYPROC * MYPROC;
  barrier();
  EXPECT(heap[right] == right * right && toproc(heap + right) == right);
  barrier();
  all_spread_free(heap);

  failures = all_reduce_to_all_add(failures);
  on_one { printf(failures ? "FAIL pointers (%d)\n" : "PASS pointers\n", failures); }
  return failures != 0;
}
