// The main of CMMD programs built with <aclmpl_cmmd.h> (which renames theirs to
// aclmpl_cmmd_main): join the job, run the node program on every processor, leave. In the
// library as a member of its own, linked only into programs that have no main.
#include <aclmpl.h>

extern "C" int aclmpl_cmmd_main(int argc, char** argv);

int main(int argc, char** argv) {
  ACLMPL_init(&argc, &argv);
  (void)aclmpl_cmmd_main(argc, argv);
  ACLMPL_finalize();
  return 0;
}
