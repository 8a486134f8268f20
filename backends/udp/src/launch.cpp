// Launching a udp job (splitc-run --backend udp): a random job identifier and
// secret, the rendezvous (a TCP server on a thread of the launcher that hands
// every process the table of endpoints and releases them together at the
// end), and the processes: on this host through the generic supervisor
// (run_job), or, with a hosts file (SPLITC_UDP_HOSTS) or labelled output,
// through a spawn-command template per host (SPLITC_UDP_SPAWN, default
// "ssh {host}"; e.g. "ip netns exec {host}"), with each process's output
// forwarded line by line.
#include <splitc/backends/udp.hpp>
#include <splitc/backends/udp_control.hpp>
#include <splitc/detail/launch.hpp>
#include <splitc/errors.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace splitc::backends::udp {
namespace {

// ---- the rendezvous --------------------------------------------------------------

class rendezvous {
 public:
  rendezvous(int procs, const wire_keys& keys, std::uint64_t job, std::uint32_t listen_ip)
      : procs_(procs), keys_(keys), job_(job), conns_(static_cast<std::size_t>(procs), -1),
        state_(static_cast<std::size_t>(procs), 0), table_(static_cast<std::size_t>(procs)) {
    listen_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = listen_ip;
    a.sin_port = htons(static_cast<std::uint16_t>(env_size("SPLITC_UDP_PORT", 0)));
    if (bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_, 1024) != 0)
      detail::fail("splitc-run: cannot listen for the udp rendezvous on {}: {}", inet_ntoa(a.sin_addr),
                   std::strerror(errno));
    socklen_t l = sizeof a;
    getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &l);
    address_ = fmt::format("{}:{}", inet_ntoa(a.sin_addr), ntohs(a.sin_port));
    wake_ = eventfd(0, EFD_CLOEXEC);
    thread_ = std::thread([this] { run(); });
  }
  ~rendezvous() { stop(false); }

  const std::string& address() const { return address_; }

  /// End the rendezvous; with `abort`, tell every process to leave at once.
  void stop(bool abort) {
    if (!thread_.joinable()) return;
    abort_.store(abort);
    stop_.store(true);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto w = write(wake_, &one, sizeof one);
    thread_.join();
    for (int fd : conns_)
      if (fd >= 0) close(fd);
    for (int fd : pending_) close(fd);
    close(listen_);
    close(wake_);
  }

  /// Processors whose connection closed before they said DONE (they died or left early).
  std::vector<int> lost() {
    std::lock_guard<std::mutex> g(mutex_);
    return lost_;
  }

 private:
  enum : int { connected = 1, done = 2, closed = 4 };

  void run() {
    for (;;) {
      std::vector<pollfd> fds;
      fds.push_back({wake_, POLLIN, 0});
      fds.push_back({listen_, POLLIN, 0});
      for (int fd : pending_) fds.push_back({fd, POLLIN, 0});
      for (int fd : conns_)
        if (fd >= 0) fds.push_back({fd, POLLIN, 0});
      ::poll(fds.data(), fds.size(), 1000);
      if (stop_.load()) break;
      if (fds[1].revents & POLLIN) {
        const int c = accept4(listen_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
          timeval tv{5, 0};  // a peer that sends half a frame cannot stall us for long
          setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
          pending_.push_back(c);
        }
      }
      for (std::size_t i = 2; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        const int fd = fds[i].fd;
        const auto pit = std::find(pending_.begin(), pending_.end(), fd);
        if (pit != pending_.end()) {
          pending_.erase(pit);
          hello(fd);
        } else {
          message(fd);
        }
      }
      if (!table_sent_ && registered_ == procs_) {
        for (std::size_t q = 0; q < conns_.size(); ++q)
          write_control(conns_[q], keys_, job_, control_type::table, static_cast<std::uint32_t>(q),
                        table_.data(), table_.size() * sizeof(endpoint));
        table_sent_ = true;
      }
      if (table_sent_ && !released_) {
        bool all = true;
        for (int s : state_) all = all && (s & (done | closed)) != 0;
        if (all) {
          for (std::size_t q = 0; q < conns_.size(); ++q)
            if (conns_[q] >= 0)
              write_control(conns_[q], keys_, job_, control_type::release,
                            static_cast<std::uint32_t>(q), nullptr, 0);
          released_ = true;
        }
      }
    }
    if (abort_.load()) {
      for (std::size_t q = 0; q < conns_.size(); ++q)
        if (conns_[q] >= 0)
          write_control(conns_[q], keys_, job_, control_type::abort, static_cast<std::uint32_t>(q),
                        nullptr, 0);
    }
  }

  void hello(int fd) {
    control_frame f{};
    std::vector<unsigned char> payload;
    if (!read_control(fd, keys_, job_, f, payload) ||
        f.type != static_cast<std::uint32_t>(control_type::hello) ||
        f.rank >= static_cast<std::uint32_t>(procs_) || payload.size() != sizeof(endpoint) ||
        conns_[f.rank] >= 0) {
      close(fd);  // not one of ours
      return;
    }
    timeval tv{0, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    conns_[f.rank] = fd;
    state_[f.rank] |= connected;
    std::memcpy(&table_[f.rank], payload.data(), sizeof(endpoint));
    ++registered_;
  }

  void message(int fd) {
    std::size_t q = 0;
    while (q < conns_.size() && conns_[q] != fd) ++q;
    if (q == conns_.size()) return;
    control_frame f{};
    std::vector<unsigned char> payload;
    if (read_control(fd, keys_, job_, f, payload) && f.rank == q) {
      if (f.type == static_cast<std::uint32_t>(control_type::done)) state_[q] |= done;
      return;
    }
    close(fd);
    conns_[q] = -1;
    if ((state_[q] & done) == 0) {
      std::lock_guard<std::mutex> g(mutex_);
      lost_.push_back(static_cast<int>(q));
    }
    state_[q] |= closed;
  }

  int procs_;
  const wire_keys& keys_;
  std::uint64_t job_;
  int listen_ = -1;
  int wake_ = -1;
  std::string address_;
  std::vector<int> conns_;
  std::vector<int> pending_;
  std::vector<int> state_;
  std::vector<endpoint> table_;
  int registered_ = 0;
  bool table_sent_ = false;
  bool released_ = false;
  std::atomic<bool> stop_{false}, abort_{false};
  std::mutex mutex_;
  std::vector<int> lost_;
  std::thread thread_;
};

