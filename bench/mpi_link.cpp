// Starting and driving a reference program, Open MPI's or OpenSHMEM's (see mpi_link.hpp).
#include "mpi_link.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <utility>

extern char** environ;

namespace bench {

void mpi_link::configure(std::string mpirun, std::string reference, std::size_t max_size,
                         int procs, std::string log_path, std::string why_not,
                         std::vector<std::string> options) {
  procs_ = procs;
  options_ = std::move(options);
  mpirun_ = std::move(mpirun);
  reference_ = std::move(reference);
  max_size_ = max_size;
  log_path_ = std::move(log_path);
  if (!why_not.empty()) {
    status_ = std::move(why_not);
    tried_ = true;
  }
}

bool mpi_link::available() {
  if (!tried_) {
    tried_ = true;
    running_ = start();
  }
  return running_;
}

namespace {
/// Launcher variables of a surrounding MPI job (the mpi backends run under
/// mpirun themselves) would make the child's mpirun join that job.
bool launcher_variable(std::string_view kv) {
  for (std::string_view p : {"OMPI_", "PMIX_", "OPAL_", "PMI_", "HYDRA_", "ORTE_", "MPIR_"})
    if (kv.substr(0, p.size()) == p) return true;
  return false;
}
}  // namespace

bool mpi_link::start() {
  if (access(reference_.c_str(), X_OK) != 0) {
    status_ = fmt::format("not available: no reference program {}", reference_);
    return false;
  }
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) {
    status_ = "not available: pipe failed";
    return false;
  }
  const std::string size = std::to_string(max_size_);
  std::vector<std::string> args = {mpirun_, "--allow-run-as-root", "--oversubscribe", "-np",
                                   std::to_string(procs_), "--bind-to", "none"};
  args.insert(args.end(), options_.begin(), options_.end());
  args.insert(args.end(), {reference_, "--max-size", size});
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (!launcher_variable(*e)) env.emplace_back(*e);
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  // Every CPU again for the child: this process may be bound to one core by
  // its own job's launcher (splitc-run's mpirun --bind-to core), and an
  // affinity is inherited, so both reference processes would share that core
  // and their ping-pong would measure the scheduler's time slices (8 ms), not
  // MPI. (Made here: between fork and exec only async-signal-safe calls.)
  cpu_set_t all;
  CPU_ZERO(&all);
  for (long cpu = 0, n = sysconf(_SC_NPROCESSORS_CONF); cpu < n && cpu < CPU_SETSIZE; ++cpu)
    CPU_SET(static_cast<int>(cpu), &all);

  pid_ = fork();
  if (pid_ < 0) {
    status_ = "not available: fork failed";
    return false;
  }
  if (pid_ == 0) {
    sched_setaffinity(0, sizeof all, &all);  // the kernel keeps what the cpuset allows
    dup2(in[0], 0);
    dup2(out[1], 1);
    const int log = open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) dup2(log, 2);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execvpe(argv[0], argv.data(), envp.data());
    std::fprintf(stderr, "splitc-bench: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_ = fdopen(in[1], "w");
  from_ = fdopen(out[0], "r");
  char line[512];
  while (std::fgets(line, sizeof line, from_) != nullptr) {
    if (std::strncmp(line, "@READY", 6) == 0) {
      status_ = fmt::format("{} -np {} --bind-to none {} {}", mpirun_, procs_,
                            fmt::join(options_, " "), reference_);
      pause();
      return true;
    }
  }
  stop();
  status_ = fmt::format("not available: {} did not start (see {})", mpirun_, log_path_);
  return false;
}

namespace {
/// `root` and its descendants, from /proc (the parent is the 4th field of /proc/<pid>/stat,
/// after the command's closing parenthesis).
std::vector<pid_t> process_tree(pid_t root) {
  std::vector<std::pair<pid_t, pid_t>> parent_of;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2)
      parent_of.emplace_back(static_cast<pid_t>(std::stol(name)), static_cast<pid_t>(ppid));
  }
  std::vector<pid_t> tree = {root};
  for (std::size_t i = 0; i < tree.size(); ++i)
    for (const auto& [pid, ppid] : parent_of)
      if (ppid == tree[i]) tree.push_back(pid);
  return tree;
}
}  // namespace

void mpi_link::pause() {
  if (pid_ <= 0 || !paused_.empty()) return;
  paused_ = process_tree(pid_);
  for (auto at = paused_.rbegin(); at != paused_.rend(); ++at) kill(*at, SIGSTOP);
}

void mpi_link::resume() {
  for (pid_t p : paused_) kill(p, SIGCONT);
  paused_.clear();
}

std::vector<mpi_result> mpi_link::run(const std::vector<mpi_command>& cmds) {
  std::vector<mpi_result> out;
  if (!available()) return out;
  resume();
  for (const mpi_command& c : cmds) {
    std::fprintf(to_, "%s %zu %ld %d\n", c.op.c_str(), c.size, c.iters, c.runs);
    std::fflush(to_);
    char line[512];
    for (;;) {
      if (std::fgets(line, sizeof line, from_) == nullptr) {
        status_ = fmt::format("not available: the reference program ended (see {})", log_path_);
        stop();
        return out;
      }
      if (std::strncmp(line, "@E", 2) == 0) break;
      if (std::strncmp(line, "@R ", 3) == 0) {
        char op[64];
        mpi_result r;
        if (std::sscanf(line + 3, "%63s %zu %lf %lf %d", op, &r.size, &r.ns, &r.ci_rel, &r.kept) ==
            5) {
          r.op = op;
          out.push_back(r);
        }
      } else if (std::strncmp(line, "@X ", 3) == 0) {
        std::fprintf(stderr, "splitc-bench: MPI reference: %s", line + 3);
      }
    }
  }
  pause();
  return out;
}

void mpi_link::stop() {
  resume();
  if (to_ != nullptr) {
    std::fputs("quit\n", to_);
    std::fclose(to_);
    to_ = nullptr;
  }
  if (from_ != nullptr) {
    std::fclose(from_);
    from_ = nullptr;
  }
  if (pid_ > 0) {
    int st = 0;
    waitpid(pid_, &st, 0);
    pid_ = -1;
  }
  running_ = false;
}

}  // namespace bench
