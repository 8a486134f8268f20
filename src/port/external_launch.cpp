// The rank supervisor and the supervision of a foreign launcher
// (include/splitc/port/external_launch.hpp).
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/external_launch.hpp>
#include <splitc/port/supervisor.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace splitc::port {
namespace {

/// Where the processor finds its end of the "finalize reached" pipe.
constexpr const char* finalized_fd_variable = env::supervisor_fd.name;
/// Asks a process to supervise itself.
constexpr const char* supervise_variable = env::supervise.name;

/// The signals a supervisor passes on (and that interrupt splitc-run).
sigset_t passed_on() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) sigaddset(&set, sig);
  return set;
}

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return std::atoi(v);
  }
  return -1;
}

/// The job's size as the launcher tells its processes, or 0.
int launcher_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}) {
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return std::atoi(v);
  }
  return 0;
}

void say(const std::string& line) {
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
}

/// "RANK STATUS SIZE" to splitc-run's report socket. A failure waits for room;
/// a clean end (status 0) does not: splitc-run reads only after the launcher
/// has ended, and a lost one only keeps it from overruling the launcher.
void report(const std::string& path, int rank, int status) {
  const int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  sockaddr_un to{};
  to.sun_family = AF_UNIX;
  std::strncpy(to.sun_path, path.c_str(), sizeof to.sun_path - 1);
  const std::string text = fmt::format("{} {} {}", rank, status, launcher_size());
  sendto(fd, text.data(), text.size(), status == 0 ? MSG_DONTWAIT : 0,
         reinterpret_cast<sockaddr*>(&to), sizeof to);
  close(fd);
}

/// splitc-run (`launcher`) removes the job's directory when mpirun is done;
/// if splitc-run is gone (killed), the last supervisors to leave do it.
void clean_up_if_orphaned(pid_t launcher, const std::string& dir) {
  if (launcher <= 0 || kill(launcher, 0) == 0 || errno != ESRCH) return;
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

/// Whether process `pid` still runs (a zombie nobody reaps does not).
bool running(pid_t pid) {
  if (kill(pid, 0) != 0) return false;
  std::FILE* stat = std::fopen(fmt::format("/proc/{}/stat", pid).c_str(), "r");
  if (stat == nullptr) return true;
  char state = '?';
  // "PID (COMM) STATE ...": COMM may hold spaces and parentheses; STATE follows the last ')'.
  char line[512];
  const std::size_t n = std::fread(line, 1, sizeof line - 1, stat);
  std::fclose(stat);
  line[n] = '\0';
  if (const char* close_paren = std::strrchr(line, ')'); close_paren != nullptr && close_paren[1] == ' ')
    state = close_paren[2];
  return state != 'Z' && state != 'X';
}

/// A process that outlives splitc-run to remove the job's directory when splitc-run dies
/// without doing it (SIGKILL runs no handler, and the ranks' supervisors die with their
/// launcher, so clean_up_if_orphaned does not run either). It waits on a pipe whose write end
/// only splitc-run holds: one byte means splitc-run cleaned up itself; the end of the pipe
/// without it means splitc-run is gone, so it waits for the launcher (which its death ended)
/// to go too, then removes the directory. Returns the write end.
int start_janitor(pid_t launcher, const std::string& dir) {
  int gone[2];
  if (pipe2(gone, O_CLOEXEC) != 0) return -1;
  std::fflush(nullptr);
  const pid_t janitor = fork();
  if (janitor < 0) {
    close(gone[0]);
    close(gone[1]);
    return -1;
  }
  if (janitor > 0) {
    close(gone[0]);
    return gone[1];
  }
  // Out of the job's session and its output (a harness reading splitc-run's output would
  // otherwise wait for this process too), deaf to the signals that end the job.
  setsid();
  prctl(PR_SET_NAME, "splitc-janitor");  // not mistaken for splitc-run in ps or by a harness
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE}) signal(sig, SIG_IGN);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  if (const int null = open("/dev/null", O_RDWR); null >= 0) {
    for (int fd = 0; fd <= 2; ++fd) dup2(null, fd);
    if (null > 2) close(null);
  }
  for (int fd = 3; fd < 1024; ++fd)
    if (fd != gone[0]) close(fd);
  char byte = 0;
  ssize_t n;
  while ((n = ::read(gone[0], &byte, 1)) < 0 && errno == EINTR) {
  }
  if (n == 1) _exit(0);  // splitc-run removed it
  // The launcher had PR_SET_PDEATHSIG: it is ending the job's processes. Wait for it (60 s at
  // most), then remove the directory, and again a moment later for a straggler's file.
  for (int tick = 0; tick < 600 && running(launcher); ++tick) usleep(100 * 1000);
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  usleep(500 * 1000);
  std::filesystem::remove_all(dir, ignored);
  _exit(0);
}

