/* The era's way: K&R C (gnu89), implicit int, an extern inline helper in the header,
 * macros around the MPI constructs, the program in several files. */
#include "mpi.h"

#define NVALS 1000
#define SEND_TO(buf, n, to, tag) MPI_Send((buf), (n), MPI_INT, (to), (tag), MPI_COMM_WORLD)
#define RECV_ANY(buf, n, tag, st) \
  MPI_Recv((buf), (n), MPI_INT, MPI_ANY_SOURCE, (tag), MPI_COMM_WORLD, (st))
#define FAIL(msg) (fprintf(stderr, "rank %d: %s\n", me, (msg)), MPI_Abort(MPI_COMM_WORLD, 1))

extern inline value_of(who, i)
int who, i;
{
  return who * 100000 + i;
}

extern ring_round();
extern persistent_rounds();
