// splitc-run: start a splitc program as P processes and supervise them.
//
//   splitc-run -n 4 ./program args...
#include <splitc/detail/launch.hpp>
#include <splitc/port/launcher_check.hpp>
#include <splitc/runtime.hpp>

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// The default launcher hands other backends to splitc-run-<backend> beside it.
[[noreturn]] void hand_over(const std::string& backend, char** argv) {
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  const std::string dir = self.substr(0, self.rfind('/') + 1);
  const std::string other = dir + "splitc-run-" + backend;
  execv(other.c_str(), argv);
  std::fprintf(stderr, "splitc-run: backend '%s' is not available here (%s: %s)\n",
               backend.c_str(), other.c_str(), std::strerror(errno));
  std::exit(2);
}

/// Where the program's command starts: after splitc-run's own options (and
/// an optional "--"). Everything from there on is passed on untouched, so the
/// program's own options (even -n) are its own.
int command_start(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") return i + 1;
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

}  // namespace

int main(int argc, char** argv) {
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
  splitc::detail::launch_options options;
  std::string backend = splitc::backend_name();
  std::vector<std::string> command;
  app.add_option("-n,--procs", options.procs, "number of processes (processors)")
      ->required()
      ->check(CLI::Range(1, 4096));
  app.add_option("--backend", backend,
                 "backend to run on (default '" + backend +
                     "'; the program must be linked with the same backend)");
  app.add_flag("--keep-aslr", options.keep_aslr,
               "leave address-space randomisation on (static data then differs in address "
               "between processors; spread-heap data does not)");
  app.footer("Usage: splitc-run -n P [options] [--] program [program arguments...]");
  const int start = command_start(argc, argv);
  try {
    app.parse(start, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (start >= argc) {
    std::fprintf(stderr, "splitc-run: no program given\n%s", app.help().c_str());
    return 2;
  }
  for (int i = start; i < argc; ++i) command.emplace_back(argv[i]);
  if (backend != splitc::backend_name()) {
    if (SPLITC_DEFAULT_LAUNCHER) hand_over(backend, argv);
    std::fprintf(stderr, "splitc-run: this launcher is for backend '%s', not '%s'\n",
                 splitc::backend_name(), backend.c_str());
    return 2;
  }
  std::vector<char*> args;
  for (auto& s : command) args.push_back(s.data());
  args.push_back(nullptr);
  // Every process learns which backend's launcher started it (init checks it).
  splitc::port::announce_launcher(splitc::backend_name());
  return splitc::detail::launch_job(options, args.data());
}
