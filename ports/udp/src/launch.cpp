// Launching a udp job (splitc-run --backend udp): a random job identifier and
// secret, the rendezvous (a TCP server on a thread of the launcher that hands
// every process the table of endpoints and releases them together at the
// end), and the processes, through the porting kit's supervisor
// (port/supervisor.hpp): on this host, or, with a hosts file
// (SPLITC_UDP_HOSTS), through a spawn-command template per host
// (SPLITC_UDP_SPAWN, default "ssh {host}"; e.g. "ip netns exec {host}"),
// with each process's output forwarded line by line (labelled with
// SPLITC_UDP_LABEL).
#include <splitc/backends/udp.hpp>
#include <splitc/backends/udp_control.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/supervisor.hpp>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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
    a.sin_port = htons(static_cast<std::uint16_t>(port::env::udp_port.get()));
    if (bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(listen_, 1024) != 0)
      port::fail("splitc-run: cannot listen for the udp rendezvous on {}: {}", inet_ntoa(a.sin_addr),
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
    [[maybe_unused]] auto w = ::write(wake_, &one, sizeof one);
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

// ---- where the rendezvous listens ------------------------------------------------

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

}  // namespace
}  // namespace splitc::backends::udp

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
  using namespace backends::udp;
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");
  if (sodium_init() < 0) fail("splitc-run: libsodium cannot start");
  job_secret secret;
  randombytes_buf(secret.data(), secret.size());
  std::uint64_t job = 0;
  randombytes_buf(&job, sizeof job);
  const wire_keys keys = derive_keys(secret);

  const auto hosts_file = port::env::udp_hosts.value();
  std::uint32_t listen_ip = htonl(INADDR_LOOPBACK);
  if (const auto listen = port::env::udp_listen.value()) {
    if (inet_pton(AF_INET, std::string(*listen).c_str(), &listen_ip) != 1)
      fail("splitc-run: SPLITC_UDP_LISTEN={} is not an IPv4 address", *listen);
  } else if (hosts_file) {
    listen_ip = outward_address();
  }
  rendezvous server(options.procs, keys, job, listen_ip);
  // The porting kit's supervisor starts the processes: here, or through the
  // spawn template on the hosts of the hosts file.
  port::job_spec spec;
  spec.procs = options.procs;
  spec.keep_aslr = options.keep_aslr;
  spec.environment = {
      {port::env::udp_rendezvous.name, server.address()},
      {port::env::udp_job.name, to_hex(reinterpret_cast<const unsigned char*>(&job), sizeof job)},
      {port::env::udp_secret.name, to_hex(secret.data(), secret.size())},
  };
  spec.label_output = options.label_output || port::env::udp_label.get();
  port::job_hooks hooks;
  hooks.ending = [&server] { server.stop(true); };  // ABORT on every control connection
  if (hosts_file) {
    spec.hosts = port::read_hosts_file(std::string(*hosts_file));
    spec.spawn_template = port::env::udp_spawn.get();
    // A remote death the local spawn command has not noticed.
    hooks.lost = [&server] { return server.lost(); };
  }
  const int status = port::supervise_job(spec, argv, hooks);
  server.stop(status != 0);
  return status;
}

}  // namespace splitc::port
