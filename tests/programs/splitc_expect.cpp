// splitc-expect: the test suite's runner. It starts one job (a command, usually splitc-run or
// mpirun with a test program), bounds its time, keeps its output, and judges the run:
//
//   splitc-expect pass NAME COMMAND [ARGS...]
//       exit 0 and the line "PASS NAME" printed exactly once (the generic suites' programs)
//   splitc-expect output REGEX COMMAND [ARGS...]
//       exit 0 and a line matching the extended REGEX (the benchmarks' smoke runs)
//   splitc-expect output --line TEXT COMMAND [ARGS...]
//       exit 0 and the line TEXT exactly once
//   splitc-expect mpi pass:NAME|fail:REGEX SECONDS COMMAND [ARGS...]
//       a job started by a plain mpirun: pass as above, or fail (a non-zero exit that is not the
//       time limit, with output matching REGEX); Open MPI 4's misjudged finished process (its
//       issue 7833) after a passing run's output is rerun once
//   splitc-expect failure --regex REGEX [--status N] [--within S] [--timeout S] [--absent REGEX]
//                 [--program NAME] [--kill-rank R | --kill-printed-pid | --signal-launcher SIG]
//                 [--ready REGEX] -- COMMAND [ARGS...]
//       a job that must fail: a non-zero exit (or exactly N), REGEX matched and no --absent line
//       in its output, its end within S seconds (default 20), and afterwards no process of the
//       job alive (found by SPLITC_TEST_TAG, which every process of the job inherits, by the
//       job's process group, and by the program's NAME) and no splitc job memory (memfd) held
//       by any of them. --kill-rank R kills (SIGKILL) the job's processor R (SPLITC_MYPROC=R in
//       its environment) once the output matches --ready; --kill-printed-pid the process whose
//       id follows "pid " in the matching line; --signal-launcher SIG sends SIG to splitc-run
//       (or to mpirun).
//
// The command runs in a process group of its own under a hard limit (pass and output:
// SPLITC_TEST_TIMEOUT seconds, default 110, below ctest's 120; failure: --timeout, default 60):
// then the group gets SIGTERM, and SIGKILL a grace period later (5 s; 10 s for mpi, whose
// launcher ends its job itself), as timeout(1) does; so a hung job is ended by its own
// launcher rather than orphaned. The output goes to an unnamed temporary file, printed once the
// job has ended. A job not started by splitc-run gets a directory of its own for Open MPI's
// session files (private_session_base). This was four bash scripts (expect_pass.sh,
// expect_output.sh, expect_failure.sh, run_mpi_job.sh), each starting timeout, mktemp, cat, rm,
// grep, pgrep and subshells: about 25 ms of CPU above a passing job and 75 ms above a failing
// one on the machine of 2026-12-06, where this program adds 4-7 and 10-20 (docs/running.md,
// "The harness's own cost").
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace {

using clock_type = std::chrono::steady_clock;

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "splitc-expect: %s\n", what.c_str());
  std::fprintf(stderr,
               "usage: splitc-expect pass NAME COMMAND...\n"
               "       splitc-expect output REGEX COMMAND... | output --line TEXT COMMAND...\n"
               "       splitc-expect mpi pass:NAME|fail:REGEX SECONDS COMMAND...\n"
               "       splitc-expect failure --regex REGEX [options] -- COMMAND...\n");
  std::exit(2);
}

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) {
    if (!s.empty()) s += ' ';
    s += w;
  }
  return s;
}

// --- the job's output --------------------------------------------------------------------

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    if (end == std::string_view::npos) {
      lines.push_back(text);
      break;
    }
    lines.push_back(text.substr(0, end));
    text.remove_prefix(end + 1);
  }
  return lines;
}