[[noreturn]] void die_like(int sig) {
  signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  sigprocmask(SIG_UNBLOCK, &one, nullptr);
  raise(sig);
  _exit(128 + sig);
}

}  // namespace

void supervise_rank_if_asked(bool may_fork, bool whole_job) {
  const auto asked = env::supervise.value();
  if (!asked) return;
  if (!may_fork) {
    unsetenv(supervise_variable);
    return;
  }
  // "PID:PATH": splitc-run's process id, the report socket in the job's directory.
  const std::string value(*asked);
  const auto colon = value.find(':');
  const pid_t launcher = colon == std::string::npos ? 0 : std::atoi(value.substr(0, colon).c_str());
  const std::string path = colon == std::string::npos ? value : value.substr(colon + 1);
  const std::string dir = path.substr(0, path.rfind('/'));
  unsetenv(supervise_variable);  // the processor itself, and what it starts, are not asked
  const int rank = launcher_rank();
  // The processor writes one byte here when it reaches finalize.
  int told[2];
  if (pipe2(told, O_CLOEXEC) != 0) detail::fail("cannot create a pipe: {}", std::strerror(errno));

  sigset_t set = passed_on(), before;
  sigaddset(&set, SIGCHLD);
  sigprocmask(SIG_BLOCK, &set, &before);
  std::fflush(nullptr);
  const pid_t supervisor = getpid();
  const pid_t child = fork();
  if (child < 0) detail::fail("cannot start the processor under its supervisor: {}", std::strerror(errno));
  if (child == 0) {
    // The processor: dies with its supervisor, and goes on with init.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != supervisor) _exit(1);
    sigprocmask(SIG_SETMASK, &before, nullptr);
    close(told[0]);
    setenv(finalized_fd_variable, std::to_string(told[1]).c_str(), 1);
    return;
  }
  close(told[1]);
  fcntl(told[0], F_SETFL, O_NONBLOCK);
  // The supervisor: dies with its launcher; passes the launcher's signals on.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  int passed = 0;
  int status = 0;
  for (;;) {
    const int sig = sigwaitinfo(&set, nullptr);
    if (sig == SIGCHLD) {
      if (waitpid(child, &status, WNOHANG) == child) break;
    } else if (sig > 0) {
      passed = sig;
      kill(child, sig);
      kill(child, SIGCONT);  // a stopped processor must hear it too
    }
  }
  clean_up_if_orphaned(launcher, dir);
  if (passed != 0) die_like(passed);  // the launcher ends the job: end as it asked
  const std::string who = whole_job
                              ? fmt::format("the job's process (pid {}, every processor)", child)
                              : fmt::format("processor {} (pid {})", rank, child);
  if (WIFSIGNALED(status)) {
    say(fmt::format("splitc-run: {} {}; ending the job\n", who, describe_exit(status)));
    report(path, rank, job_exit_code(status));
    _exit(job_exit_code(status));
  }
  const int code = WEXITSTATUS(status);
  char byte = 0;
  if (code == 0 && ::read(told[0], &byte, 1) != 1) {
    // Left without finalize (_exit(0), or past the exit handlers): the others would wait.
    say(fmt::format("splitc-run: {} exited before {} finalize(); ending the job\n", who,
                    whole_job ? "every processor reached" : "reaching"));
    report(path, rank, error_exit_status);
    _exit(error_exit_status);
  }
  report(path, rank, code);  // 0: finalized and exited 0
  _exit(code);
}

void tell_supervisor_finalized() noexcept {
  if (!env::supervisor_fd.is_set()) return;
  const int n = static_cast<int>(env::supervisor_fd.get());
  const char byte = 1;
  [[maybe_unused]] auto w = ::write(n, &byte, 1);
  close(n);
  unsetenv(finalized_fd_variable);
}

