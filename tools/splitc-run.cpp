// splitc-run: start a splitc program as P processes and supervise them.
//
//   splitc-run -n 4 ./program args...
//
// The launcher of one backend (the one it is linked with); all but the backend's name and kind
// is launcher_cli.cpp, compiled once for every backend's launcher.
#include "launcher_cli.hpp"

#include <splitc/backend.hpp>

int main(int argc, char** argv) {
  return splitc::tools::run_launcher(
      argc, argv,
      {splitc::active_backend::name, splitc::has_shared_process<splitc::active_backend>,
       SPLITC_DEFAULT_LAUNCHER != 0});
}
