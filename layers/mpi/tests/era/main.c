/* An MPI program as 1995 wrote them (exchange.h): main with implicit int, K&R, no prototypes
 * of its own. Prints "PASS mpi_era" on rank 0. */
#include <stdio.h>
#include "exchange.h"

main(argc, argv)
int argc;
char **argv;
{
  int me, np, round, total, one = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  for (round = 0; round < 20; round++) ring_round(me, np, round);
  persistent_rounds(me, np, 100);
  MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (total != np) FAIL("a wrong sum");
  if (me == 0) printf("PASS mpi_era\n");
  MPI_Finalize();
  return 0;
}