int run_external_launcher(const std::vector<std::string>& command,
                          const std::vector<std::string>& private_dir_variables,
                          const std::string& hint) {
  std::string dir = "/dev/shm/splitc-job-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) {
    dir = (std::filesystem::temp_directory_path() / "splitc-job-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr)
      detail::fail("splitc-run: cannot create the job's directory: {}", std::strerror(errno));
  }
  const std::string path = dir + "/report";
  const int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un me{};
  me.sun_family = AF_UNIX;
  std::strncpy(me.sun_path, path.c_str(), sizeof me.sun_path - 1);
  if (sock < 0 || bind(sock, reinterpret_cast<sockaddr*>(&me), sizeof me) != 0)
    detail::fail("splitc-run: cannot create the job's report socket {}: {}", path, std::strerror(errno));
  setenv(supervise_variable, fmt::format("{}:{}", getpid(), path).c_str(), 1);
  for (const auto& variable : private_dir_variables) setenv(variable.c_str(), dir.c_str(), 0);

  sigset_t set = passed_on(), before;
  sigaddset(&set, SIGCHLD);
  sigprocmask(SIG_BLOCK, &set, &before);
  std::vector<char*> args;
  for (const auto& w : command) args.push_back(const_cast<char*>(w.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t self = getpid();
  const pid_t launcher = fork();
  if (launcher < 0) detail::fail("splitc-run: fork: {}", std::strerror(errno));
  if (launcher == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // it ends the job if we are killed
    if (getppid() != self) _exit(1);
    sigprocmask(SIG_SETMASK, &before, nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "splitc-run: cannot start %s: %s%s\n", args[0], std::strerror(errno),
                 hint.c_str());
    _exit(127);
  }
  const int janitor = start_janitor(launcher, dir);

  int interrupted = 0;
  int status = 0;
  auto kill_at = std::chrono::steady_clock::time_point::max();
  for (;;) {
    const timespec tick{0, 100 * 1000 * 1000};
    const int sig = sigtimedwait(&set, nullptr, &tick);
    if (sig == SIGCHLD || sig < 0) {
      if (waitpid(launcher, &status, WNOHANG) == launcher) break;
    } else if (interrupted == 0) {
      interrupted = sig;
      std::fprintf(stderr, "splitc-run: interrupted by signal %d; ending the job\n", sig);
      kill(launcher, SIGTERM);
      kill_at = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    }
    if (std::chrono::steady_clock::now() >= kill_at) {
      kill(launcher, SIGKILL);
      kill_at = std::chrono::steady_clock::time_point::max();
    }
  }
  sigprocmask(SIG_SETMASK, &before, nullptr);

  // The first failure a rank supervisor reported is the job's. Clean ends are
  // counted: when every processor finalized and exited 0, a launcher that
  // exits non-zero all the same has misjudged the job (Open MPI 4.x's mpirun
  // now and then reports a finished process as "exiting improperly" and
  // exits 1: open-mpi/ompi issue 7833).
  int result = -1;
  int size = 0;
  std::vector<bool> clean;
  char text[64];
  for (;;) {
    const ssize_t n = recv(sock, text, sizeof text - 1, MSG_DONTWAIT);
    if (n < 0) break;
    text[n] = '\0';
    int rank = 0, code = 0, procs = 0;
    const int fields = std::sscanf(text, "%d %d %d", &rank, &code, &procs);
    if (fields < 2) continue;
    if (code != 0) {
      if (result < 0) result = code;
    } else if (fields == 3 && procs > 0 && rank >= 0 && rank < procs) {
      if (size == 0) {
        size = procs;
        clean.assign(static_cast<std::size_t>(procs), false);
      }
      if (procs == size) clean[static_cast<std::size_t>(rank)] = true;
    }
  }
  close(sock);
  const bool all_clean = size > 0 && std::find(clean.begin(), clean.end(), false) == clean.end();
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);  // and the MPI library's files in it
  if (janitor >= 0) {
    const char done = 1;
    [[maybe_unused]] auto w = ::write(janitor, &done, 1);
    close(janitor);
  }
  if (interrupted != 0) return 128 + interrupted;
  if (result > 0) return result;
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0 && all_clean) {
    std::fprintf(stderr,
                 "splitc-run: every processor (%d) reached finalize() and exited 0, but %s exited "
                 "with status %d (Open MPI's mpirun misjudges finished processes so now and then: "
                 "its issue 7833); the job succeeded\n",
                 size, args[0], WEXITSTATUS(status));
    return 0;
  }
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr, "splitc-run: %s was killed by signal %d (%s)\n", args[0], WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

}  // namespace splitc::port
