// The launcher's command line and the choice of launcher (launcher_cli.hpp): everything of
// splitc-run but the backend it launches for, compiled once for every splitc-run-<backend>.
#include "launcher_cli.hpp"

#include <splitc/port/launch.hpp>
#include <splitc/port/launcher_check.hpp>

#include <CLI/CLI.hpp>

#include <dirent.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace splitc::tools {
namespace {

/// This launcher's own directory (with a trailing '/').
std::string own_directory() {
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return self.substr(0, self.rfind('/') + 1);
}

/// Each directory of PATH (with a trailing '/').
std::vector<std::string> launcher_directories_on_path() {
  std::vector<std::string> dirs;
  const char* path = std::getenv("PATH");
  std::string rest = path ? path : "";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    std::string dir = rest.substr(0, colon);
    if (!dir.empty()) dirs.push_back(dir.back() == '/' ? dir : dir + '/');
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
  }
  return dirs;
}

/// Where launchers are looked for: beside this one, then each directory of PATH.
std::vector<std::string> launcher_directories() {
  std::vector<std::string> dirs{own_directory()};
  for (std::string& d : launcher_directories_on_path()) dirs.push_back(std::move(d));
  return dirs;
}

/// The backends that have a launcher (splitc-run-NAME) where launchers are looked for,
/// sorted, each once.
std::set<std::string> known_backends(const char* own) {
  constexpr std::string_view prefix = "splitc-run-";
  std::set<std::string> names{own};
  for (const auto& dir : launcher_directories()) {
    DIR* d = opendir(dir.c_str());
    if (!d) continue;
    while (const dirent* e = readdir(d)) {
      const std::string_view file = e->d_name;
      if (file.size() > prefix.size() && file.substr(0, prefix.size()) == prefix &&
          access((dir + e->d_name).c_str(), X_OK) == 0)
        names.emplace(file.substr(prefix.size()));
    }
    closedir(d);
  }
  return names;
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// The default launcher hands other backends to splitc-run-<backend>: the one beside it
/// (the backends of this installation), else the first on PATH (a backend built outside
/// the splitc tree and installed elsewhere).
[[noreturn]] void hand_over(const std::string& backend, char** argv, const char* own) {
  const bool plain_name = !backend.empty() && backend.find('/') == std::string::npos;
  if (plain_name) {
    for (const auto& dir : launcher_directories()) {
      const std::string other = dir + "splitc-run-" + backend;
      if (access(other.c_str(), X_OK) == 0) {
        execv(other.c_str(), argv);
        std::fprintf(stderr, "splitc-run: cannot start %s: %s\n", other.c_str(),
                     std::strerror(errno));
        std::exit(2);
      }
    }
  }
  std::fprintf(stderr,
               "splitc-run: unknown backend '%s': no launcher splitc-run-%s beside %s or on "
               "PATH; known backends: %s\n",
               backend.c_str(), backend.c_str(), own_directory().c_str(),
               joined(known_backends(own)).c_str());
  std::exit(2);
}

/// Where the program's command starts: after splitc-run's own options (and
/// an optional "--"). Everything from there on is passed on untouched, so the
/// program's own options (even -n) are its own. `after_dashes`: it follows "--"
/// (then a program named "-x" is a program, not an option).
int command_start(int argc, char** argv, bool& after_dashes) {
  after_dashes = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      after_dashes = true;
      return i + 1;
    }
    if (a == "-n" || a == "--procs" || a == "--backend") {
      ++i;  // takes a value
    } else if (a.rfind("--procs=", 0) == 0 || a.rfind("--backend=", 0) == 0 ||
               (a.size() > 2 && a.rfind("-n", 0) == 0) || a == "--keep-aslr" || a == "-h" ||
               a == "--help") {
      // an option of ours in one word
    } else {
      return i;
    }
  }
  return argc;
}

