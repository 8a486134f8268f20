// splitc-bench's command line (CLI11), compiled once into splitc-bench-common for every backend's
// bench (cmake/SplitcBench.cmake): CLI11's headers were two thirds of the compile of the bench's
// main (6.0 of 8.8 s), once per backend.
#pragma once

#include "config.hpp"

#include <optional>
#include <string>

namespace bench {

/// Reads argv into cfg. Returns the status to exit with where the program must not go on
/// (--help: 0; a bad option: CLI11's status), having printed why if `print` (processor 0);
/// nullopt otherwise. `footer` ends the help text (the parts, the modes).
std::optional<int> parse_command_line(int argc, char** argv, bool print,
                                      const std::string& footer, config& cfg);

}  // namespace bench
