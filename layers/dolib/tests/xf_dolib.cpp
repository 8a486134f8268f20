// DOLIB's errors (README "Errors"): each case ends the job with a message naming the
// processor, the call and the value. The case is the first argument; processor P-1 errs.
#include <dolib.h>

#include <splitc/splitc.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  const char* what = argc > 1 ? argv[1] : "";
  const bool culprit = me == P - 1;
  if (std::strcmp(what, "noinit") == 0) {
    if (culprit) {
      double d;
      int i = 0;
      do_gather(1, 1, &i, &d);
    }
    splitc::barrier();
  }
  do_init(me, P);
  int A = 0;
  do_declare(&A, "A", 100, "double", 8, 2);
  std::vector<double> buf(200);
  if (std::strcmp(what, "index") == 0 && culprit) {
    int list[3] = {0, 99, 100};
    do_gather(A, 3, list, buf.data());
  }
  if (std::strcmp(what, "negative") == 0 && culprit) {
    int list[2] = {5, -1};
    do_scatter(A, 2, list, buf.data());
  }
  if (std::strcmp(what, "range") == 0 && culprit) do_bgather(A, 10, 95, buf.data());
  if (std::strcmp(what, "descriptor") == 0 && culprit) {
    int i = 0;
    do_gather(A + 7, 1, &i, buf.data());
  }
  if (std::strcmp(what, "destroyed") == 0) {
    do_destroy(A);
    if (culprit) {
      int i = 0;
      do_scatter(A, 1, &i, buf.data());
    }
  }
  // do_destroy is collective: called by one processor only, it meets the others' finalize.
  if (std::strcmp(what, "destroyone") == 0 && culprit) do_destroy(A);
  if (std::strcmp(what, "type") == 0) {
    int B = 0;
    do_declare(&B, "B", 10, culprit ? "float" : "double", 1, 1);
  }
  if (std::strcmp(what, "wait2") == 0 && culprit) {
    const int r = do_bgather(A, 10, 0, buf.data());
    do_wait(r);
    do_wait(r);
  }
  if (std::strcmp(what, "nullbuf") == 0 && culprit) {
    int list[4] = {0, 1, 2, 3};
    do_gather(A, 4, list, nullptr);
  }
  if (std::strcmp(what, "nulllist") == 0 && culprit) do_gather(A, 4, nullptr, buf.data());
  if (std::strcmp(what, "nulldeclare") == 0 && culprit) do_declare(nullptr, "C", 10, "double", 1, 1);
  if (std::strcmp(what, "axpbytype") == 0 && culprit) {
    int i = 0, x = 1;
    do_iaxpby(A, 1, &i, &x, 1, 1);
  }
  do_gsync();
  std::printf("no error raised for case '%s'\n", what);
  splitc::finalize();
  return 0;
}