// ---- hosts and the spawn template ------------------------------------------------

std::vector<std::string> read_hosts(const std::string& file) {
  std::ifstream in(file);
  if (!in) detail::fail("splitc-run: cannot read the hosts file {}", file);
  std::vector<std::string> hosts;
  std::string line;
  while (std::getline(in, line)) {
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string host, slots_word;
    if (!(words >> host)) continue;
    int slots = 1;
    if (words >> slots_word) {
      if (slots_word.rfind("slots=", 0) == 0) slots_word = slots_word.substr(6);
      slots = std::atoi(slots_word.c_str());
      if (slots < 1) detail::fail("splitc-run: {}: bad slot count in '{}'", file, line);
    }
    for (int i = 0; i < slots; ++i) hosts.push_back(host);
  }
  if (hosts.empty()) detail::fail("splitc-run: the hosts file {} names no host", file);
  return hosts;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
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

/// The first IPv4 address of an interface that is up and not loopback.
std::uint32_t outward_address() {
  ifaddrs* list = nullptr;
  std::uint32_t found = htonl(INADDR_LOOPBACK);
  if (getifaddrs(&list) != 0) return found;
  for (ifaddrs* i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
    if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
    found = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
    break;
  }
  freeifaddrs(list);
  return found;
}

// ---- the spawner (hosts file, or labelled output) ----------------------------------

volatile sig_atomic_t interrupted_by = 0;
void on_signal(int sig) { interrupted_by = sig; }

struct child {
  pid_t pid = -1;
  int out = -1, err = -1;
  std::string out_buf, err_buf;
  std::string host;
};

void forward(child& c, int rank, bool is_err, bool label, bool flush_all) {
  std::string& buf = is_err ? c.err_buf : c.out_buf;
  FILE* to = is_err ? stderr : stdout;
  std::size_t start = 0;
  for (;;) {
    const auto nl = buf.find('\n', start);
    if (nl == std::string::npos) break;
    if (label) std::fprintf(to, "[%d] ", rank);
    std::fwrite(buf.data() + start, 1, nl + 1 - start, to);
    start = nl + 1;
  }
  buf.erase(0, start);
  if (flush_all && !buf.empty()) {
    if (label) std::fprintf(to, "[%d] ", rank);
    std::fwrite(buf.data(), 1, buf.size(), to);
    std::fputc('\n', to);
    buf.clear();
  }
  std::fflush(to);
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return fmt::format("was killed by signal {} ({})", sig, strsignal(sig));
  }
  return fmt::format("exited with status {}", WEXITSTATUS(status));
}

