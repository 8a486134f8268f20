// A processor that dies ends the whole job with a clear message, no hang.
//
//   mpi_failure fatal   the last processor makes a splitc error (a read from
//                       a processor that does not exist)
//   mpi_failure exit    the last processor calls std::exit(3)
//   mpi_failure kill    the last processor is killed by SIGKILL
//   mpi_failure segv    the last processor dereferences a null pointer
//   mpi_failure return  every processor returns from main without finalize
//   mpi_failure foreign [header|tag|compact]
//                       the last processor sends processor 0 a message that is
//                       not a splitc packet on the backend's own communicator:
//                       a packet whose header names no processor, a message
//                       on a tag the backend does not use, or a compact
//                       packet (header in the tag) of the wrong length
//
// Meanwhile the others wait for it: in a barrier, or for a read from it.
#include "mpi_test.hpp"

#include <mpi.h>
#include <signal.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {
volatile int* volatile nowhere = nullptr;
long cell = 42;
/// Set on processor 0 by the victim's message sent after the foreign one: MPI delivers the
/// two in order, so processor 0 meets the foreign one while it polls for this.
volatile bool marked = false;
void on_mark(const splitc::am_message&) { marked = true; }
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::string_view mode = argc > 1 ? argv[1] : "fatal";
  const int me = splitc::myproc();
  const int P = splitc::procs();
  const int victim = P - 1;

  // Some traffic first, so the failure meets a working job.
  for (int q = 0; q < P; ++q) CHECK(splitc::read(splitc::toglobal(q, &cell)) == 42);
  splitc::barrier();

  if (mode == "return") return 0;  // no finalize anywhere
  if (mode == "foreign") {
    const splitc::handler_id mark = splitc::register_handler(on_mark);
    const std::string_view kind = argc > 2 ? argv[2] : "header";
    if (me == victim && P > 1) {
      unsigned char junk[24] = {};
      int tag = splitc::backends::mpi::packet_tag;
      if (kind == "header") {  // a header whose source field names no processor
        const int source = 12345;
        std::memcpy(junk + 12, &source, sizeof source);
      } else if (kind == "tag") {
        tag = 7;
      } else if (kind == "compact") {
        // 24 bytes, where the tag announces 1 word (src/packet.hpp's
        // compact_tag: bit 24, handler 0, a reply, 1 argument word)
        tag = (1 << 24) | 1;
      } else {
        CHECK_MSG(false, "unknown foreign message {}", kind);
      }
      const MPI_Comm comm = MPI_Comm_f2c(mpitest::backend().communicator_fortran());
      MPI_Send(junk, sizeof junk, MPI_BYTE, 0, tag, comm);
      splitc::am_request(0, mark);
    }
    // (Not the barrier alone: between processors of one host it goes through shared memory,
    // not behind the foreign message.)
    if (me == 0 && P > 1)
      while (!marked) splitc::poll();
    splitc::barrier();
    CHECK_MSG(P == 1, "processor 0 accepted a foreign message as a packet");
    return mpitest::pass("mpi_failure");
  }
  if (me == victim) {
    if (mode == "fatal") {
      (void)splitc::read(splitc::toglobal(P + 5, &cell));
    } else if (mode == "exit") {
      std::exit(3);
    } else if (mode == "kill") {
      raise(SIGKILL);
    } else if (mode == "segv") {
      *nowhere = 1;
    }
    CHECK_MSG(false, "unknown mode {}", mode);
  }
  // The others wait for the victim, which never comes.
  if (me % 2 == 0) {
    splitc::barrier();
  } else {
    (void)splitc::read(splitc::toglobal(victim, &cell));
    splitc::barrier();
  }
  CHECK_MSG(false, "processor {} passed a barrier that processor {} never reached", me, victim);
  return mpitest::pass("mpi_failure");
}
