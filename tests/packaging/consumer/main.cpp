// Consumer of an installed splitc: built by tests/packaging through
// find_package(splitc) + splitc::splitc, and with plain pkg-config flags; run
// alone and under the installed splitc-run -n 2. Besides a local write and
// read, each processor puts and stores into its right neighbour's spread
// heap: on a one-sided backend those calls are the layer's own, inlined into
// this program (so its link line must carry the layer's library).
#include <splitc/splitc.hpp>

#include <cstdio>

// (splitc/backend.hpp stops the build if the flags named no backend.)

namespace {
struct cell {
  long put_here;
  long stored_here;
};
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), procs = splitc::procs();
  const int right = (me + 1) % procs, left = (me + procs - 1) % procs;
  int x = 0;
  splitc::global_ptr<int> g = splitc::toglobal(me, &x);
  splitc::write(g, 42);
  const int v = splitc::read(g);

  // Element q of the spread array lives on processor q, at the same address
  // on every processor.
  auto cells = splitc::all_spread_malloc<cell>(static_cast<std::size_t>(procs));
  cell* mine = (cells + me).local();
  splitc::put(splitc::global_ptr<long>(right, &mine->put_here), 100L + me);
  splitc::sync();
  splitc::store(splitc::global_ptr<long>(right, &mine->stored_here), 200L + me);
  splitc::all_store_sync();  // a barrier too: the puts have landed as well
  const long put_got = mine->put_here, stored_got = mine->stored_here;
  splitc::barrier();
  splitc::all_spread_free(cells);
  splitc::finalize();
  if (v != 42 || put_got != 100 + left || stored_got != 200 + left) {
    std::fprintf(stderr,
                 "consumer FAILED on processor %d: read %d (42 expected), put %ld (%d), "
                 "store %ld (%d)\n",
                 me, v, put_got, 100 + left, stored_got, 200 + left);
    return 1;
  }
  std::puts("consumer ok");
  return 0;
}
