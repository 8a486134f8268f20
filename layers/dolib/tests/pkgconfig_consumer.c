/* A C program built the way an outside project would build it against an installed DOLIB:
 * cc prog.c $(pkg-config --cflags --libs dolib-smp) -lsplitc-main -lstdc++ (pkgconfig.sh). */
#include <dolib.h>
#include <splitc.h>
#include <stdio.h>
int splitc_main(int argc, char** argv) {
  (void)argc; (void)argv;
  do_init(MYPROC, PROCS);
  int A; do_declare(&A, "A", 100, "int", 4, 2);
  int i = 42, v = 7; if (MYPROC == 0) do_scatter(A, 1, &i, &v);
  do_gsync(); int w = 0; do_gather(A, 1, &i, &w);
  if (MYPROC == 0) printf(w == 7 ? "PASS dolib_pkgconfig\n" : "dolib_pkgconfig: wrong value %d\n", w);
  do_destroy(A); return 0;
}