/// An extended regular expression matched line by line, as grep -E matches it (glibc's regex
/// is grep's).
class line_regex {
 public:
  explicit line_regex(const std::string& pattern) {
    if (const int rc = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB); rc != 0) {
      char message[256];
      regerror(rc, &re_, message, sizeof message);
      usage_error("bad regular expression /" + pattern + "/: " + message);
    }
  }
  ~line_regex() { regfree(&re_); }
  line_regex(const line_regex&) = delete;
  line_regex& operator=(const line_regex&) = delete;

  bool matches_line(std::string_view line) const {
    const std::string copy(line);
    return regexec(&re_, copy.c_str(), 0, nullptr, 0) == 0;
  }
  /// The first line of TEXT that matches, if any.
  std::optional<std::string_view> first_match(std::string_view text) const {
    for (auto line : lines_of(text)) {
      if (matches_line(line)) return line;
    }
    return std::nullopt;
  }

 private:
  regex_t re_{};
};

int count_exact_lines(std::string_view text, std::string_view line) {
  int n = 0;
  for (auto l : lines_of(text)) n += (l == line) ? 1 : 0;
  return n;
}

/// An unnamed file for the job's output: nothing to remove afterwards, whatever ends this
/// process.
int open_output_file() {
  const char* dir = std::getenv("TMPDIR");
  if (dir == nullptr || *dir == '\0') dir = "/tmp";
  int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string path = std::string(dir) + "/splitc-expect.XXXXXX";
  fd = mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0) {
    std::perror("splitc-expect: a temporary file for the job's output");
    std::exit(2);
  }
  unlink(path.c_str());
  return fd;
}

std::string read_all(int fd) {
  std::string text;
  char buffer[65536];
  for (off_t at = 0;;) {
    const ssize_t n = pread(fd, buffer, sizeof buffer, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
  return text;
}

void print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

// --- the job -------------------------------------------------------------------------------

struct job_spec {
  std::vector<std::string> command;
  double limit_s = 110;     ///< then SIGTERM to the job's process group
  double grace_s = 5;       ///< then SIGKILL
  std::string tag;          ///< SPLITC_TEST_TAG for every process of the job, if not empty
  bool stdin_null = false;  ///< a background job of bash: stdin from /dev/null
};

struct job_state {
  pid_t pid = -1;
  int pidfd = -1;
  int output_fd = -1;
  clock_type::time_point start;
  std::string session_dir;  ///< Open MPI's session directory base of this job, if ours
};

struct job_result {
  int status = 0;          ///< as a shell reports it: the exit code, or 128 + the signal
  bool timed_out = false;  ///< the limit ended it
  bool killed = false;     ///< ... and SIGKILL was needed
  double seconds = 0;
  std::string output;
};

/// The running job's process group, for the forwarding handler below.
volatile sig_atomic_t current_job = 0;
/// The running job's session directory base (private_session_base), for the same handler.
char current_session_dir[256] = "";

/// A runner told to stop (ctest's limit, ^C) first passes the signal on to the job's process
/// group, which lives apart from the runner's: otherwise the job would be orphaned.
void forward_and_stop(int sig) {
  if (current_job > 0) {
    kill(-current_job, sig);
    kill(current_job, sig);
  }
  if (current_session_dir[0] != '\0') rmdir(current_session_dir);  // if the job left it empty
  signal(sig, SIG_DFL);
  raise(sig);
}

/// Open MPI's launchers keep their session directories in /tmp/ompi.HOST.UID, shared by every
/// job of the user, which a job creates when it is missing and removes once it is empty: two
/// plain mpirun or oshrun jobs of the suite, one starting as another ends, then race on it
/// ("A call to mkdir was unable to create the desired directory ... File exists", orte_init
/// failed). So a job whose command is not splitc-run (which puts it in its job's private
/// directory, src/port/mpi_launcher.cpp, and is left to do so) gets a base of its own, removed
/// after it, unless the environment names one: most such jobs are plain mpirun, mpiexec or
/// oshrun jobs, and for the others it stays an empty directory.
std::string private_session_base(const job_spec& spec) {
  if (std::getenv("OMPI_MCA_orte_tmpdir_base") != nullptr || spec.command.empty()) return {};
  if (std::filesystem::path(spec.command[0]).filename().string().rfind("splitc-run", 0) == 0)
    return {};
  std::string dir = (std::filesystem::temp_directory_path() / "splitc-expect-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    std::fprintf(stderr, "splitc-expect: cannot create %s: %s\n", dir.c_str(),
                 std::strerror(errno));
    std::exit(2);
  }
  return dir;
}

job_state start_job(const job_spec& spec) {
  job_state job;
  job.output_fd = open_output_file();
  job.session_dir = private_session_base(spec);
  std::string session_entry = "OMPI_MCA_orte_tmpdir_base=" + job.session_dir;
  std::vector<char*> argv;
  for (const auto& w : spec.command) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  std::string tag_entry = "SPLITC_TEST_TAG=" + spec.tag;
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!spec.tag.empty() && std::strncmp(*e, "SPLITC_TEST_TAG=", 16) == 0) continue;
    envp.push_back(*e);
  }
  if (!spec.tag.empty()) envp.push_back(tag_entry.data());
  if (!job.session_dir.empty()) envp.push_back(session_entry.data());
  envp.push_back(nullptr);

  std::fflush(stdout);
  std::fflush(stderr);
  job.start = clock_type::now();
  job.pid = fork();
  if (job.pid < 0) {
    std::perror("splitc-expect: fork");
    std::exit(2);
  }
  if (job.pid == 0) {
    setpgid(0, 0);
    dup2(job.output_fd, STDOUT_FILENO);
    dup2(job.output_fd, STDERR_FILENO);
    if (spec.stdin_null) {
      const int null = open("/dev/null", O_RDONLY);
      if (null >= 0) dup2(null, STDIN_FILENO);
    }
    // Signals the runner ignores or blocks must not be inherited so: the job is a new program.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    execvpe(argv[0], argv.data(), envp.data());
    std::fprintf(stderr, "splitc-expect: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(errno == ENOENT ? 127 : 126);
  }
  setpgid(job.pid, job.pid);  // also here, so that a signal cannot miss the group
  current_job = job.pid;
  std::snprintf(current_session_dir, sizeof current_session_dir, "%s", job.session_dir.c_str());
  job.pidfd = static_cast<int>(syscall(SYS_pidfd_open, job.pid, 0));
  return job;
}

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

