// Porting kit: the job supervisor (include/splitc/port/supervisor.hpp).
#include <splitc/errors.hpp>
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/supervisor.hpp>

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace splitc::port {
namespace {

using clock = std::chrono::steady_clock;

volatile sig_atomic_t interrupted_by = 0;
void on_signal(int sig) { interrupted_by = sig; }

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string expand(const std::string& pattern, const std::string& host, int rank) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 6, "{host}") == 0) {
      out += host;
      i += 5;
    } else if (pattern.compare(i, 6, "{rank}") == 0) {
      out += std::to_string(rank);
      i += 5;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

bool set_by_supervisor(const std::string& name) {
  return name == env::job.name || name == env::myproc.name || name == env::procs.name;
}

/// The shell command that starts processor `rank` through the template: the
/// job's SPLITC_* variables travel on the command line.
std::string template_command(const job_spec& spec, char** argv, const std::string& host, int rank) {
  std::vector<std::pair<std::string, std::string>> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    if (kv.rfind("SPLITC_", 0) != 0) continue;
    const auto eq = kv.find('=');
    const std::string name = kv.substr(0, eq);
    const bool overridden = std::any_of(spec.environment.begin(), spec.environment.end(),
                                        [&](const auto& v) { return v.first == name; });
    if (!overridden && !set_by_supervisor(name)) vars.emplace_back(name, kv.substr(eq + 1));
  }
  vars.insert(vars.end(), spec.environment.begin(), spec.environment.end());
  std::string command = "exec " + expand(spec.spawn_template, host, rank) + " env";
  for (const auto& [n, v] : vars) command += " " + n + "=" + shell_quote(v);
  command += fmt::format(" {}={} {}={} {}={} ", env::job.name, getpid(), env::myproc.name, rank,
                         env::procs.name, spec.procs);
  if (!spec.keep_aslr) command += std::string(no_randomisation_command) + " ";
  for (char** a = argv; *a != nullptr; ++a) command += shell_quote(*a) + " ";
  return command;
}

struct process {
  pid_t pid = -1;
  int out = -1, err = -1;  ///< forwarded output, or -1
  std::string out_buf, err_buf;
  std::string host;  ///< empty when started here
};

/// In the child: become processor `rank` (never returns).
[[noreturn]] void start_processor(const job_spec& spec, char** argv, int rank, pid_t supervisor,
                                  const std::string& command, int out, int err) {
  if (!spec.spawn_template.empty()) setpgid(0, 0);  // so the whole command can be ended
  prctl(PR_SET_PDEATHSIG, SIGKILL);                  // die with the supervisor, even killed
  if (getppid() != supervisor) _exit(1);
  if (!spec.keep_aslr) disable_randomisation();
  if (out >= 0) {
    const int null = open("/dev/null", O_RDONLY);
    dup2(null, STDIN_FILENO);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
  }
  if (!command.empty()) {
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int fd : spec.inherited_fds) {
    const int flags = fcntl(fd, F_GETFD);
    if (flags != -1) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
  }
  for (const auto& [name, value] : spec.environment) setenv(name.c_str(), value.c_str(), 1);
  setenv(env::job.name, std::to_string(supervisor).c_str(), 1);
  setenv(env::myproc.name, std::to_string(rank).c_str(), 1);
  setenv(env::procs.name, std::to_string(spec.procs).c_str(), 1);
  execvp(argv[0], argv);
  std::fprintf(stderr, "splitc-run: processor %d: cannot start %s: %s\n", rank, argv[0],
               std::strerror(errno));
  _exit(127);
}

/// Write the complete lines of a process's output (all of it when `all`).
void forward(std::string& buf, FILE* to, int rank, bool label, bool all) {
  std::size_t start = 0;
  for (;;) {
    const auto nl = buf.find('\n', start);
    if (nl == std::string::npos) break;
    if (label) std::fprintf(to, "[%d] ", rank);
    std::fwrite(buf.data() + start, 1, nl + 1 - start, to);
    start = nl + 1;
  }
  buf.erase(0, start);
  if (all && !buf.empty()) {
    if (label) std::fprintf(to, "[%d] ", rank);
    std::fwrite(buf.data(), 1, buf.size(), to);
    std::fputc('\n', to);
    buf.clear();
  }
  std::fflush(to);
}

/// Read what the processes wrote, waiting at most `timeout_ms`.
void pump_output(std::vector<process>& procs, bool label, int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<std::pair<int, bool>> who;  // rank, is stderr
  for (std::size_t r = 0; r < procs.size(); ++r) {
    for (const bool is_err : {false, true}) {
      const int fd = is_err ? procs[r].err : procs[r].out;
      if (fd < 0) continue;
      fds.push_back({fd, POLLIN, 0});
      who.emplace_back(static_cast<int>(r), is_err);
    }
  }
  ::poll(fds.data(), fds.size(), timeout_ms);
  for (std::size_t i = 0; i < fds.size(); ++i) {
    if (fds[i].revents == 0) continue;
    const auto [rank, is_err] = who[i];
    process& p = procs[static_cast<std::size_t>(rank)];
    std::string& buf = is_err ? p.err_buf : p.out_buf;
    FILE* to = is_err ? stderr : stdout;
    char chunk[65536];
    const ssize_t n = ::read(fds[i].fd, chunk, sizeof chunk);
    if (n > 0) {
      buf.append(chunk, static_cast<std::size_t>(n));
      forward(buf, to, rank, label, false);
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      forward(buf, to, rank, label, true);
      close(fds[i].fd);
      (is_err ? p.err : p.out) = -1;
    }
  }
}

}  // namespace