/// The file a command names: itself with a '/', else the first match on PATH (as execvp).
std::string command_file(const std::string& command) {
  if (command.find('/') != std::string::npos) return command;
  for (const std::string& dir : launcher_directories_on_path())
    if (access((dir + command).c_str(), X_OK) == 0) return dir + command;
  return command;
}

}  // namespace

int run_launcher(int argc, char** argv, const launcher& self) {
  CLI::App app{
      "splitc-run: start a splitc program as P processes on this host and supervise them.\n"
      "Every process gets its processor number (SPLITC_MYPROC) and the job size (SPLITC_PROCS).\n"
      "If any process dies or exits non-zero, the job is ended within a second, the failing\n"
      "processor is named, and splitc-run exits with that process's status (128+signal for a\n"
      "signal). Output of every process goes straight to this terminal.\n\n"
      "Every environment variable splitc reads (SPLITC_SEGMENT_SIZE, SPLITC_SILENCE, ...) is\n"
      "described in docs/environment.md.\n"
      "A program started without splitc-run runs as one process, or as N if SPLITC_PROCS=N.",
      "splitc-run"};
  splitc::port::launch_options options;
  std::string backend = self.backend;
  std::vector<std::string> command;
  app.add_option("-n,--procs", options.procs, "number of processes (processors)")
      ->required()
      ->check(CLI::Range(1, 4096));
  app.add_option("--backend", backend,
                 "backend to run on (default '" + backend +
                     "'; the program must be linked with the same backend; the known "
                     "backends are listed below)");
  app.add_flag("--keep-aslr", options.keep_aslr,
               "leave address-space randomisation on (static data then differs in address "
               "between processors; spread-heap data does not)");
  app.footer([&self] {
    std::string notes;
    if (self.shared_process)
      notes =
          "On this backend all processors are fibers of ONE process: they share every static and\n"
          "global variable (keep per-processor state in splitc::per_processor, on the stack or in\n"
          "the segment), and the job's output, signals and exit status are that process's.\n"
          "--keep-aslr has no effect. See docs/sim.md.\n";
    return notes + "Usage: splitc-run -n P [options] [--] program [program arguments...]\n"
           "Known backends (a launcher splitc-run-NAME beside this one or on PATH): " +
           joined(known_backends(self.backend));
  });
  bool after_dashes = false;
  const int start = command_start(argc, argv, after_dashes);
  // Another backend's launcher answers for it, --help included (its notes differ).
  for (int i = 1; i + 1 < start; ++i)
    if (std::string(argv[i]) == "--backend" && argv[i + 1] != std::string(self.backend) &&
        self.default_launcher)
      hand_over(argv[i + 1], argv, self.backend);
  try {
    app.parse(start, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (start >= argc) {
    std::fprintf(stderr, "splitc-run: no program given\n%s", app.help().c_str());
    return 2;
  }
  if (!after_dashes && argv[start][0] == '-' && argv[start][1] != '\0') {
    std::fprintf(stderr,
                 "splitc-run: unknown option '%s' (a program whose name starts with '-' "
                 "follows '--')\n%s",
                 argv[start], app.help().c_str());
    return 2;
  }
  for (int i = start; i < argc; ++i) command.emplace_back(argv[i]);
  // No --backend: the program's file says which backend it is linked with, and
  // the default launcher hands it to that backend's launcher (as upcxx-run does).
  if (self.default_launcher && app.count("--backend") == 0)
    if (auto linked = splitc::port::linked_backend(command_file(command[0])))
      backend = *linked;
  if (backend != self.backend) {
    if (self.default_launcher) hand_over(backend, argv, self.backend);
    std::fprintf(stderr, "splitc-run: this launcher is for backend '%s', not '%s'\n",
                 self.backend, backend.c_str());
    return 2;
  }
  std::vector<char*> args;
  for (auto& s : command) args.push_back(s.data());
  args.push_back(nullptr);
  // Every process learns which backend's launcher started it (init checks it).
  splitc::port::announce_launcher(self.backend);
  return splitc::port::launch_job(options, args.data());
}

}  // namespace splitc::tools
