/* phases.h: shared by both files, in the era's manner (gnu89): an `extern inline`
 * helper defined for real in work.sc, K&R declarations, macros around the constructs. */
#define NCELLS 64
#define SYNC() barrier()
#define PUT_CELL(g, v) (g) := (v)

extern inline int cell_value(int p, int i) { return p * 1000 + i; }

int fill_cells();       /* work.sc */
int check_cells();      /* work.sc */