int spawn_job(const detail::launch_options& options, char** argv,
              const std::vector<std::pair<std::string, std::string>>& env,
              const std::vector<std::string>& hosts, const std::string& spawn, bool label,
              rendezvous& server) {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);

  // Every SPLITC_ variable of ours travels with the command (ssh forwards no environment).
  std::vector<std::pair<std::string, std::string>> vars;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv = *e;
    if (kv.rfind("SPLITC_", 0) != 0) continue;
    const auto eq = kv.find('=');
    const std::string name = kv.substr(0, eq);
    bool ours = false;
    for (const auto& [n, v] : env) ours = ours || n == name;
    if (!ours && name != "SPLITC_JOB" && name != "SPLITC_MYPROC" && name != "SPLITC_PROCS" &&
        name != "SPLITC_UDP_HOSTS" && name != "SPLITC_UDP_SPAWN")
      vars.emplace_back(name, kv.substr(eq + 1));
  }
  for (const auto& kv : env) vars.push_back(kv);
  std::string program;
  if (!options.keep_aslr) program += "setarch -R ";
  for (char** a = argv; *a != nullptr; ++a) program += shell_quote(*a) + " ";

  std::fflush(nullptr);
  const pid_t self = getpid();
  std::vector<child> children(static_cast<std::size_t>(options.procs));
  for (int rank = 0; rank < options.procs; ++rank) {
    child& c = children[static_cast<std::size_t>(rank)];
    c.host = hosts.empty() ? std::string("localhost") : hosts[static_cast<std::size_t>(rank) % hosts.size()];
    std::string command = "exec ";
    if (!hosts.empty()) command += expand(spawn, c.host, rank) + " ";
    command += "env";
    for (const auto& [n, v] : vars) command += " " + n + "=" + shell_quote(v);
    command += fmt::format(" SPLITC_JOB={} SPLITC_MYPROC={} SPLITC_PROCS={} ", self, rank,
                           options.procs);
    command += program;
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
      detail::fail("splitc-run: pipe: {}", std::strerror(errno));
    const pid_t pid = fork();
    if (pid < 0) detail::fail("splitc-run: fork: {}", std::strerror(errno));
    if (pid == 0) {
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != self) _exit(1);
      if (!options.keep_aslr) {
        const int current = personality(0xffffffff);
        if (current != -1) personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE);
      }
      const int null = open("/dev/null", O_RDONLY);
      dup2(null, STDIN_FILENO);
      dup2(out[1], STDOUT_FILENO);
      dup2(err[1], STDERR_FILENO);
      execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    setpgid(pid, pid);
    close(out[1]);
    close(err[1]);
    c.pid = pid;
    c.out = out[0];
    c.err = err[0];
  }

  int running = options.procs;
  int status_of_job = 0;
  bool ending = false;
  auto kill_at = std::chrono::steady_clock::time_point::max();
  auto end_job = [&](int sig) {
    for (const child& c : children)
      if (c.pid > 0) kill(-c.pid, sig);
  };
  auto begin_ending = [&](int status) {
    if (ending) return;
    ending = true;
    status_of_job = status;
    server.stop(true);
    end_job(SIGTERM);
    kill_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  };
  std::vector<std::pair<std::chrono::steady_clock::time_point, int>> lost_since;
  while (running > 0 || std::any_of(children.begin(), children.end(),
                                    [](const child& c) { return c.out >= 0 || c.err >= 0; })) {
    std::vector<pollfd> fds;
    std::vector<std::pair<int, bool>> who;
    for (int r = 0; r < options.procs; ++r) {
      child& c = children[static_cast<std::size_t>(r)];
      if (c.out >= 0) {
        fds.push_back({c.out, POLLIN, 0});
        who.emplace_back(r, false);
      }
      if (c.err >= 0) {
        fds.push_back({c.err, POLLIN, 0});
        who.emplace_back(r, true);
      }
    }
    ::poll(fds.data(), fds.size(), 10);
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      child& c = children[static_cast<std::size_t>(who[i].first)];
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (who[i].second ? c.err_buf : c.out_buf).append(buf, static_cast<std::size_t>(n));
        forward(c, who[i].first, who[i].second, label, false);
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        forward(c, who[i].first, who[i].second, label, true);
        close(fds[i].fd);
        (who[i].second ? c.err : c.out) = -1;
      }
    }
    for (;;) {
      int status = 0;
      const pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) break;
      for (int r = 0; r < options.procs; ++r) {
        child& c = children[static_cast<std::size_t>(r)];
        if (c.pid != pid) continue;
        c.pid = -1;
        --running;
        const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (failed && !ending) {
          std::fprintf(stderr, "splitc-run: processor %d (on %s) %s; ending the job\n", r,
                       c.host.c_str(), describe(status).c_str());
          begin_ending(WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status));
        }
      }
    }
    // A process whose connection closed before it said DONE, while its spawn
    // command still runs (a remote death the local command has not noticed).
    if (!ending) {
      for (int q : server.lost()) {
        if (std::none_of(lost_since.begin(), lost_since.end(), [&](auto& e) { return e.second == q; }))
          lost_since.emplace_back(std::chrono::steady_clock::now(), q);
      }
      for (auto& [since, q] : lost_since) {
        if (children[static_cast<std::size_t>(q)].pid > 0 &&
            std::chrono::steady_clock::now() - since > std::chrono::milliseconds(1500)) {
          std::fprintf(stderr,
                       "splitc-run: processor %d (on %s) lost its connection to the launcher; "
                       "ending the job\n",
                       q, children[static_cast<std::size_t>(q)].host.c_str());
          begin_ending(1);
          break;
        }
      }
    }
    if (interrupted_by != 0 && !ending) {
      std::fprintf(stderr, "splitc-run: interrupted by signal %d; ending the job\n",
                   static_cast<int>(interrupted_by));
      begin_ending(128 + interrupted_by);
    }
    if (ending && std::chrono::steady_clock::now() >= kill_at) {
      end_job(SIGKILL);
      kill_at = std::chrono::steady_clock::time_point::max();
    }
  }
  return status_of_job;
}

}  // namespace
}  // namespace splitc::backends::udp

