// splitc-bench's machine-readable output: every measured row as CSV
// (results.csv), JSON (results.json, with the run's metadata) and, with
// --json FILE, JSON Lines (one object per measurement).
#pragma once

#include "harness.hpp"

#include <string>

namespace bench {

struct run_info {
  std::string started, load_start, load_end, cpu;
  double seconds = 0;
};

bool write_csv(const context& ctx, const std::string& path);
bool write_json(const context& ctx, const run_info& info, const std::string& path);
bool write_json_lines(const context& ctx, const std::string& path);

}  // namespace bench
