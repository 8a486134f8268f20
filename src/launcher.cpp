// The job supervisor behind splitc-run (and behind SPLITC_PROCS=N): starts
// the processes, hands each its place, and watches them. The first process
// that dies or exits non-zero is named on stderr and the rest of the job is
// ended (SIGTERM, then SIGKILL half a second later), so nothing hangs and
// nothing is orphaned; children also die with the launcher (PDEATHSIG).
#include <splitc/detail/launch.hpp>
#include <splitc/errors.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace splitc::detail {
namespace {

volatile sig_atomic_t interrupted_by = 0;
void on_signal(int sig) { interrupted_by = sig; }

[[noreturn]] void start_child(const launch_options& options, const job_plan& plan, int rank,
                              pid_t launcher, char** argv) {
  // Die with the launcher, even if it is killed with SIGKILL.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != launcher) _exit(1);
  if (!options.keep_aslr) {
    // Same executable, same layout: static data is at the same address on
    // every processor, as Split-C's global data segment assumes.
    const int current = personality(0xffffffff);
    if (current != -1) personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE);
  }
  for (int fd : plan.inherited_fds) {
    const int flags = fcntl(fd, F_GETFD);
    if (flags != -1) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
  }
  for (const auto& [name, value] : plan.environment) setenv(name.c_str(), value.c_str(), 1);
  setenv("SPLITC_JOB", std::to_string(getppid()).c_str(), 1);
  setenv("SPLITC_MYPROC", std::to_string(rank).c_str(), 1);
  setenv("SPLITC_PROCS", std::to_string(options.procs).c_str(), 1);
  execvp(argv[0], argv);
  std::fprintf(stderr, "splitc-run: processor %d: cannot start %s: %s\n", rank, argv[0],
               std::strerror(errno));
  _exit(127);
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

int exit_code(int status) {
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

int run_job(const launch_options& options, char** argv, const job_plan& plan) {
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  std::fflush(nullptr);
  const pid_t self = getpid();
  std::vector<pid_t> pids(static_cast<std::size_t>(options.procs), -1);
  for (int rank = 0; rank < options.procs; ++rank) {
    const pid_t pid = fork();
    if (pid < 0) {
      std::fprintf(stderr, "splitc-run: cannot start processor %d: %s\n", rank, std::strerror(errno));
      for (pid_t p : pids)
        if (p > 0) kill(p, SIGKILL);
      return 1;
    }
    if (pid == 0) start_child(options, plan, rank, self, argv);
    pids[static_cast<std::size_t>(rank)] = pid;
  }
  for (int fd : plan.inherited_fds) close(fd);

  int running = options.procs;
  int job_status = 0;
  bool ending = false;
  auto kill_deadline = std::chrono::steady_clock::time_point::max();
  auto end_job = [&](int sig) {
    for (pid_t p : pids)
      if (p > 0) kill(p, sig);
  };

  while (running > 0) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      int rank = -1;
      for (std::size_t i = 0; i < pids.size(); ++i)
        if (pids[i] == pid) rank = static_cast<int>(i);
      if (rank < 0) continue;
      pids[static_cast<std::size_t>(rank)] = -1;
      --running;
      const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      if (failed && !ending) {
        std::fprintf(stderr, "splitc-run: processor %d (pid %d) %s; ending the job\n", rank,
                     static_cast<int>(pid), describe(status).c_str());
        job_status = exit_code(status);
        ending = true;
        end_job(SIGTERM);
        kill_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
      }
      continue;
    }
    if (pid < 0 && errno != EINTR) break;
    if (interrupted_by != 0 && !ending) {
      std::fprintf(stderr, "splitc-run: interrupted by signal %d; ending the job\n",
                   static_cast<int>(interrupted_by));
      job_status = 128 + interrupted_by;
      ending = true;
      end_job(SIGTERM);
      kill_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    }
    if (ending && std::chrono::steady_clock::now() >= kill_deadline) {
      end_job(SIGKILL);
      kill_deadline = std::chrono::steady_clock::time_point::max();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return job_status;
}

}  // namespace splitc::detail