/// Waits up to TIMEOUT_MS for the job to end; true once it has (not yet reaped).
bool wait_for_end(const job_state& job, int timeout_ms) {
  if (job.pidfd >= 0) {
    pollfd p{job.pidfd, POLLIN, 0};
    const int rc = poll(&p, 1, timeout_ms);
    return rc > 0;
  }
  // No pidfd (a kernel before 5.3): look every 10 ms.
  siginfo_t info{};
  for (int waited = 0;; waited += 10) {
    info.si_pid = 0;
    if (waitid(P_PID, static_cast<id_t>(job.pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid != 0) {
      return true;
    }
    if (waited >= timeout_ms) return false;
    usleep(10000);
  }
}

bool job_alive(const job_state& job) { return !wait_for_end(job, 0); }

void signal_job(const job_state& job, int sig) {
  kill(job.pid, sig);
  kill(-job.pid, sig);
}

/// Waits for the job's end under its limit, then reaps it and reads its output.
job_result finish_job(job_state& job, const job_spec& spec) {
  job_result r;
  const auto remaining_ms = [&](double limit) {
    const double left = limit - seconds_since(job.start);
    return left <= 0 ? 0 : static_cast<int>(left * 1000) + 1;
  };
  while (!wait_for_end(job, remaining_ms(spec.limit_s))) {
    if (seconds_since(job.start) < spec.limit_s) continue;
    r.timed_out = true;
    signal_job(job, SIGTERM);
    const double kill_at = spec.limit_s + spec.grace_s;
    while (!wait_for_end(job, remaining_ms(kill_at))) {
      if (seconds_since(job.start) < kill_at) continue;
      r.killed = true;
      signal_job(job, SIGKILL);
      wait_for_end(job, -1);
      break;
    }
    break;
  }
  int status = 0;
  while (waitpid(job.pid, &status, 0) < 0 && errno == EINTR) {
  }
  current_job = 0;
  r.seconds = seconds_since(job.start);
  if (r.timed_out) {
    r.status = r.killed ? 128 + SIGKILL : 124;  // timeout(1)'s statuses
  } else if (WIFSIGNALED(status)) {
    r.status = 128 + WTERMSIG(status);
  } else {
    r.status = WEXITSTATUS(status);
  }
  if (job.pidfd >= 0) close(job.pidfd);
  if (!job.session_dir.empty()) {
    // A launcher's daemon may still be clearing its files out of it for a moment after the
    // job's end: a removal that finds the directory changing is tried again, for up to 1 s.
    std::error_code error;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::filesystem::remove_all(job.session_dir, error);
      if (!error) break;
      usleep(10000);
    }
    current_session_dir[0] = '\0';
  }
  r.output = read_all(job.output_fd);
  close(job.output_fd);
  return r;
}

job_result run_job(const job_spec& spec) {
  job_state job = start_job(spec);
  return finish_job(job, spec);
}

// --- processes, from /proc -------------------------------------------------------------

std::optional<std::string> read_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  return text;
}

