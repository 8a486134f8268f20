/* The ring and the asynchronous swap of node.c's program, K&R style. */
#include <aclmpl_cmmd.h>

#include "era.h"

#define LEFT ((CMMD_self_address() + CMMD_partition_size() - 1) % CMMD_partition_size())
#define RIGHT ((CMMD_self_address() + 1) % CMMD_partition_size())

/* Every node's token goes once round the ring, each node adding its number: the sum 0..P-1. */
ring_token() {
  int token = 0, in, lap;
  for (lap = 0; lap < CMMD_partition_size(); lap++) {
    token += CMMD_self_address();
    CMMD_send_and_receive(LEFT, TAG_RING, (char *)&in, sizeof in, RIGHT, TAG_RING,
                          (char *)&token, sizeof token);
    token = in;
  }
  return token;
}


static void note(mcb, arg) CMMD_mcb mcb; void *arg; { ++*(int *)arg; }

/* Swap a block with both neighbours asynchronously: receives posted first, handlers count. */
swap_blocks() {
  int out[200], from_left[200], from_right[200], i, count = 0;
  CMMD_mcb m[4];
  for (i = 0; i < 200; i++) out[i] = CMMD_self_address() * 1000 + i;
  m[0] = CMMD_receive_async(LEFT, TAG_SWAP, (char *)from_left, sizeof from_left, note, &count);
  m[1] = CMMD_receive_async(RIGHT, TAG_SWAP + 1, (char *)from_right, sizeof from_right, note, &count);
  m[2] = CMMD_send_async(RIGHT, TAG_SWAP, (char *)out, sizeof out, 0, 0);
  m[3] = CMMD_send_async(LEFT, TAG_SWAP + 1, (char *)out, sizeof out, 0, 0);
  for (i = 0; i < 4; i++) { CMMD_msg_wait(m[i]); CMMD_free_mcb(m[i]); }
  if (count != 2) return 0;
  for (i = 0; i < 200; i++)
    if (from_left[i] != LEFT * 1000 + i || from_right[i] != RIGHT * 1000 + i) return 0;
  return 1;
}

/* The out-of-line copy of era.h's extern inline helper, for calls not inlined. */
row_value(r, c) int r, c; { return (r * 31 + c * 7) % 101; }
