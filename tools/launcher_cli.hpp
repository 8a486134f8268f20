// splitc-run's command line, options and help, and the hand-over to another backend's launcher
// (launcher_cli.cpp): what every splitc-run-<backend> shares. Its main (splitc-run.cpp) says
// which backend it launches for.
#pragma once

namespace splitc::tools {

struct launcher {
  const char* backend;    ///< the backend whose jobs this launcher starts
  bool shared_process;    ///< its processors are fibers of one process (the help says so)
  bool default_launcher;  ///< splitc-run itself: it hands other backends to their launchers
};

/// Parses the command line, hands another backend's job over or launches the job; returns
/// the exit status.
int run_launcher(int argc, char** argv, const launcher& self);

}  // namespace splitc::tools
