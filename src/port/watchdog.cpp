// The liveness watchdog (include/splitc/port/watchdog.hpp): the side
// channel, the heartbeat ring, and the two verdicts (silent, gone early).
//
// A heartbeat is believed only from the watched processor: it comes from the
// address and port that processor announced over the backend's bootstrap
// channel, carries a sequence number above the last one heard (a replayed
// beat is old), and ends with a SipHash-2-4 tag (libsodium's crypto_shorthash,
// the udp backend's data-path hash) keyed with a secret that processor drew
// and announced the same way, so a beat cannot be forged or replayed by a
// stranger who captured one (issue 45). When every processor of the job is on
// this host, in this network namespace, the socket is bound to the loopback
// address only; otherwise to every address, and the source is checked.
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/watchdog.hpp>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace splitc::port {

// What watchdog::state holds, in a named namespace (a class with external linkage may not hold
// types of an unnamed one when its file is compiled inside another: the core's unity sources).
namespace watchdog_records {

constexpr int max_addresses = 4;

/// Where a processor is: its host and namespaces.
struct place {
  std::uint64_t boot;    ///< host identity: a hash of the kernel's boot id
  std::uint64_t netns;   ///< network namespace (same: 127.0.0.1 reaches it)
  std::uint64_t pidns;   ///< pid namespace (same, on the same host: its pid can be checked)
};

/// What each processor tells the others at start-up, over the backend's bootstrap channel.
struct record {
  unsigned char key[crypto_shorthash_KEYBYTES];  ///< keys its heartbeats' tags (secret)
  place where;
  std::int32_t pid;
  std::uint16_t port;    ///< network order
  std::uint16_t naddr;
  std::uint32_t addr[max_addresses];  ///< its host's IPv4 addresses (network order)
};

}  // namespace watchdog_records

namespace {

using namespace watchdog_records;
using clock = std::chrono::steady_clock;

constexpr std::uint64_t beat_magic = 0x73706c6974632d77;  // "splitc-w"

enum beat_kind : std::uint32_t { beat_alive = 1, beat_finalizing = 2, beat_failing = 3 };

struct beat {
  std::uint64_t magic;
  std::uint64_t sequence;  ///< the sender's count of beats sent: a replayed beat is old
  std::int32_t from;
  std::uint32_t kind;
  std::uint64_t tag;       ///< SipHash-2-4 of the fields above, keyed with the sender's key
};
static_assert(sizeof(beat) == 32 && sizeof(std::uint64_t) == crypto_shorthash_BYTES);

std::uint64_t beat_tag(const beat& b, const unsigned char* key) noexcept {
  std::uint64_t tag = 0;
  crypto_shorthash(reinterpret_cast<unsigned char*>(&tag), reinterpret_cast<const unsigned char*>(&b),
                   offsetof(beat, tag), key);
  return tag;
}

std::uint64_t boot_id() {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(in, id);
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return std::hash<std::string>{}(id + "/" + host);
}

std::uint64_t namespace_of(const char* path) {
  struct stat st {};
  return stat(path, &st) == 0 ? static_cast<std::uint64_t>(st.st_ino) : 0;
}

/// A positive number of seconds from `var`, or 0 when it is unset.
double env_seconds(const env_var<env_type::number>& var) {
  const auto v = var.value();
  if (!v) return 0;
  if (const auto s = parse_number(*v); s && *s > 0) return *s;
  bad_env_value(var.name, *v, "is not a positive number of seconds (expected e.g. 10, 0.5)");
}

/// Has process `pid` (on this host, in our pid namespace) ended? A zombie has.
bool gone(std::int32_t pid) {
  if (kill(pid, 0) != 0) return errno == ESRCH;
  std::ifstream in(fmt::format("/proc/{}/stat", pid));
  std::string stat;
  std::getline(in, stat);
  const auto close = stat.rfind(')');
  if (close == std::string::npos || close + 2 >= stat.size()) return false;
  const char state = stat[close + 2];
  return state == 'Z' || state == 'X';
}

}  // namespace

double silence_seconds() {
  if (const double s = env_seconds(env::silence); s > 0) return s;
  if (const double s = env_seconds(env::udp_silence); s > 0) return s;
  return env::silence.get();
}

struct watchdog::state {
  int me = 0, procs = 0;
  int fd = -1, wake = -1;
  int pred = 0;
  record mine{}, pred_rec{};
  std::vector<sockaddr_in> succ_addresses;
  std::vector<std::uint32_t> pred_sources;  ///< addresses its beats may come from
  bool pred_checkable = false;  ///< on this host, in our pid namespace
  double silence = 10;
  mutable std::atomic<std::uint64_t> sent{0};  ///< beats sent (the watcher thread and finalize)
  std::uint64_t pred_sequence = 0;  ///< the last beat believed
  std::uint64_t rejected = 0;       ///< datagrams not believed (garbage, replays, strangers)
  std::thread thread;

  ~state() {
    if (fd >= 0) close(fd);
    if (wake >= 0) close(wake);
  }

  void send(beat_kind kind) const noexcept {
    beat b{beat_magic, sent.fetch_add(1, std::memory_order_relaxed) + 1, me, kind, 0};
    b.tag = beat_tag(b, mine.key);
    for (const sockaddr_in& a : succ_addresses)
      sendto(fd, &b, sizeof b, MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&a),
             sizeof a);
  }

  /// A heartbeat of the watched processor, not seen before: the cheap checks first, so that
  /// a flood of garbage costs little.
  bool believed(const beat& b, ssize_t n, const sockaddr_in& source) const noexcept {
    if (n != static_cast<ssize_t>(sizeof b) || b.magic != beat_magic || b.from != pred ||
        source.sin_family != AF_INET || source.sin_port != pred_rec.port ||
        b.sequence <= pred_sequence)
      return false;
    if (std::find(pred_sources.begin(), pred_sources.end(), source.sin_addr.s_addr) ==
        pred_sources.end())
      return false;
    const std::uint64_t expected = beat_tag(b, pred_rec.key);
    return sodium_memcmp(&b.tag, &expected, sizeof expected) == 0;
  }

  [[noreturn]] void verdict(const std::string& what) const {
    const std::string line = fmt::format("splitc: processor {} of {}: {}\n", me, procs, what);
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
    // A launcher that ends the job at once may drop what we wrote last.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    _exit(error_exit_status);
  }

  void run() {
    const auto tick = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(std::clamp(silence / 4, 0.005, 1.0)));
    const auto limit = std::chrono::duration_cast<clock::duration>(
        std::chrono::duration<double>(silence));
    // A processor gone from this host is reported after a grace period: when
    // it failed, the launcher ends the job (and names it) first -- splitc-run
    // within milliseconds; short enough that a launcher that takes a second to
    // tear a job down (oshrun) still ends it within 2 s of the death.
    const auto grace = std::chrono::milliseconds(500);
    auto last_heard = clock::now();
    auto next_tick = last_heard;
    auto gone_since = clock::time_point{};
    bool pred_finalizing = false;
    bool pred_failing = false;  ///< it reported its own error: its launcher ends the job
    // A failed processor's launcher usually ends the job within a second; if it has not
    // after this, the watcher does (no second account of the failure).
    const auto failing_grace = std::chrono::milliseconds(3000);
    pollfd fds[2] = {{fd, POLLIN, 0}, {wake, POLLIN, 0}};
    for (;;) {
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next_tick - clock::now());
      const int r = ::poll(fds, 2, static_cast<int>(std::max<std::int64_t>(wait.count(), 0)) + 1);
      if (r > 0 && fds[1].revents != 0) return;
      // Everything that arrived first, so that a watcher that was itself
      // kept off the CPU does not take queued heartbeats for silence.
      for (;;) {
        beat b{};
        sockaddr_in source{};
        socklen_t source_len = sizeof source;
        // MSG_TRUNC: the datagram's real length, so that a longer one is not taken for a beat.
        const ssize_t n = recvfrom(fd, &b, sizeof b, MSG_DONTWAIT | MSG_TRUNC,
                                   reinterpret_cast<sockaddr*>(&source), &source_len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        if (!believed(b, n, source)) {
          ++rejected;
          continue;
        }
        pred_sequence = b.sequence;
        last_heard = clock::now();
        if (b.kind == beat_finalizing) pred_finalizing = true;
        if (b.kind == beat_failing) pred_failing = true;
      }
      const auto now = clock::now();
      if (now < next_tick) continue;
      // Silence counts only while this watcher could listen. Waking well past its tick, it
      // was itself off the CPU -- the whole job frozen (a virtual machine paused, the job
      // stopped with SIGSTOP and continued, a loaded host) -- and its predecessor, frozen
      // too, could not have spoken: the time it missed is not the predecessor's silence.
      // (Beats sent meanwhile were drained above; a predecessor that is really stopped is
      // still named once this watcher runs on time.)
      if (const auto late = now - next_tick; late > tick / 2) last_heard += late;
      send(beat_alive);
      next_tick = now + tick;
      if (now - last_heard > limit) {
        verdict(fmt::format(
            "processor {} has been silent for {:.1f} s (limit SPLITC_SILENCE={:g} s): it is "
            "stopped, hung or unreachable; ending the job{}",
            pred, std::chrono::duration<double>(now - last_heard).count(), silence,
            rejected == 0 ? std::string()
                          : fmt::format(" ({} datagrams on its heartbeat channel were not "
                                        "believed: replayed, forged or stray)",
                                        rejected)));
      }
      if (pred_checkable && !pred_finalizing && gone(pred_rec.pid)) {
        if (gone_since == clock::time_point{}) {
          gone_since = now;
          next_tick = std::min(next_tick, now + grace);
        } else if (pred_failing) {
          if (now - gone_since >= failing_grace)
            verdict(fmt::format("processor {} failed (its error is above); ending the job", pred));
        } else if (now - gone_since >= grace) {
          verdict(fmt::format(
              "processor {} (pid {}) ended before reaching finalize() (it exited, returned from "
              "main or was killed); ending the job",
              pred, pred_rec.pid));
        }
      } else {
        gone_since = clock::time_point{};
      }
    }
  }
};