std::string proc(pid_t pid, const char* what) {
  return "/proc/" + std::to_string(pid) + "/" + what;
}

/// Every process id, in the order of bash's /proc/[0-9]* (the names sorted as text).
std::vector<pid_t> all_pids() {
  std::vector<std::string> names;
  if (DIR* d = opendir("/proc")) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] >= '0' && e->d_name[0] <= '9') names.emplace_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  std::vector<pid_t> pids;
  for (const auto& n : names) pids.push_back(static_cast<pid_t>(std::atol(n.c_str())));
  return pids;
}

bool has_env(pid_t pid, std::string_view entry) {
  const auto env = read_file(proc(pid, "environ"));
  if (!env) return false;
  std::string_view rest = *env;
  while (!rest.empty()) {
    const auto end = rest.find('\0');
    if (rest.substr(0, end) == entry) return true;
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return false;
}

std::string comm_of(pid_t pid) {
  auto comm = read_file(proc(pid, "comm")).value_or("");
  if (!comm.empty() && comm.back() == '\n') comm.pop_back();
  return comm;
}

/// The fields of /proc/PID/stat after the parenthesised name (state, parent, ...).
std::vector<std::string> stat_fields(pid_t pid) {
  const auto stat = read_file(proc(pid, "stat"));
  std::vector<std::string> fields;
  if (!stat) return fields;
  const auto close = stat->rfind(") ");
  if (close == std::string::npos) return fields;
  std::string_view rest = std::string_view(*stat).substr(close + 2);
  while (!rest.empty()) {
    const auto end = rest.find(' ');
    fields.emplace_back(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return fields;
}

/// The job's processes still alive: those whose environment carries its tag (however deep, in
/// whatever group they moved to), and those of its process group, `group`. The group finds what
/// the tag can miss: a process in the middle of an exec shows an empty environment until the
/// new program's stack is set up (a shell's `sleep 8 &` at the moment the shell exits).
std::vector<pid_t> job_pids(const std::string& tag, pid_t group) {
  const std::string entry = "SPLITC_TEST_TAG=" + tag;
  std::vector<pid_t> pids;
  for (pid_t pid : all_pids()) {
    if (pid == getpid()) continue;
    if (has_env(pid, entry)) {
      pids.push_back(pid);
      continue;
    }
    const auto f = stat_fields(pid);  // state, parent, process group, ...
    if (f.size() > 2 && f[0] != "Z" && std::atol(f[2].c_str()) == group) pids.push_back(pid);
  }
  return pids;
}

/// Whether PID runs the program NAME: its comm (the kernel keeps 15 characters of it) and the
/// name it was started by, its argv[0] (a test program is a link to its backend's test
/// driver, so the file it executes is the driver's).
bool runs_program(pid_t pid, const std::string& name) {
  if (comm_of(pid) != name.substr(0, 15)) return false;
  const auto cmdline = read_file(proc(pid, "cmdline"));
  if (!cmdline) return false;
  const std::string argv0 = cmdline->substr(0, cmdline->find('\0'));
  const auto slash = argv0.rfind('/');
  return (slash == std::string::npos ? argv0 : argv0.substr(slash + 1)) == name;
}

/// Live (not zombie) processes that run NAME. A process killed with its launcher is reparented
/// and stays a zombie until init reaps it: dead, so not an orphan.
std::vector<pid_t> live_named(const std::string& name) {
  std::vector<pid_t> pids;
  for (pid_t pid : all_pids()) {
    if (pid == getpid() || !runs_program(pid, name)) continue;
    const auto f = stat_fields(pid);
    if (!f.empty() && f[0] != "Z") pids.push_back(pid);
  }
  return pids;
}

bool holds_job_memory(pid_t pid) {
  const std::string dir = proc(pid, "fd");
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return false;
  bool holds = false;
  while (const dirent* e = readdir(d)) {
    char target[256];
    const std::string link = dir + "/" + e->d_name;
    const ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    if (std::strncmp(target, "/memfd:splitc-job", 17) == 0) {
      holds = true;
      break;
    }
  }
  closedir(d);
  return holds;
}

std::string pid_list(const std::vector<pid_t>& pids) {
  std::string s;
  for (pid_t p : pids) s += (s.empty() ? "" : " ") + std::to_string(p);
  return s;
}

int signal_number(std::string name) {
  if (!name.empty() &&
      std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isdigit(c) != 0; }))
    return std::atoi(name.c_str());
  if (name.rfind("SIG", 0) == 0) name = name.substr(3);
  static const std::pair<const char*, int> names[] = {
      {"HUP", SIGHUP},   {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"KILL", SIGKILL},
      {"TERM", SIGTERM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"ABRT", SIGABRT},
      {"ALRM", SIGALRM}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"SEGV", SIGSEGV}};
  for (const auto& [n, sig] : names) {
    if (name == n) return sig;
  }
  usage_error("unknown signal " + name);
}

