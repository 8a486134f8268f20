// CSV and JSON writers for splitc-bench (see results.hpp).
#include "results.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

namespace bench {
namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
std::string csv_num(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : ""; }
nlohmann::json json_num(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json row_json(const row& r) {
  nlohmann::json x;
  x["part"] = r.part;
  x["name"] = r.name;
  x["impl"] = r.impl;
  x["backend"] = splitc::backend_name();
  x["procs"] = splitc::procs();
  x["size"] = r.size;
  x["value"] = json_num(r.value);
  x["unit"] = r.unit;
  x["reference"] = r.reference;
  x["reference_value"] = json_num(r.reference_value);
  x["ratio"] = json_num(r.ratio);
  x["ci95_rel"] = json_num(r.stats.ci_rel);
  x["runs_kept"] = r.stats.kept;
  x["runs_dropped"] = r.stats.dropped;
  x["iters_per_run"] = r.stats.iters;
  x["converged"] = r.stats.converged;
  x["seed_value"] = json_num(r.seed_value);  // the seed's figure, in `unit` (sim only)
  x["seed_ratio"] = json_num(r.seed_ratio);  // value / seed_value
  x["seed_key"] = r.seed_key;
  x["seed_citation"] = r.seed_citation;
  return x;
}

}  // namespace

bool write_csv(const context& ctx, const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  out << "part,name,impl,backend,procs,size,value,unit,reference,reference_value,ratio,"
         "ci95_rel,runs_kept,converged,mode,seed_value,seed_ratio,seed_key\n";
  for (const row& r : ctx.rows)
    out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(r.part),
                       csv_field(r.name), r.impl, splitc::backend_name(), splitc::procs(), r.size,
                       csv_num(r.value), r.unit, csv_field(r.reference),
                       csv_num(r.reference_value), csv_num(r.ratio), csv_num(r.stats.ci_rel),
                       r.stats.kept, r.stats.converged ? 1 : 0, ctx.mode, csv_num(r.seed_value),
                       csv_num(r.seed_ratio), csv_field(r.seed_key));
  return out.good();
}

bool write_json(const context& ctx, const run_info& info, const std::string& path) {
  nlohmann::json j;
  j["program"] = "splitc-bench";
  j["backend"] = splitc::backend_name();
  j["procs"] = splitc::procs();
  j["mode"] = ctx.mode;
  j["clock"] = virtual_clock ? "virtual" : "host";
  j["sim_machine"] = ctx.sim_machine;  // "" off the sim
  j["rounds"] = ctx.rounds;
  j["started"] = info.started;
  j["seconds"] = info.seconds;
  j["load_average_start"] = info.load_start;
  j["load_average_end"] = info.load_end;
  j["cpu"] = info.cpu;
  j["mpi"] = ctx.cfg.no_mpi ? std::string("not measured (--no-mpi)") : ctx.mpi.status();
  j["parts"] = ctx.cfg.only;
  auto& rows = j["rows"] = nlohmann::json::array();
  for (const row& r : ctx.rows) rows.push_back(row_json(r));
  j["files"] = ctx.written;
  std::ofstream out(path, std::ios::trunc);
  out << j.dump(1) << '\n';
  return out.good();
}

bool write_json_lines(const context& ctx, const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  for (const row& r : ctx.rows) out << row_json(r).dump() << '\n';
  return out.good();
}

}  // namespace bench
