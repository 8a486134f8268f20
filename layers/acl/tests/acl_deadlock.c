/* Misuse that must end the job with a verdict, never a hang (layers/acl/README.md):
 *   cross      processors 0 and 1 ACLMPL_send_block to each other (the seed's rendezvous
 *              deadlock, CMMD's too): the layer ends the job naming both sends;
 *   unmatched  processor 0 waits in ACLMPL_receive_block for a message no one sends, the others
 *              in a barrier: on the sim, the engine's deadlock report names the wait;
 *   bad_node   a send to a processor that does not exist. */
#include <aclmpl.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "cross";
  int me, word = 42;
  ACLMPL_init(&argc, &argv);
  me = ACLMPL_self_address();
  if (strcmp(mode, "cross") == 0) {
    if (me < 2) ACLMPL_send_block(1 - me, 5, &word, (int)sizeof word);
  } else if (strcmp(mode, "unmatched") == 0) {
    if (me == 0) ACLMPL_receive_block(ACLMPL_partition_size() - 1, 3, &word, (int)sizeof word);
  } else if (strcmp(mode, "bad_node") == 0) {
    if (me == 0) ACLMPL_send_block(ACLMPL_partition_size(), 0, &word, (int)sizeof word);
  }
  ACLMPL_sync_with_nodes();
  ACLMPL_finalize();
  return 0;
}