std::string two_decimals(double seconds) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", std::floor(seconds * 100) / 100);
  return s;
}

std::vector<std::string> rest_of(int argc, char** argv, int from) {
  std::vector<std::string> v;
  for (int i = from; i < argc; ++i) v.emplace_back(argv[i]);
  return v;
}

double limit_from_environment() {
  const char* t = std::getenv("SPLITC_TEST_TIMEOUT");
  if (t == nullptr || *t == '\0') return 110;
  char* end = nullptr;
  const long v = std::strtol(t, &end, 10);
  if (*end != '\0' || v <= 0)
    usage_error(std::string("SPLITC_TEST_TIMEOUT is not a whole number of seconds: ") + t);
  return static_cast<double>(v);
}

// --- pass and output -------------------------------------------------------------------

int expect_output(const std::optional<std::string>& line, const std::optional<std::string>& regex,
                  std::vector<std::string> command) {
  if (command.empty()) usage_error("no command");
  job_spec spec;
  spec.command = std::move(command);
  spec.limit_s = limit_from_environment();
  const job_result r = run_job(spec);
  print(r.output);
  const std::string cmd = joined(spec.command);
  if (r.timed_out) {
    std::fprintf(stderr, "expect_output: '%s' did not finish within %gs\n", cmd.c_str(),
                 spec.limit_s);
    return 1;
  }
  if (r.status != 0) {
    std::fprintf(stderr, "expect_output: '%s' exited with status %d\n", cmd.c_str(), r.status);
    return 1;
  }
  if (line) {
    const int count = count_exact_lines(r.output, *line);
    if (count != 1) {
      std::fprintf(stderr,
                   "expect_output: '%s' exited 0 but printed '%s' %d times (once expected)\n",
                   cmd.c_str(), line->c_str(), count);
      return 1;
    }
  } else if (!line_regex(*regex).first_match(r.output)) {
    std::fprintf(stderr, "expect_output: '%s' exited 0 but printed no line matching /%s/\n",
                 cmd.c_str(), regex->c_str());
    return 1;
  }
  return 0;
}

