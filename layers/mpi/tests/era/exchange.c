/* Rounds of a ring with a wildcard receive, then a persistent pair (exchange.h). */
#include <stdio.h>
#include "exchange.h"

ring_round(me, np, round)
int me, np, round;
{
  int out[NVALS], in[NVALS], i, left;
  MPI_Status st;
  for (i = 0; i < NVALS; i++) out[i] = value_of(me, i + round);
  left = (me + np - 1) % np;
  if (me % 2 == 0) {
    SEND_TO(out, NVALS, (me + 1) % np, round);
    RECV_ANY(in, NVALS, round, &st);
  } else {
    RECV_ANY(in, NVALS, round, &st);
    SEND_TO(out, NVALS, (me + 1) % np, round);
  }
  if (st.MPI_SOURCE != left) FAIL("a ring value from the wrong neighbour");
  for (i = 0; i < NVALS; i++)
    if (in[i] != value_of(left, i + round)) FAIL("a wrong ring value");
  return 0;
}

persistent_rounds(me, np, n)
int me, np, n;
{
  int out, in, k, peer;
  MPI_Request r[2];
  if (np < 2 || me > 1) return 0;
  peer = 1 - me;
  MPI_Send_init(&out, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init(&in, 1, MPI_INT, peer, 99, MPI_COMM_WORLD, &r[1]);
  for (k = 0; k < n; k++) {
    out = value_of(me, k);
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (in != value_of(peer, k)) FAIL("a wrong persistent value");
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  return 0;
}

/* The out-of-line copy of exchange.h's extern inline helper, for calls not inlined (gnu89's
 * idiom: one file defines the function again without inline). */
value_of(who, i)
int who, i;
{
  return who * 100000 + i;
}
