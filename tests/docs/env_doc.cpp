// The documentation table of every environment variable, produced from the
// one table (include/splitc/port/env_vars.def) into docs/environment.md
// between its markers:
//
//   splitc-env-doc                 print the table
//   splitc-env-doc --write FILE    replace the table in FILE
//   splitc-env-doc --check FILE    exit 1 if FILE's table is not what the rows say
//
// `cmake --build build --target update-env-docs` writes it; the ctest test
// docs.environment_table checks it.
#include <splitc/port/env.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace {

using splitc::port::env_entry;
using splitc::port::env_type;

constexpr std::string_view begin_marker = "<!-- environment table: begin (generated from env_vars.def) -->";
constexpr std::string_view end_marker = "<!-- environment table: end -->";

struct group_title {
  std::string_view group, title;
};
constexpr group_title groups[] = {
    {"core", "Every backend"},
    {"smp", "smp"},
    {"udp", "udp"},
    {"sim", "sim"},
    {"mpi", "mpi and mpich"},
    {"shmem", "shmem (OpenSHMEM)"},
    {"job", "Set by splitc's launchers in every process (not for users)"},
    {"dolib", "DOLIB"},
    {"smpi", "splitc's MPI (layers/mpi)"},
    {"acl", "ACLMPL (layers/acl)"},
    {"tests", "The test scripts"},
};

std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string type_of(const env_entry& e) {
  switch (e.type) {
    case env_type::flag: return "flag";
    case env_type::integer: return "whole number";
    case env_type::size: return "size";
    case env_type::address: return "address";
    case env_type::number: return "number";
    case env_type::text: return "text";
    case env_type::words: return "words";
    case env_type::choice: {
      std::string out = "one of ";
      std::string_view rest = e.choices;
      for (bool first = true; !rest.empty(); first = false) {
        const auto bar = rest.find('|');
        out += std::string(first ? "" : ", ") + "`" + std::string(rest.substr(0, bar)) + "`";
        rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
      }
      return out;
    }
  }
  return "?";
}

std::string default_of(const env_entry& e) {
  const std::string_view d = e.fallback;
  if (d.empty()) return "—";
  if (d.front() == '(') return "*" + cell(d.substr(1, d.size() - 2)) + "*";
  return "`" + cell(d) + "`";
}

std::string table() {
  std::string out;
  for (const auto& [group, title] : groups) {
    out += "\n### " + std::string(title) + "\n\n| variable | type | default | meaning |\n|---|---|---|---|\n";
    for (const env_entry& e : splitc::port::env_table) {
      if (e.group != group) continue;
      out += "| `" + std::string(e.name) + "` | " + type_of(e) + " | " + default_of(e) + " | " +
             cell(e.meaning) + " |\n";
    }
  }
  return out + "\n";
}

bool read(const std::string& path, std::string& text) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream all;
  all << in.rdbuf();
  text = all.str();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string generated = table();
  if (argc == 1) {
    std::fputs(generated.c_str(), stdout);
    return 0;
  }
  const std::string mode = argv[1];
  if (argc != 3 || (mode != "--check" && mode != "--write")) {
    std::fprintf(stderr, "usage: %s [--check FILE | --write FILE]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[2];
  std::string text;
  if (!read(path, text)) {
    std::fprintf(stderr, "splitc-env-doc: cannot read %s\n", path.c_str());
    return 2;
  }
  const auto begin = text.find(begin_marker);
  const auto end = text.find(end_marker);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    std::fprintf(stderr, "splitc-env-doc: %s has no table markers (%s ... %s)\n", path.c_str(),
                 std::string(begin_marker).c_str(), std::string(end_marker).c_str());
    return 2;
  }
  const auto from = begin + begin_marker.size() + 1;  // after the marker's line
  const std::string current = text.substr(from, end - from);
  if (mode == "--check") {
    if (current == generated) return 0;
    std::fprintf(stderr,
                 "splitc-env-doc: the table in %s differs from include/splitc/port/env_vars.def; "
                 "run: cmake --build <build> --target update-env-docs\n",
                 path.c_str());
    return 1;
  }
  text.replace(from, end - from, generated);
  std::ofstream(path) << text;
  return 0;
}