// --- mpi ---------------------------------------------------------------------------------

int expect_mpi(const std::string& expect, const std::string& seconds,
               std::vector<std::string> command) {
  const bool pass = expect.rfind("pass:", 0) == 0;
  if (!pass && expect.rfind("fail:", 0) != 0) usage_error("unknown expectation '" + expect + "'");
  char* end = nullptr;
  const long limit = std::strtol(seconds.c_str(), &end, 10);
  if (*end != '\0' || limit <= 0) usage_error("SECONDS must be a whole number: " + seconds);
  if (command.empty()) usage_error("no command");
  job_spec spec;
  spec.command = std::move(command);
  spec.limit_s = static_cast<double>(limit);
  spec.grace_s = 10;
  const std::string cmd = joined(spec.command);
  const std::string wanted = expect.substr(5);  // the NAME of pass:, the REGEX of fail:
  job_result r = run_job(spec);
  print(r.output);
  // Open MPI 4.x's mpirun can misjudge a process that finalized and exited 0 ("mpirun has
  // exited due to process rank N with PID 0 ... exiting improperly", exit 1): a race in its own
  // bookkeeping, open-mpi/ompi issue 7833, not fixed in the 4.x series; about 1 run in
  // 1,000-2,000 of a one-process job. That exact report, after the job printed what a passing
  // run prints, is rerun once; anything else is judged as it is.
  if (pass && r.status == 1 && r.output.find("with PID 0 on") != std::string::npos &&
      r.output.find("exiting improperly") != std::string::npos &&
      count_exact_lines(r.output, "PASS " + wanted) == 1) {
    std::fprintf(stderr,
                 "run_test: Open MPI misjudged a finished process (its issue 7833); running the "
                 "job again\n");
    r = run_job(spec);
    print(r.output);
  }
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f", std::floor(r.seconds * 10) / 10);
  if (r.timed_out) {
    std::fprintf(stderr, "run_test: '%s' did not finish within %ld s (hang?)\n", cmd.c_str(),
                 limit);
    return 1;
  }
  if (pass) {
    if (r.status != 0) {
      std::fprintf(stderr, "run_test: '%s' exited with status %d after %s s\n", cmd.c_str(),
                   r.status, elapsed);
      return 1;
    }
    const int count = count_exact_lines(r.output, "PASS " + wanted);
    if (count != 1) {
      std::fprintf(stderr, "run_test: 'PASS %s' printed %d times (expected once)\n", wanted.c_str(),
                   count);
      return 1;
    }
    return 0;
  }
  if (r.status == 0) {
    std::fprintf(stderr, "run_test: '%s' was expected to fail but exited 0\n", cmd.c_str());
    return 1;
  }
  if (!line_regex(wanted).first_match(r.output)) {
    std::fprintf(stderr, "run_test: '%s' failed (status %d) without a message matching /%s/\n",
                 cmd.c_str(), r.status, wanted.c_str());
    return 1;
  }
  std::printf("run_test: failed as expected (status %d, %s s)\n", r.status, elapsed);
  return 0;
}

// --- failure -----------------------------------------------------------------------------

struct failure_options {
  std::string regex, absent, program, ready, launcher_signal;
  std::optional<int> status;
  std::optional<std::string> kill_rank;
  bool kill_printed = false;
  double within = 20, hard = 60;
};

double seconds_option(const std::string& text, const char* option) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || v < 0)
    usage_error(std::string(option) + " takes seconds, not '" + text + "'");
  return v;
}

