/* work.sc: the work of each phase: every processor writes its cells into its right
 * neighbour's spread array, then checks what its left neighbour wrote. */
#include <split-c/split-c.h>
#include "phases.h"

/* The header's extern inline version inlines only: this is the function. */
int cell_value(int p, int i) { return p * 1000 + i; }

int fill_cells(cells) int *global cells;
{
  int i, right = (MYPROC + 1) % PROCS;
  int *global them = toglobal(right, tolocal(cells));
  for (i = 0; i < NCELLS; i++) PUT_CELL(them[i], cell_value(MYPROC, i));
  sync();
  return NCELLS;
}

int check_cells(mine) int *mine;
{
  int i, bad = 0, left = (MYPROC + PROCS - 1) % PROCS;
  for (i = 0; i < NCELLS; i++)
    if (mine[i] != cell_value(left, i)) bad++;
  return bad;
}
