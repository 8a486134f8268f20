/* era.h: what every file of the program includes, written as the era wrote
 * it for GCC 2.x (gnu89): an `extern inline` helper whose real definition is
 * in util.sc, a common variable defined in every file, K&R declarations,
 * and macros around the Split-C constructs. */
#define NKEYS 600               /* keys in the whole job, whatever PROCS */
#define KEYRANGE 1009
#define CAP NKEYS               /* room for every key on one processor */

#define STORE(g, v) (g) :- (v)
#define GET(l, g) (l) := (g)
#define FAIL(what) { printf("FAIL sort: processor %d: %s\n", MYPROC, what); exit(1); }
#define CHECK(c, what) if (!(c)) FAIL(what)

extern inline int key_of(int i) { return (int)((i * 7919L + 13) % KEYRANGE); }
extern inline int bucket_of(int key) { return key * PROCS / KEYRANGE; }

int twice();                    /* util.sc: a file-scope `inline` definition */
int counted();
int ncounted;                   /* a common symbol: defined in every file */
