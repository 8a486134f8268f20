// splitc-bench's command line: command_line.hpp.
#include "command_line.hpp"

#include <CLI/CLI.hpp>

namespace bench {

std::optional<int> parse_command_line(int argc, char** argv, bool print,
                                      const std::string& footer, config& cfg) {
  bool no_progress = false;
  CLI::App app{"splitc-bench: the porting suite. Measures, for the backend it is built "
               "against, the Libsplit-C report's §5 tables and figures (Table 4, Table 7, "
               "Tables 8-11, Figures 10-15) with this machine's limits (cache-line ping-pong, "
               "memcpy) and Open MPI's equivalents in the same run. Run: splitc-run -n 2 "
               "splitc-bench"};
  app.footer(footer);
  app.add_option("--only", cfg.only, "run only these parts (comma-separated; see below)")
      ->delimiter(',');
  auto* quick = app.add_flag("--quick", cfg.quick,
                             "shorter runs, looser confidence interval, sizes x4 (about a minute)");
  app.add_flag("--smoke", cfg.smoke, "one iteration of everything with tiny sizes (a test)")
      ->excludes(quick);
  app.add_option("--json", cfg.json_lines,
                 "also write every measurement as one JSON object per line to this file");
  app.add_option("--out", cfg.out_dir, "directory for results.csv, results.json and the plots")
      ->capture_default_str();
  app.add_option("--rounds", cfg.rounds,
                 "splitc/Open MPI alternations per measurement step, median reported "
                 "(default: 3; 1 with --quick or --smoke)")
      ->check(CLI::Range(1, 99));
  app.add_option("--max-size", cfg.max_size, "largest bulk transfer in bytes (default 64 MiB)")
      ->check(CLI::Range(std::size_t{4096}, std::size_t{1} << 34));
  app.add_flag("--no-mpi", cfg.no_mpi, "do not run the Open MPI reference");
  app.add_option("--mpirun", cfg.mpirun,
                 "Open MPI's mpirun (default: the one found at build time)");
  app.add_option("--mpi-reference", cfg.mpi_reference,
                 "the MPI reference program (default: splitc-bench-mpi-reference beside this "
                 "program)");
  app.add_option("--gnuplot", cfg.gnuplot, "gnuplot to draw the plots with")->capture_default_str();
  app.add_flag("--no-plots", cfg.no_plots, "write no plots (CSV and JSON only)");
  app.add_flag("--no-progress", no_progress, "no progress lines on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return print ? app.exit(e) : e.get_exit_code();
  }
  cfg.progress = !no_progress;
  return std::nullopt;
}

}  // namespace bench
