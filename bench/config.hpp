// splitc-bench's options, as its command line sets them (command_line.cpp): plain data, no
// splitc, so that the command line's parser is compiled once for every backend's bench.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

struct config {
  std::vector<std::string> only;  ///< selected parts (empty: all)
  bool quick = false;
  bool smoke = false;
  int rounds = 0;                 ///< splitc/MPI alternations per step (0: the mode's default)
  std::size_t max_size = std::size_t{64} << 20;  ///< 64 MiB
  std::string out_dir = "bench-results";
  std::string json_lines;         ///< --json FILE: one line per measurement (empty: none)
  bool no_mpi = false;
  std::string mpirun;             ///< empty: the one CMake found, else "mpirun"
  std::string mpi_reference;      ///< empty: beside this program
  std::string gnuplot = "gnuplot";
  bool no_plots = false;
  bool progress = true;
};

}  // namespace bench