int expect_failure(int argc, char** argv) {
  failure_options o;
  int i = 2;
  const auto value = [&](const char* option) -> std::string {
    if (i + 1 >= argc) usage_error(std::string(option) + " needs a value");
    i += 2;
    return argv[i - 1];
  };
  while (i < argc) {
    const std::string a = argv[i];
    if (a == "--regex")
      o.regex = value("--regex");
    else if (a == "--absent") {
      const auto v = value("--absent");
      o.absent = o.absent.empty() ? v : o.absent + "|" + v;
    } else if (a == "--status")
      o.status = std::atoi(value("--status").c_str());
    else if (a == "--within")
      o.within = seconds_option(value("--within"), "--within");
    else if (a == "--timeout")
      o.hard = seconds_option(value("--timeout"), "--timeout");
    else if (a == "--program")
      o.program = value("--program");
    else if (a == "--kill-rank")
      o.kill_rank = value("--kill-rank");
    else if (a == "--kill-printed-pid") {
      o.kill_printed = true;
      ++i;
    } else if (a == "--ready")
      o.ready = value("--ready");
    else if (a == "--signal-launcher")
      o.launcher_signal = value("--signal-launcher");
    else if (a == "--") {
      ++i;
      break;
    } else
      usage_error("expect_failure: unknown option " + a);
  }
  if (o.regex.empty() || i >= argc) usage_error("failure needs --regex REGEX and -- COMMAND");
  const line_regex regex(o.regex);
  const bool signals = o.kill_rank || o.kill_printed || !o.launcher_signal.empty();
  const int launcher_sig = o.launcher_signal.empty() ? 0 : signal_number(o.launcher_signal);

  std::random_device seed;
  job_spec spec;
  spec.command = rest_of(argc, argv, i);
  spec.limit_s = o.hard;
  spec.grace_s = 5;
  spec.tag = "expect-failure-" + std::to_string(getpid()) + "-" + std::to_string(seed());
  spec.stdin_null = true;
  const std::string cmd = joined(spec.command);
  int failures = 0;
  const auto fail = [&](const std::string& why) {
    std::fprintf(stderr, "expect_failure: FAIL: %s\n", why.c_str());
    ++failures;
  };

  job_state job = start_job(spec);
  if (signals) {
    // Wait for the program to say it is ready.
    const line_regex ready(o.ready.empty() ? std::string("^") : o.ready);
    std::optional<std::string> ready_line;
    for (;;) {
      const std::string out = read_all(job.output_fd);
      if (auto l = ready.first_match(out)) {
        ready_line = std::string(*l);
        break;
      }
      if (!job_alive(job)) break;
      if (seconds_since(job.start) > spec.limit_s) break;  // finish_job ends it
      usleep(50000);
    }
    pid_t victim = 0, launcher = 0, mpi_launcher = 0;
    for (pid_t pid : job_pids(spec.tag, job.pid)) {
      const std::string comm = comm_of(pid);
      if (o.kill_rank && has_env(pid, "SPLITC_MYPROC=" + *o.kill_rank) &&
          (o.program.empty() || runs_program(pid, o.program))) {
        victim = pid;
      }
      // splitc-run (it runs mpirun for the mpi backends) as the job's own command; mpirun only
      // when there is none. splitc-run's own forks (its janitor, the ranks' supervisors) carry
      // the tag and the name too.
      if (launcher_sig != 0 && comm.rfind("splitc-run", 0) == 0 && pid == job.pid) {
        launcher = pid;
      } else if (launcher_sig != 0 &&
                 (comm.rfind("mpirun", 0) == 0 || comm.rfind("mpiexec", 0) == 0)) {
        mpi_launcher = pid;
      }
    }
    if (launcher_sig != 0) victim = launcher != 0 ? launcher : mpi_launcher;
    if (o.kill_printed) {
      victim = 0;
      if (ready_line) {
        // The last "pid N" of the line.
        for (auto at = ready_line->find("pid "); at != std::string::npos;
             at = ready_line->find("pid ", at + 1)) {
          const char* digits = ready_line->c_str() + at + 4;
          if (*digits >= '0' && *digits <= '9') victim = static_cast<pid_t>(std::atol(digits));
        }
      }
    }
    if (victim == 0) {
      fail("found no process to signal");
    } else if (o.kill_printed) {
      std::printf("expect_failure: kill -9 %d (the pid it printed)\n", victim);
      kill(victim, SIGKILL);
    } else if (o.kill_rank) {
      std::printf("expect_failure: kill -9 %d (processor %s)\n", victim, o.kill_rank->c_str());
      kill(victim, SIGKILL);
    } else {
      std::printf("expect_failure: kill -%s %d (splitc-run)\n", o.launcher_signal.c_str(), victim);
      kill(victim, launcher_sig);
    }
    std::fflush(stdout);
  }
  const job_result r = finish_job(job, spec);
  const std::string elapsed = two_decimals(r.seconds);
  std::printf("----- output of: %s -----\n", cmd.c_str());
  print(r.output);
  std::printf("----- exit status %d after %ss -----\n", r.status, elapsed.c_str());
  std::fflush(stdout);

  if (r.status == 0) {
    fail("the job exited 0; it must fail");
  } else if (r.timed_out || (r.status == 128 + SIGKILL && o.status != 128 + SIGKILL)) {
    fail("the job did not end by itself: the limit ended it after " + two_decimals(o.hard) + "s");
  }
  if (o.status && r.status != *o.status) {
    fail("exit status " + std::to_string(r.status) + ", expected " + std::to_string(*o.status));
  }
  if (!regex.first_match(r.output)) fail("the output does not match: " + o.regex);
  if (!o.absent.empty()) {
    const line_regex absent(o.absent);
    bool found = false;
    for (auto line : lines_of(r.output)) {
      if (absent.matches_line(line)) {
        std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
        found = true;
      }
    }
    if (found) fail("the output has a line it must not have (above): " + o.absent);
  }
  if (r.seconds > o.within) {
    fail("the job took " + elapsed + "s to end; the limit is " + two_decimals(o.within) + "s");
  }

  // Nothing of the job may remain. Processes killed by the launcher or by PDEATHSIG may take a
  // moment to be reaped: look for up to 5 seconds before calling them orphans.
  std::vector<pid_t> left, named;
  for (int round = 0; round < 50; ++round) {
    left = job_pids(spec.tag, job.pid);
    named = o.program.empty() ? std::vector<pid_t>{} : live_named(o.program);
    if (left.empty() && named.empty()) break;
    usleep(100000);
  }
  if (!left.empty()) {
    std::string described;
    for (pid_t p : left) described += std::to_string(p) + " " + comm_of(p) + ";";
    fail("processes of the job are still alive: " + described);
  }
  if (!named.empty()) fail("processes named " + o.program + " are still alive: " + pid_list(named));
  // The job's memory is a memfd ("memfd:splitc-job"); it vanishes with the last process that
  // holds it. Only a process of the job still alive can hold the job's.
  std::vector<pid_t> holders;
  for (pid_t p : left) {
    if (holds_job_memory(p)) holders.push_back(p);
  }
  if (!holders.empty()) fail("splitc job memory is still held by process(es) " + pid_list(holders));

  if (failures != 0) return 1;
  std::printf("expect_failure: ok (exit status %d, %ss, nothing left behind)\n", r.status,
              elapsed.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  signal(SIGPIPE, SIG_IGN);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) signal(sig, forward_and_stop);
  if (argc < 2) usage_error("no mode");
  const std::string mode = argv[1];
  if (mode == "pass") {
    if (argc < 4) usage_error("pass NAME COMMAND...");
    return expect_output("PASS " + std::string(argv[2]), std::nullopt, rest_of(argc, argv, 3));
  }
  if (mode == "output") {
    if (argc >= 3 && std::string(argv[2]) == "--line") {
      if (argc < 5) usage_error("output --line TEXT COMMAND...");
      return expect_output(std::string(argv[3]), std::nullopt, rest_of(argc, argv, 4));
    }
    if (argc < 4) usage_error("output REGEX COMMAND...");
    return expect_output(std::nullopt, std::string(argv[2]), rest_of(argc, argv, 3));
  }
  if (mode == "mpi") {
    if (argc < 5) usage_error("mpi pass:NAME|fail:REGEX SECONDS COMMAND...");
    return expect_mpi(argv[2], argv[3], rest_of(argc, argv, 4));
  }
  if (mode == "failure") return expect_failure(argc, argv);
  usage_error("unknown mode " + mode);
}
