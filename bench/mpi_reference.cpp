// splitc-bench-mpi-reference: the Open MPI side of splitc-bench. splitc-bench's
// processor 0 starts it under mpirun as a child and drives it through its
// standard input (mpirun forwards it to rank 0): one command per line,
//
//   <op> <size> <iters> <runs>      e.g. "pingpong 8 1000 20", "bw_put 65536 32 20"
//   quit
//
// and reads the answer from its standard output:
//
//   @R <op> <size> <ns per operation> <95% CI / mean> <runs kept>
//   @E                               (end of the answer)
//   @X <message>                     (the command failed; @E follows)
//
// With --selftest it runs every operation once by itself (the ctest smoke test).
//
// Every measurement uses the lockstep method of bench/lockstep.hpp (all ranks
// run the same fixed schedule of runs, each after a barrier; the seed's filter).
// Between commands the ranks other than 0 wait with a sleeping MPI_Test loop
// and rank 0 blocks reading its input; between rounds splitc-bench stops the
// whole job (bench/mpi_link.hpp), so that not even the naps' wake-ups disturb
// the splitc processors measuring in the meantime.
#define SPLITC_BENCH_HOST_CLOCK_ONLY 1  // no splitc in this program: the host's clock
#include "compute.hpp"
#include "lockstep.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

struct command {
  char op[32] = {};
  long size = 0;
  long iters = 0;
  int runs = 0;
  int quit = 0;
};

/// Wait for `req` without spinning a core: test, then sleep a millisecond (waking more often
/// takes CPU from the splitc processes measuring meanwhile).
void sleepy_wait(MPI_Request* req) {
  for (;;) {
    int done = 0;
    MPI_Test(req, &done, MPI_STATUS_IGNORE);
    if (done) return;
    timespec t{0, 1000000};
    nanosleep(&t, nullptr);
  }
}

const char* const selftest_commands[] = {
    "pingpong 8 1 1",  "put_flush 8 1 1", "get_flush 8 1 1", "put_pipe 8 1 1",
    "get_pipe 8 1 1",  "bw_send 4096 1 1", "bw_put 4096 1 1", "bw_get 4096 1 1",
    "fetch_add 8 1 1", "barrier 1 1 1",   "bcast 1 1 1",     "reduce 1 1 1",
    "allreduce 1 1 1", "scan 1 1 1",      "gather 8 1 1",    "scatter 8 1 1",
    "allgather 8 1 1", "allgatherv 8 1 1", "alltoall 8 1 1",  "alltoallv 8 1 1",
    "reduce_scatter 8 1 1", "half_allreduce 8 1 1", "half_allgather 8 1 1",
    "half_alltoall 8 1 1", "iallreduce_overlap 4096 1 1", "put_vector 4096 1 1", "accumulate 8 1 1", "quit"};
bool selftest = false;
int selftest_next = 0;

