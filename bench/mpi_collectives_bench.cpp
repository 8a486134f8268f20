// The Open MPI side of the collectives comparison: MPI_Barrier, MPI_Bcast,
// MPI_Reduce, MPI_Allreduce and MPI_Scan of one int, timed with the same
// lockstep method as splitc-collectives-bench, plus the MPI ping-pong round
// trip. Run with mpirun -np 2 (see bench/compare_collectives.sh).
#include "lockstep.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  bool quick = false, smoke = false, raw = false;
  for (int i = 1; i < argc; ++i) {
    quick |= std::strcmp(argv[i], "--quick") == 0;
    smoke |= std::strcmp(argv[i], "--smoke") == 0;
    raw |= std::strcmp(argv[i], "--raw") == 0;
  }
  int me = 0, P = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  bench::lockstep_plan plan;
  if (quick) plan = {1000, 20};
  if (smoke) plan = {1, 1};
  auto barrier = [] { MPI_Barrier(MPI_COMM_WORLD); };
  std::vector<std::pair<std::string, bench::summary>> rows;
  int in = 0, out = 0;
  rows.emplace_back("barrier", bench::lockstep(plan, barrier, [](long) { MPI_Barrier(MPI_COMM_WORLD); }));
  rows.emplace_back("broadcast_int", bench::lockstep(plan, barrier, [&](long i) {
                      in = static_cast<int>(i);
                      MPI_Bcast(&in, 1, MPI_INT, 0, MPI_COMM_WORLD);
                    }));
  rows.emplace_back("reduce_to_one_int_add", bench::lockstep(plan, barrier, [&](long i) {
                      in = static_cast<int>(i);
                      MPI_Reduce(&in, &out, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
                    }));
  rows.emplace_back("reduce_to_all_int_add", bench::lockstep(plan, barrier, [&](long i) {
                      in = static_cast<int>(i);
                      MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                    }));
  rows.emplace_back("scan_int_add", bench::lockstep(plan, barrier, [&](long i) {
                      in = static_cast<int>(i);
                      MPI_Scan(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                    }));
  // Ping-pong round trip between ranks 0 and 1, the same lockstep schedule
  // (rank 1 answers; other ranks only take part in the barriers).
  const int peer = P > 1 ? 1 : 0;
  rows.emplace_back("pingpong_round_trip", bench::lockstep(plan, barrier, [&](long) {
                      if (P == 1) return;
                      if (me == 0) {
                        MPI_Send(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
                        MPI_Recv(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                      } else if (me == peer) {
                        MPI_Recv(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
                      }
                    }));
  if (me == 0) {
    for (const auto& [name, s] : rows) {
      if (raw)
        std::printf("%s %.2f\n", name.c_str(), s.mean);
      else
        std::printf("%-34s %10.1f ns   (±%.1f, %d runs kept, %d dropped)\n", name.c_str(), s.mean,
                    s.ci_abs, s.kept, s.dropped);
    }
  }
  MPI_Finalize();
  return 0;
}