std::string describe_exit(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    return fmt::format("was killed by signal {} ({})", sig, strsignal(sig));
  }
  return fmt::format("exited with status {}", WEXITSTATUS(wait_status));
}

int job_exit_code(int wait_status) {
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : WEXITSTATUS(wait_status);
}

std::vector<std::string> read_hosts_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) detail::fail("splitc-run: cannot read the hosts file {}", path);
  std::vector<std::string> hosts;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string host, slots_word;
    if (!(words >> host)) continue;
    long slots = 1;
    if (words >> slots_word) {
      if (slots_word.rfind("slots=", 0) == 0) slots_word = slots_word.substr(6);
      const auto n = parse_integer(slots_word);
      if (!n || *n < 1) detail::fail("splitc-run: {}: bad slot count in '{}'", path, line);
      slots = *n;
    }
    for (long i = 0; i < slots; ++i) hosts.push_back(host);
  }
  if (hosts.empty()) detail::fail("splitc-run: the hosts file {} names no host", path);
  return hosts;
}

int supervise_job(const job_spec& asked, char** argv, const job_hooks& hooks) {
  if (asked.procs < 1) detail::fail("splitc-run: the job needs at least one process");
  job_spec spec = asked;
  spec.keep_aslr = spec.keep_aslr || env::keep_aslr.get();
  const bool by_template = !spec.spawn_template.empty();
  const bool forwarding = by_template || spec.forward_output || spec.label_output;

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);

  std::fflush(nullptr);
  const pid_t self = getpid();
  std::vector<process> procs(static_cast<std::size_t>(spec.procs));
  for (int rank = 0; rank < spec.procs; ++rank) {
    process& p = procs[static_cast<std::size_t>(rank)];
    std::string command;
    if (by_template) {
      p.host = spec.hosts.empty() ? std::string("localhost")
                                  : spec.hosts[static_cast<std::size_t>(rank) % spec.hosts.size()];
      command = template_command(spec, argv, p.host, rank);
    }
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (forwarding && (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0))
      detail::fail("splitc-run: pipe: {}", std::strerror(errno));
    const pid_t pid = fork();
    if (pid < 0) {
      std::fprintf(stderr, "splitc-run: cannot start processor %d: %s\n", rank, std::strerror(errno));
      for (const process& q : procs)
        if (q.pid > 0) kill(by_template ? -q.pid : q.pid, SIGKILL);
      return 1;
    }
    if (pid == 0) start_processor(spec, argv, rank, self, command, out[1], err[1]);
    if (by_template) setpgid(pid, pid);
    if (forwarding) {
      close(out[1]);
      close(err[1]);
    }
    p.pid = pid;
    p.out = out[0];
    p.err = err[0];
  }
  for (int fd : spec.inherited_fds) close(fd);

  int running = spec.procs;
  int job_status = 0;
  bool ending = false;
  auto kill_at = clock::time_point::max();
  auto signal_all = [&](int sig) {
    for (const process& p : procs)
      if (p.pid > 0) kill(by_template ? -p.pid : p.pid, sig);
  };
  auto end_job = [&](int status) {
    if (ending) return;
    ending = true;
    job_status = status;
    if (hooks.ending) hooks.ending();
    signal_all(SIGTERM);
    kill_at = clock::now() + std::chrono::milliseconds(500);
  };
  auto where = [&](int rank) {
    const process& p = procs[static_cast<std::size_t>(rank)];
    return by_template ? "on " + p.host : fmt::format("pid {}", p.pid);
  };
  std::vector<std::pair<clock::time_point, int>> lost_since;
  auto output_open = [&] {
    return std::any_of(procs.begin(), procs.end(), [](const process& p) { return p.out >= 0 || p.err >= 0; });
  };

  while (running > 0 || output_open()) {
    pump_output(procs, spec.label_output, 2);
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      const auto it = std::find_if(procs.begin(), procs.end(), [&](const process& p) { return p.pid == pid; });
      if (it == procs.end()) continue;
      const int rank = static_cast<int>(it - procs.begin());
      const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      if (failed && !ending) {
        std::fprintf(stderr, "splitc-run: processor %d (%s) %s; ending the job\n", rank,
                     where(rank).c_str(), describe_exit(status).c_str());
        end_job(job_exit_code(status));
      }
      it->pid = -1;
      --running;
    }
    if (!ending && hooks.lost) {
      for (const int q : hooks.lost()) {
        if (std::none_of(lost_since.begin(), lost_since.end(), [&](const auto& e) { return e.second == q; }))
          lost_since.emplace_back(clock::now(), q);
      }
      for (const auto& [since, q] : lost_since) {
        if (procs[static_cast<std::size_t>(q)].pid > 0 && clock::now() - since > std::chrono::milliseconds(1500)) {
          std::fprintf(stderr,
                       "splitc-run: processor %d (%s) lost its connection to the launcher; ending "
                       "the job\n",
                       q, where(q).c_str());
          end_job(1);
          break;
        }
      }
    }
    if (interrupted_by != 0 && !ending) {
      std::fprintf(stderr, "splitc-run: interrupted by signal %d; ending the job\n",
                   static_cast<int>(interrupted_by));
      end_job(128 + interrupted_by);
    }
    if (ending && clock::now() >= kill_at) {
      signal_all(SIGKILL);
      kill_at = clock::time_point::max();
    }
  }
  return job_status;
}

}  // namespace splitc::port