namespace splitc::detail {

int launch_job(const launch_options& options, char** argv) {
  using namespace backends::udp;
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");
  if (sodium_init() < 0) fail("splitc-run: libsodium cannot start");
  job_secret secret;
  randombytes_buf(secret.data(), secret.size());
  std::uint64_t job = 0;
  randombytes_buf(&job, sizeof job);
  const wire_keys keys = derive_keys(secret);

  const auto hosts_file = env_string("SPLITC_UDP_HOSTS");
  const bool label = options.label_output || env_string("SPLITC_UDP_LABEL").value_or("0") != "0";
  std::uint32_t listen_ip = htonl(INADDR_LOOPBACK);
  if (const auto listen = env_string("SPLITC_UDP_LISTEN")) {
    if (inet_pton(AF_INET, listen->c_str(), &listen_ip) != 1)
      fail("splitc-run: SPLITC_UDP_LISTEN={} is not an IPv4 address", *listen);
  } else if (hosts_file) {
    listen_ip = outward_address();
  }
  rendezvous server(options.procs, keys, job, listen_ip);
  const std::vector<std::pair<std::string, std::string>> env = {
      {"SPLITC_UDP_RENDEZVOUS", server.address()},
      {"SPLITC_UDP_JOB", to_hex(reinterpret_cast<const unsigned char*>(&job), sizeof job)},
      {"SPLITC_UDP_SECRET", to_hex(secret.data(), secret.size())},
  };
  int status;
  if (!hosts_file && !label) {
    status = run_job(options, argv, job_plan{env, {}});
    server.stop(status != 0);
  } else {
    std::vector<std::string> hosts;
    if (hosts_file) hosts = read_hosts(*hosts_file);
    const std::string spawn = env_string("SPLITC_UDP_SPAWN").value_or("ssh {host}");
    status = spawn_job(options, argv, env, hosts, spawn, label, server);
    server.stop(status != 0);
  }
  return status;
}

}  // namespace splitc::detail
