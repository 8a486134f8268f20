/* A CM-5 node program as the era wrote them (with exchange.c): K&R definitions, implicit int,
 * a main that returns nothing, GNU89 extern inline helpers, macros around the calls, CMMD's
 * names from the one header it includes. Node 0 deals out rows of a table one-to-all with
 * CMMD_send_block; every node sums its rows; CMMD_reduce_int gives the total everywhere;
 * CMMD_bc_to_nodes spreads a checksum; exchange.c passes a token round a ring with
 * CMMD_send_and_receive and swaps blocks asynchronously. "PASS acl_era" on node 0. */
#include <aclmpl_cmmd.h>
#include <stdio.h>

#include "era.h"

#define ROWS_PER_NODE 5
#define ROW 64
#define ME CMMD_self_address()
#define NODES CMMD_partition_size()
#define FAIL(what) (printf("node %d: %s\n", ME, what), CMMD_error("%s", what))

static deal(rows) int rows[][ROW]; {
  int node, r, c, buf[ROWS_PER_NODE][ROW];
  for (node = 1; node < NODES; node++) {
    for (r = 0; r < ROWS_PER_NODE; r++)
      for (c = 0; c < ROW; c++) buf[r][c] = row_value(node * ROWS_PER_NODE + r, c);
    CMMD_send_block(node, TAG_DEAL, (char *)buf, sizeof buf);
  }
  for (r = 0; r < ROWS_PER_NODE; r++)
    for (c = 0; c < ROW; c++) rows[r][c] = row_value(r, c);
}

main(argc, argv) char **argv; {
  int rows[ROWS_PER_NODE][ROW], r, c, mine = 0, total, expected = 0, check;
  if (ME == 0) deal(rows);
  else {
    CMMD_receive_block(0, TAG_DEAL, (char *)rows, sizeof rows);
    if (CMMD_bytes_received() != sizeof rows) FAIL("short deal");
  }
  for (r = 0; r < ROWS_PER_NODE; r++)
    for (c = 0; c < ROW; c++) mine += rows[r][c];
  total = CMMD_reduce_int(mine, CMMD_combiner_add);
  for (r = 0; r < NODES * ROWS_PER_NODE; r++)
    for (c = 0; c < ROW; c++) expected += row_value(r, c);
  if (total != expected) FAIL("wrong total");
  check = ME == 0 ? total ^ 0x5a5a : 0;
  if (ME == 0) CMMD_bc_to_nodes((char *)&check, sizeof check);
  else CMMD_receive_bc_from_node((char *)&check, sizeof check);
  if (check != (expected ^ 0x5a5a)) FAIL("wrong broadcast");
  if (ring_token() != NODES * (NODES - 1) / 2) FAIL("wrong token");
  if (!swap_blocks()) FAIL("wrong swap");
  CMMD_sync_with_nodes();
  if (ME == 0) printf("PASS acl_era\n");
}