bool read_command(int me, command& c) {
  if (me == 0) {
    char line[256];
    c = command{};
    if (selftest) {
      std::snprintf(line, sizeof line, "%s\n", selftest_commands[selftest_next++]);
      if (std::strncmp(line, "quit", 4) == 0) c.quit = 1;
      else if (std::sscanf(line, "%31s %ld %ld %d", c.op, &c.size, &c.iters, &c.runs) != 4)
        c.quit = 1;
    } else if (std::fgets(line, sizeof line, stdin) == nullptr) {
      c.quit = 1;
    } else if (std::strncmp(line, "quit", 4) == 0) {
      c.quit = 1;
    } else if (std::sscanf(line, "%31s %ld %ld %d", c.op, &c.size, &c.iters, &c.runs) != 4) {
      std::printf("@X cannot parse: %s@E\n", line);
      std::fflush(stdout);
      c.op[0] = '\0';
    }
  }
  MPI_Request req;
  MPI_Ibcast(&c, sizeof c, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
  sleepy_wait(&req);
  return c.quit == 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  long max_size = 64L << 20;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && std::strcmp(argv[i], "--max-size") == 0) max_size = std::atol(argv[i + 1]);
    if (std::strcmp(argv[i], "--selftest") == 0) selftest = true;
  }
  max_size = std::max(max_size, 4096L);

  // Buffers and the one-sided window (lock_all for the whole run: passive
  // target, each operation completed by MPI_Win_flush).
  std::vector<unsigned char> sbuf(static_cast<std::size_t>(max_size), 0x33);
  std::vector<unsigned char> rbuf(static_cast<std::size_t>(max_size), 0x44);
  void* win_base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(max_size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win_base, &win);
  std::memset(win_base, 0, static_cast<std::size_t>(max_size));
  MPI_Win_lock_all(0, win);
  const int peer = P > 1 ? 1 : 0;
  // The half teams of splitc-bench's "teams" part: the lower and the upper half.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, me < (P + 1) / 2 ? 0 : 1, me, &half);
  int half_size = 1;
  MPI_Comm_size(half, &half_size);
  std::vector<int> counts(static_cast<std::size_t>(P)), displs(static_cast<std::size_t>(P));
  if (me == 0) {
    std::printf("@READY %d\n", P);
    std::fflush(stdout);
  }

  auto barrier = [] { MPI_Barrier(MPI_COMM_WORLD); };
  constexpr int pipe_ops = 256;  // as splitc-bench's get/put rows: 256 operations, then complete
  command c;
  while (read_command(me, c)) {
    if (c.op[0] == '\0') continue;
    const std::string op = c.op;
    const bench::lockstep_plan plan{std::max(1L, c.iters), std::max(1, c.runs)};
    const int n = static_cast<int>(std::clamp(c.size, 1L, max_size));
    double divide = 1;
    // A collective's bytes per member: as asked, unless P blocks would not fit the buffers.
    const int per = static_cast<int>(std::min<long>(n, max_size / P));
    int in = 1, out = 0;
    long long one = 1, old = 0;
    bench::summary s;
    bool known = true;
    if (op == "pingpong") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (P == 1) return;
        if (me == 0) {
          MPI_Send(sbuf.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
          MPI_Recv(rbuf.data(), n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == peer) {
          MPI_Recv(rbuf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(rbuf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
      });
    } else if (op == "put_flush" || op == "bw_put") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        MPI_Put(sbuf.data(), n, MPI_BYTE, peer, 0, n, MPI_BYTE, win);
        MPI_Win_flush(peer, win);
      });
    } else if (op == "put_vector") {
      // 64 rows of n/64 bytes into every other row of the peer's window: a vector datatype.
      const int row = std::max(1, n / 64);
      MPI_Datatype rows;
      MPI_Type_vector(64, row, 2 * row, MPI_BYTE, &rows);
      MPI_Type_commit(&rows);
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        MPI_Put(sbuf.data(), 64 * row, MPI_BYTE, peer, 0, 1, rows, win);
        MPI_Win_flush(peer, win);
      });
      MPI_Type_free(&rows);
    } else if (op == "get_flush" || op == "bw_get") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        MPI_Get(rbuf.data(), n, MPI_BYTE, peer, 0, n, MPI_BYTE, win);
        MPI_Win_flush(peer, win);
      });
    } else if (op == "put_pipe" || op == "get_pipe") {
      const bool put = op == "put_pipe";
      divide = pipe_ops;
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        for (int j = 0; j < pipe_ops; ++j) {
          const MPI_Aint disp = static_cast<MPI_Aint>(j) * n % (max_size - n + 1);
          if (put)
            MPI_Put(sbuf.data() + j * 8 % 4096, n, MPI_BYTE, peer, disp, n, MPI_BYTE, win);
          else
            MPI_Get(rbuf.data() + j * 8 % 4096, n, MPI_BYTE, peer, disp, n, MPI_BYTE, win);
        }
        MPI_Win_flush(peer, win);
      });
    } else if (op == "bw_send") {
      // Windowed bandwidth as the OSU benchmark measures it: a window of
      // nonblocking sends, then a short acknowledgement.
      const int window = static_cast<int>(std::clamp(16L * 1024 * 1024 / n, 1L, 64L));
      divide = window;
      std::vector<MPI_Request> reqs(static_cast<std::size_t>(window));
      s = bench::lockstep(plan, barrier, [&](long) {
        if (P == 1) return;
        if (me == 0) {
          for (int w = 0; w < window; ++w)
            MPI_Isend(sbuf.data(), n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &reqs[w]);
          MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
          MPI_Recv(&out, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (me == peer) {
          for (int w = 0; w < window; ++w)
            MPI_Irecv(rbuf.data(), n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &reqs[w]);
          MPI_Waitall(window, reqs.data(), MPI_STATUSES_IGNORE);
          MPI_Send(&in, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
        }
      });
    } else if (op == "fetch_add") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, peer, 0, MPI_SUM, win);
        MPI_Win_flush(peer, win);
      });
    } else if (op == "accumulate") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        MPI_Accumulate(&one, 1, MPI_LONG_LONG, peer, 0, 1, MPI_LONG_LONG, MPI_SUM, win);
        MPI_Win_flush(peer, win);
      });
    } else if (op == "barrier") {
      s = bench::lockstep(plan, barrier, [](long) { MPI_Barrier(MPI_COMM_WORLD); });
    } else if (op == "bcast") {
      s = bench::lockstep(plan, barrier, [&](long i) {
        in = static_cast<int>(i);
        MPI_Bcast(&in, 1, MPI_INT, 0, MPI_COMM_WORLD);
      });
    } else if (op == "reduce") {
      s = bench::lockstep(plan, barrier, [&](long i) {
        in = static_cast<int>(i);
        MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
      });
    } else if (op == "allreduce") {
      s = bench::lockstep(plan, barrier, [&](long i) {
        in = static_cast<int>(i);
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      });
    } else if (op == "scan") {
      s = bench::lockstep(plan, barrier, [&](long i) {
        in = static_cast<int>(i);
        MPI_Scan(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      });
    } else if (op == "gather") {
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Gather(sbuf.data(), per, MPI_BYTE, rbuf.data(), per, MPI_BYTE, 0, MPI_COMM_WORLD);
      });
    } else if (op == "scatter") {
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Scatter(sbuf.data(), per, MPI_BYTE, rbuf.data(), per, MPI_BYTE, 0, MPI_COMM_WORLD);
      });
    } else if (op == "allgather" || op == "half_allgather") {
      MPI_Comm comm = op == "allgather" ? MPI_COMM_WORLD : half;
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Allgather(sbuf.data(), per, MPI_BYTE, rbuf.data(), per, MPI_BYTE, comm);
      });
    } else if (op == "alltoall" || op == "half_alltoall") {
      MPI_Comm comm = op == "alltoall" ? MPI_COMM_WORLD : half;
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Alltoall(sbuf.data(), per, MPI_BYTE, rbuf.data(), per, MPI_BYTE, comm);
      });
    } else if (op == "allgatherv" || op == "alltoallv") {
      for (int q = 0; q < P; ++q) counts[static_cast<std::size_t>(q)] = per, displs[static_cast<std::size_t>(q)] = q * per;
      if (op == "allgatherv")
        s = bench::lockstep(plan, barrier, [&](long) {
          MPI_Allgatherv(sbuf.data(), per, MPI_BYTE, rbuf.data(), counts.data(), displs.data(),
                         MPI_BYTE, MPI_COMM_WORLD);
        });
      else
        s = bench::lockstep(plan, barrier, [&](long) {
          MPI_Alltoallv(sbuf.data(), counts.data(), displs.data(), MPI_BYTE, rbuf.data(),
                        counts.data(), displs.data(), MPI_BYTE, MPI_COMM_WORLD);
        });
    } else if (op == "reduce_scatter") {
      const int ints = std::max(1, per / static_cast<int>(sizeof(int)));
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Reduce_scatter_block(sbuf.data(), rbuf.data(), ints, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      });
    } else if (op == "half_allreduce") {
      const int ints = std::max(1, per / static_cast<int>(sizeof(int)));
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Allreduce(sbuf.data(), rbuf.data(), ints, MPI_INT, MPI_SUM, half);
      });
    } else if (op == "iallreduce_overlap") {
      // splitc-bench's overlap (bench/parts/teams.cpp, overlap()): MPI_Allreduce of `size`
      // bytes of doubles alone; computation calibrated to take as long, in 64 pieces, each
      // followed by MPI_Test; MPI_Iallreduce started, the same computation, MPI_Wait.
      constexpr int pieces = 64;
      std::vector<double> v(static_cast<std::size_t>(std::max(1L, c.size / 8)), 1.0);
      const int count = static_cast<int>(v.size());
      const bench::summary alone = bench::lockstep(plan, barrier, [&](long) {
        MPI_Allreduce(MPI_IN_PLACE, v.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      });
      volatile double sink = 0;
      const long t0 = bench::now_ns();
      sink = bench::compute(1 << 20);
      double steps = static_cast<double>(1 << 20) / static_cast<double>(std::max(1L, bench::now_ns() - t0)) * alone.mean;
      MPI_Bcast(&steps, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      const long piece = std::max(1L, static_cast<long>(steps) / pieces);
      auto work = [&](MPI_Request* req) {
        for (int k = 0; k < pieces; ++k) {
          sink = bench::compute(piece);
          int done = 0;
          if (req != nullptr) MPI_Test(req, &done, MPI_STATUS_IGNORE);
        }
      };
      const bench::summary comp = bench::lockstep(plan, barrier, [&](long) { work(nullptr); });
      s = bench::lockstep(plan, barrier, [&](long) {
        MPI_Request req;
        MPI_Iallreduce(MPI_IN_PLACE, v.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
        work(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
      });
      (void)sink;
      if (me == 0) {
        std::printf("@R iallreduce_alone %ld %.6g %.4g %d\n", c.size, alone.mean, alone.ci_rel, alone.kept);
        std::printf("@R iallreduce_compute %ld %.6g %.4g %d\n", c.size, comp.mean, comp.ci_rel, comp.kept);
      }
    } else {
      known = false;
    }
    if (me == 0) {
      if (known)
        std::printf("@R %s %d %.6g %.4g %d\n", c.op, n, s.mean / divide,
                    std::isfinite(s.ci_rel) ? s.ci_rel : -1.0, s.kept);
      else
        std::printf("@X unknown operation %s\n", c.op);
      std::printf("@E\n");
      std::fflush(stdout);
    }
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
