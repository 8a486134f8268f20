/* Tags and the two routines exchange.c gives node.c (no prototypes, as then). */
#define TAG_DEAL 1
#define TAG_RING 2
#define TAG_SWAP 3
int ring_token();
int swap_blocks();

/* A helper inlined where it is used; exchange.c holds its out-of-line copy (gnu89's idiom). */
extern inline int row_value(r, c) int r, c; { return (r * 31 + c * 7) % 101; }
