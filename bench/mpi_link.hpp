// Processor 0's line to the Open MPI reference program
// (splitc-bench-mpi-reference, bench/mpi_reference.cpp) or to the OpenSHMEM one
// (splitc-bench-shmem-reference, bench/shmem_reference.cpp): started under mpirun or oshrun
// as a child process on first use, fed one command per line on its standard
// input, answers read from its standard output. When MPI is not installed or
// the program cannot start, every request answers nothing and status() says
// why. Between requests every process of the reference job (the launcher and
// its descendants) is stopped (SIGSTOP), so that an idle reference takes no
// CPU, and no wake-up, from the splitc rows measured meanwhile (issue 43). It needs no splitc:
// compiled once for every backend's bench, in splitc-bench-common (cmake/SplitcBench.cmake).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace bench {

struct mpi_command {
  std::string op;  ///< pingpong, put_flush, get_flush, put_pipe, get_pipe, bw_send, bw_put,
                   ///< bw_get, fetch_add, barrier, bcast, reduce, allreduce, scan
  std::size_t size = 8;
  long iters = 1000;
  int runs = 10;
};
struct mpi_result {
  std::string op;
  std::size_t size = 0;
  double ns = 0;      ///< per operation
  double ci_rel = 0;  ///< 95% CI half-width / mean (negative: unknown)
  int kept = 0;
};

class mpi_link {
 public:
  mpi_link() = default;
  mpi_link(const mpi_link&) = delete;
  mpi_link& operator=(const mpi_link&) = delete;
  ~mpi_link() { stop(); }

  /// `mpirun` and `reference` empty: not available (status says `why`).
  /// `procs`: MPI processes (as many as splitc's, so collectives compare).
  /// `options`: the launcher's, before the program (Open MPI's shared-memory
  /// transports by default; the OpenSHMEM reference passes its own).
  void configure(std::string mpirun, std::string reference, std::size_t max_size, int procs,
                 std::string log_path, std::string why_not = {},
                 std::vector<std::string> options = {"--mca", "pml", "ob1", "--mca", "btl",
                                                     "self,vader", "--mca", "osc", "sm"});
  /// Starts the reference program if it is not running yet.
  bool available();
  const std::string& status() const { return status_; }
  std::vector<mpi_result> run(const std::vector<mpi_command>& cmds);
  void stop();

 private:
  bool start();
  /// Stop (SIGSTOP) every process of the reference job; continue them (SIGCONT).
  void pause();
  void resume();
  std::string mpirun_, reference_, log_path_, status_ = "not started";
  std::vector<std::string> options_;
  std::size_t max_size_ = 0;
  int procs_ = 2;
  bool tried_ = false, running_ = false;
  pid_t pid_ = -1;
  std::vector<pid_t> paused_;  ///< the job's processes while stopped
  std::FILE* to_ = nullptr;
  std::FILE* from_ = nullptr;
};

}  // namespace bench