watchdog::watchdog(int myproc, int procs, const exchange_fn& exchange)
    : s_(std::make_unique<state>()) {
  state& s = *s_;
  s.me = myproc;
  s.procs = procs;
  s.silence = silence_seconds();
  s.pred = (myproc + procs - 1) % procs;

  if (sodium_init() < 0) detail::fail("watchdog: libsodium cannot start");
  // The socket listens on the loopback address first; when the job turns out to span hosts
  // (or network namespaces), on every address instead, announced by a second exchange. A
  // job on one host -- the common case -- exchanges once, as before.
  auto open_socket = [&](std::uint32_t address) {
    if (s.fd >= 0) close(s.fd);
    s.fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s.fd < 0) detail::fail("watchdog: cannot create a UDP socket: {}", std::strerror(errno));
    sockaddr_in bound{};
    bound.sin_family = AF_INET;
    bound.sin_addr.s_addr = htonl(address);
    socklen_t len = sizeof bound;
    if (bind(s.fd, reinterpret_cast<sockaddr*>(&bound), sizeof bound) != 0 ||
        getsockname(s.fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0)
      detail::fail("watchdog: cannot bind a UDP socket: {}", std::strerror(errno));
    return bound.sin_port;
  };
  s.wake = eventfd(0, EFD_CLOEXEC);
  if (s.wake < 0) detail::fail("watchdog: eventfd: {}", std::strerror(errno));

  record& r = s.mine;
  if (getrandom(r.key, sizeof r.key, 0) != static_cast<ssize_t>(sizeof r.key))
    detail::fail("watchdog: getrandom: {}", std::strerror(errno));
  const place here{boot_id(), namespace_of("/proc/self/ns/net"), namespace_of("/proc/self/ns/pid")};
  r.where = here;
  r.pid = static_cast<std::int32_t>(getpid());
  r.port = open_socket(INADDR_LOOPBACK);
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) == 0) {
    for (ifaddrs* i = list; i != nullptr && r.naddr < max_addresses; i = i->ifa_next) {
      if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) continue;
      if ((i->ifa_flags & IFF_UP) == 0 || (i->ifa_flags & IFF_LOOPBACK) != 0) continue;
      r.addr[r.naddr++] = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
    }
    freeifaddrs(list);
  }

  std::vector<record> all(static_cast<std::size_t>(procs));
  exchange(&r, sizeof r, all.data());
  const bool one_host = std::all_of(all.begin(), all.end(), [&](const record& other) {
    return other.where.boot == here.boot && other.where.netns == here.netns;
  });
  if (!one_host) {  // everyone sees the same records: everyone takes this branch
    r.port = open_socket(INADDR_ANY);
    std::vector<std::uint16_t> ports(static_cast<std::size_t>(procs));
    exchange(&r.port, sizeof r.port, ports.data());
    for (int q = 0; q < procs; ++q) all[static_cast<std::size_t>(q)].port = ports[static_cast<std::size_t>(q)];
  }
  s.pred_rec = all[static_cast<std::size_t>(s.pred)];
  const record& succ = all[static_cast<std::size_t>((myproc + 1) % procs)];
  s.pred_checkable = s.pred_rec.where.boot == here.boot && s.pred_rec.where.pidns == here.pidns;
  auto address = [&](std::uint32_t ip) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = ip;
    a.sin_port = succ.port;
    s.succ_addresses.push_back(a);
  };
  if (succ.where.boot == here.boot && succ.where.netns == here.netns) {
    address(htonl(INADDR_LOOPBACK));
  } else {
    for (int i = 0; i < succ.naddr && i < max_addresses; ++i) address(succ.addr[i]);
  }
  // The predecessor's beats come from the loopback address when it shares this host and
  // namespace, else from one of its host's addresses.
  if (s.pred_rec.where.boot == here.boot && s.pred_rec.where.netns == here.netns)
    s.pred_sources.push_back(htonl(INADDR_LOOPBACK));
  else
    s.pred_sources.assign(s.pred_rec.addr, s.pred_rec.addr + std::min<int>(s.pred_rec.naddr, max_addresses));
  // The thread takes no signals: they stay the program's (its main thread's).
  sigset_t all_signals, before;
  sigfillset(&all_signals);
  pthread_sigmask(SIG_SETMASK, &all_signals, &before);
  s.thread = std::thread([&s] { s.run(); });
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

watchdog::~watchdog() {
  const std::uint64_t one = 1;
  [[maybe_unused]] auto n = ::write(s_->wake, &one, sizeof one);
  s_->thread.join();
}

void watchdog::finalizing() noexcept {
  // Twice: a datagram between hosts may be lost (on one host it is not).
  s_->send(beat_finalizing);
  s_->send(beat_finalizing);
}

void watchdog::failing() noexcept {
  s_->send(beat_failing);
  s_->send(beat_failing);
}

}  // namespace splitc::port
