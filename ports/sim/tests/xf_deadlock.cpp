// A job that cannot go on (sim): processor 0 waits in store_sync for bytes
// nobody stores, the others wait for it in finalize's barrier. The sim must
// report the deadlock, naming each processor's wait, and end the job (status 70).
#include <splitc/splitc.hpp>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (splitc::myproc() == 0) splitc::store_sync(8);
  splitc::finalize();
  return 0;
}
