// The udp backend's process side (udp.hpp): joining the job through the
// launcher's rendezvous, the socket, poll, the bootstrap barrier over the
// backend's own messages, leaving, and the helper thread
// that hears the launcher. Silent peers are the porting kit's watchdog's
// business (include/splitc/port/watchdog.hpp), as on every backend.
#include <splitc/backends/udp.hpp>
#include <splitc/backends/udp_control.hpp>
#include <splitc/backends/udp_impair.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>
#include <splitc/port/watchdog.hpp>

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sodium.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace splitc::backends::udp {
namespace env = port::env;

namespace {

enum internal_op : std::uint16_t { op_barrier = 0 };
constexpr std::size_t max_internal_bytes = udp_backend::max_long_bytes;
constexpr int max_rounds = 64;

std::size_t path_datagram(std::uint32_t ip) {
  // The route's MTU, as the kernel knows it, less the IPv4 and UDP headers.
  const int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return max_datagram;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(9);
  a.sin_addr.s_addr = ip;
  int mtu = 0;
  socklen_t l = sizeof mtu;
  std::size_t d = 1472;
  if (connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockopt(s, IPPROTO_IP, IP_MTU, &mtu, &l) == 0 && mtu > 576) {
    d = static_cast<std::size_t>(mtu) - 28;
  }
  close(s);
  return std::min(d, max_datagram);
}

void set_buffer(int fd, int force, int plain, int bytes) {
  if (setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof bytes);
}

}  // namespace

// ---- start-up --------------------------------------------------------------------

udp_backend::udp_backend(start_arguments) {
  config_.window_bytes = env::udp_window.get(config_.window_bytes);
  config_.ring_bytes = std::max(env::udp_ring.get(config_.ring_bytes), std::size_t{4} << 20);
  config_.rto_min_ns = static_cast<std::uint64_t>(env::udp_rto_min_us.get() * 1000);
  config_.rto_max_ns =
      std::max(static_cast<std::uint64_t>(env::udp_rto_max_ms.get() * 1e6), config_.rto_min_ns);
  config_.rto_initial_ns = std::clamp<std::uint64_t>(config_.rto_initial_ns, config_.rto_min_ns,
                                                     config_.rto_max_ns);
  // Heartbeats keep an idle peer's acknowledgement state fresh; whether a
  // peer is alive is the watchdog's to judge (SPLITC_SILENCE), not the engine's.
  config_.heartbeat_ns = static_cast<std::uint64_t>(
      env::udp_heartbeat.get(std::min(1.0, port::silence_seconds() / 5)) * 1e9);
  if (config_.heartbeat_ns == 0) config_.heartbeat_ns = 1'000'000;
  stats_at_exit_ = env::udp_stats.get();

  map_segment();
  void* buffers = std::aligned_alloc(4096, 2 * recv_slot);
  if (buffers == nullptr) port::fail("udp: cannot allocate receive buffers");
  recv_buffers_ = static_cast<unsigned char*>(buffers);
  recv_aligned_ = recv_buffers_ + recv_slot;
  barrier_arrivals_.assign(max_rounds, 0);

  if (env::udp_rendezvous.is_set()) {
    connect_to_job();
  } else {
    // Started plainly: a job of one. Messages to ourselves need no socket.
    if (env::job.is_set() && env::procs.is_set() && env::procs.get(1) > 1) {
      port::fail(
          "udp: this process belongs to a job of {} but has no rendezvous (SPLITC_UDP_RENDEZVOUS); "
          "start udp programs with splitc-run --backend udp",
          env::procs.get(1));
    }
    if (sodium_init() < 0) port::fail("udp: libsodium cannot start");
    randombytes_buf(secret_.data(), secret_.size());
    randombytes_buf(&job_, sizeof job_);
    keys_ = derive_keys(secret_);
    myproc_ = 0;
    procs_ = 1;
    datagram_.assign(1, max_datagram);
  }

  const parse_limits limits{myproc_, procs_, job_, max_medium_bytes, max_long_bytes,
                            max_internal_bytes};
  engine_ = std::make_unique<engine>(config_, keys_, limits, engine_link{this, &link_send},
                                     internal_sink{this, &on_internal}, now_ns());
  if (procs_ > 1) {
    for (proc_t q = 0; q < procs_; ++q) {
      if (q == myproc_) continue;
      const std::size_t d = datagram_[static_cast<std::size_t>(q)];
      engine_->set_datagram_bytes(q, d);
      // Share the peer's receive buffer among everyone who may send to it.
      const std::size_t share = std::size_t{endpoints_[static_cast<std::size_t>(q)].rcvbuf} * 3 / 4 /
                                static_cast<std::size_t>(procs_ - 1);
      engine_->set_window_bytes(
          q, std::min(config_.window_bytes, std::max(share, 2 * d)));
    }
    if (const auto spec = env::udp_impair.value()) {
      try {
        impair_ = std::make_unique<impairment>(impairment::parse(std::string(*spec)), myproc_);
      } catch (const std::invalid_argument& e) {
        port::fail("SPLITC_UDP_IMPAIR={}: {}", *spec, e.what());
      }
    }
  }
  if (control_ >= 0) start_helper();

  // The processes on this host map each other's segments (port/same_host.hpp).
  // No program message can arrive yet: nobody has left this constructor. While
  // it waits, this processor goes on acknowledging and retransmitting for the
  // peers still in the barrier.
  static constexpr am_sink not_yet{
      nullptr,
      [](void*, const am_message& m) {
        port::fail("udp: a message from processor {} arrived before the job had started",
                     m.source);
      },
      0};
  same_host_.connect(
      name, myproc_, procs_, job_,
      {this, [](void* self) { static_cast<udp_backend*>(self)->bootstrap_barrier(not_yet); },
       [](void* self) { static_cast<udp_backend*>(self)->poll(not_yet); }});
}

void udp_backend::map_segment() {
  const port::segment_geometry g = port::segment_from_environment();
  // Messages between processes of one host go over rings in the shared segment's memfd.
  same_host_.map_segment(name, g, static_cast<proc_t>(env::procs.get(1)), true);
  segment_base_ = g.base;
  segment_size_ = g.size;
}

void udp_backend::connect_to_job() {
  if (!env::myproc.is_set() || !env::procs.is_set())
    port::fail("udp: SPLITC_MYPROC and SPLITC_PROCS must be set");
  const long me = env::myproc.get(), n = env::procs.get();
  if (n < 1 || n > 65535 || me < 0 || me >= n)
    port::fail("udp: SPLITC_MYPROC={} SPLITC_PROCS={} is not a place in a job", me, n);
  myproc_ = static_cast<proc_t>(me);
  procs_ = static_cast<proc_t>(n);
  const std::string secret = env::udp_secret.get();
  const std::string job = env::udp_job.get();
  if (!from_hex(secret, secret_.data(), secret_.size()) ||
      !from_hex(job, reinterpret_cast<unsigned char*>(&job_), sizeof job_))
    port::fail("udp: SPLITC_UDP_SECRET/SPLITC_UDP_JOB are missing or malformed");
  unsetenv(env::udp_secret.name);  // not for programs this one starts
  keys_ = derive_keys(secret_);

  // The rendezvous: host:port.
  const std::string rv = env::udp_rendezvous.get();
  const auto colon = rv.rfind(':');
  sockaddr_in server{};
  server.sin_family = AF_INET;
  if (colon == std::string::npos ||
      inet_pton(AF_INET, rv.substr(0, colon).c_str(), &server.sin_addr) != 1)
    port::fail("udp: SPLITC_UDP_RENDEZVOUS={} is not an IPv4 address:port", rv);
  server.sin_port = htons(static_cast<std::uint16_t>(std::atoi(rv.c_str() + colon + 1)));
  control_ = -1;
  for (int attempt = 0; attempt < 100 && control_ < 0; ++attempt) {
    const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (connect(s, reinterpret_cast<sockaddr*>(&server), sizeof server) == 0) {
      control_ = s;
    } else {
      close(s);
      usleep(50000);
    }
  }
  if (control_ < 0) port::fail("udp: cannot reach the launcher's rendezvous at {}", rv);

  // Our UDP endpoint: on the interface that reaches the launcher.
  sockaddr_in local{};
  socklen_t ll = sizeof local;
  getsockname(control_, reinterpret_cast<sockaddr*>(&local), &ll);
  if (const auto bind_to = env::udp_bind.value()) {
    if (inet_pton(AF_INET, std::string(*bind_to).c_str(), &local.sin_addr) != 1)
      port::fail("udp: SPLITC_UDP_BIND={} is not an IPv4 address", *bind_to);
  }
  local.sin_port = 0;
  fd_ = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd_ < 0) port::fail("udp: cannot create a socket: {}", std::strerror(errno));
  const int want = static_cast<int>(std::min<std::size_t>(env::udp_socket_buffer.get(), 1 << 30));
  set_buffer(fd_, SO_RCVBUFFORCE, SO_RCVBUF, want);
  set_buffer(fd_, SO_SNDBUFFORCE, SO_SNDBUF, want);
  if (bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0)
    port::fail("udp: cannot bind a UDP socket to {}: {}", inet_ntoa(local.sin_addr),
                 std::strerror(errno));
  ll = sizeof local;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&local), &ll);
  int rcvbuf = 0;
  socklen_t rl = sizeof rcvbuf;
  getsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, &rl);

  endpoint mine{local.sin_addr.s_addr, local.sin_port, 0, static_cast<std::uint32_t>(rcvbuf),
                static_cast<std::uint32_t>(getpid())};
  if (!write_control(control_, keys_, job_, control_type::hello,
                     static_cast<std::uint32_t>(myproc_), &mine, sizeof mine))
    port::fail("udp: the launcher's rendezvous closed the connection");
  timeval tv{300, 0};
  setsockopt(control_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  control_frame f{};
  std::vector<unsigned char> table;
  if (!read_control(control_, keys_, job_, f, table) ||
      f.type != static_cast<std::uint32_t>(control_type::table) ||
      table.size() != sizeof(endpoint) * static_cast<std::size_t>(procs_))
    port::fail("udp: no valid endpoint table from the launcher's rendezvous");
  tv = timeval{0, 0};
  setsockopt(control_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  endpoints_.resize(static_cast<std::size_t>(procs_));
  std::memcpy(endpoints_.data(), table.data(), table.size());
  const endpoint& echo = endpoints_[static_cast<std::size_t>(myproc_)];
  if (echo.ip != mine.ip || echo.port != mine.port)
    port::fail("udp: the endpoint table does not hold this process's endpoint");

  addresses_.resize(endpoints_.size());
  datagram_.assign(endpoints_.size(), max_datagram);
  const std::size_t configured = env::udp_datagram.get(0);
  std::map<std::uint32_t, std::size_t> by_ip;
  for (std::size_t q = 0; q < endpoints_.size(); ++q) {
    sockaddr_in& a = addresses_[q];
    a = sockaddr_in{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = endpoints_[q].ip;
    a.sin_port = endpoints_[q].port;
    if (configured != 0) {
      datagram_[q] = std::clamp<std::size_t>(configured, 512, max_datagram);
    } else {
      auto it = by_ip.find(endpoints_[q].ip);
      if (it == by_ip.end()) it = by_ip.emplace(endpoints_[q].ip, path_datagram(endpoints_[q].ip)).first;
      datagram_[q] = it->second;
    }
  }
  // GSO where the kernel has it (the option can be read). A run forms only where datagrams
  // are small (a GSO buffer holds at most 65,507 bytes): GRO, whose reads need recvmsg and
  // its control message (~0.1 us more per empty read), only where some path's are.
  if (env::udp_gso.get()) {
    int v = 0;
    socklen_t vl = sizeof v;
    gso_ = getsockopt(fd_, SOL_UDP, UDP_SEGMENT, &v, &vl) == 0;
    v = 1;
    if (std::any_of(datagram_.begin(), datagram_.end(), [](std::size_t d) { return d <= max_datagram / 2; }))
      gro_ = setsockopt(fd_, SOL_UDP, UDP_GRO, &v, sizeof v) == 0;
  }
}

udp_backend::~udp_backend() {
  if (helper_.joinable()) {
    stopping_.store(true);
    const std::uint64_t one = 1;
    [[maybe_unused]] auto w = ::write(wake_, &one, sizeof one);
    helper_.join();
  }
  engine_.reset();
  if (wake_ >= 0) close(wake_);
  if (control_ >= 0) close(control_);
  if (fd_ >= 0) close(fd_);
  std::free(recv_buffers_);
  port::release_segment({segment_base_, segment_size_}, 1);
}

// ---- the datagram path -----------------------------------------------------------

void udp_backend::raw_send(int peer, const unsigned char* const* datagrams,
                           const std::size_t* lengths, int n) {
  const sockaddr_in& to = addresses_[static_cast<std::size_t>(peer)];
  if (n == 1) {
    // The common case (a short message, an acknowledgement): sendto costs less.
    ssize_t r;
    do {
      r = ::sendto(fd_, datagrams[0], lengths[0], MSG_DONTWAIT,
                   reinterpret_cast<const sockaddr*>(&to), sizeof to);
    } while (r < 0 && errno == EINTR);
    if (r < 0) ++engine_->stats().send_errors;
    return;
  }
  // One message per run of datagrams that lie back to back in memory, each of the run's first
  // length but the last (which is no longer): with GSO the kernel cuts such a buffer into those
  // datagrams (a message's fragments are laid out so in the send ring). All of them go in
  // sendmmsg calls of up to `batch` messages.
  constexpr int batch = 32;
  mmsghdr msgs[batch];
  iovec iov[batch];
  alignas(cmsghdr) unsigned char control[batch][CMSG_SPACE(sizeof(std::uint16_t))];
  int first_of[batch + 1];
  udp_stats& st = engine_->stats();
  for (int done = 0; done < n;) {
    int m = 0, at = done;
    while (m < batch && at < n) {
      const std::size_t seg = lengths[at];
      std::size_t total = seg;
      int k = 1;
      while (gso_ && at + k < n && k < gso_max_segments &&
             datagrams[at + k] == datagrams[at + k - 1] + lengths[at + k - 1] &&
             lengths[at + k - 1] == seg && lengths[at + k] <= seg &&
             total + lengths[at + k] <= max_datagram) {
        total += lengths[at + k];
        ++k;
      }
      iov[m].iov_base = const_cast<unsigned char*>(datagrams[at]);
      iov[m].iov_len = total;
      msghdr& h = msgs[m].msg_hdr;
      h = msghdr{};
      h.msg_name = const_cast<sockaddr_in*>(&to);
      h.msg_namelen = sizeof to;
      h.msg_iov = &iov[m];
      h.msg_iovlen = 1;
      if (k > 1) {
        h.msg_control = control[m];
        h.msg_controllen = sizeof control[m];
        cmsghdr* c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_UDP;
        c->cmsg_type = UDP_SEGMENT;
        c->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
        const auto size = static_cast<std::uint16_t>(seg);
        std::memcpy(CMSG_DATA(c), &size, sizeof size);
      }
      first_of[m++] = at;
      at += k;
    }
    first_of[m] = at;
    int sent = 0;
    while (sent < m) {
      const int r = sendmmsg(fd_, msgs + sent, static_cast<unsigned>(m - sent), MSG_DONTWAIT);
      if (r > 0) {
        for (int i = sent; i < sent + r; ++i)
          if (first_of[i + 1] - first_of[i] > 1) ++st.gso_sends;
        sent += r;
        continue;
      }
      if (r < 0 && errno == EINTR) continue;
      if (r < 0 && gso_ && msgs[sent].msg_hdr.msg_control != nullptr &&
          (errno == EIO || errno == EINVAL || errno == EOPNOTSUPP)) {
        // The path does not take GSO buffers: one datagram per send from now on.
        gso_ = false;
        raw_send(peer, datagrams + first_of[sent], lengths + first_of[sent], n - first_of[sent]);
        return;
      }
      // Socket buffer full or a transient error: these datagrams count as
      // lost; the retransmission timer sends them again.
      st.send_errors += static_cast<std::uint64_t>(first_of[m] - first_of[sent]);
      break;
    }
    done = at;
  }
}

void udp_backend::link_send(void* self, int peer, const unsigned char* const* datagrams,
                            const std::size_t* lengths, int n) {
  auto& b = *static_cast<udp_backend*>(self);
  if (!b.impair_) {
    b.raw_send(peer, datagrams, lengths, n);
    return;
  }
  // The datagrams that survive go out together (sendmmsg, as without the
  // impairment), so a lossy run measures the protocol, not extra system calls.
  const std::uint64_t now = now_ns();
  const unsigned char* keep[64];
  std::size_t keep_len[64];
  int k = 0;
  for (int i = 0; i < n; ++i) {
    const int copies = b.impair_->submit(peer, datagrams[i], lengths[i], now);
    for (int c = 0; c < copies; ++c) {
      keep[k] = datagrams[i];
      keep_len[k] = lengths[i];
      if (++k == 64) {
        b.raw_send(peer, keep, keep_len, k);
        k = 0;
      }
    }
  }
  if (k != 0) b.raw_send(peer, keep, keep_len, k);
  auto& st = b.engine_->stats();
  st.impair_dropped = b.impair_->dropped;
  st.impair_duplicated = b.impair_->duplicated;
  st.impair_delayed = b.impair_->delayed;
  st.impair_reordered = b.impair_->reordered;
}

am_status udp_backend::send(proc_t p, bool request, am_kind kind, handler_id h, const am_word* a,
                            int n, const void* src, std::size_t len, void* dst) {
  if (same_host_.carries(p)) {
    switch (same_host_.send(p, request, kind, h, a, n, src, len, dst)) {
      case port::same_host::send_result::sent: return am_status::ok;
      case port::same_host::send_result::full: return am_status::no_resource;
      case port::same_host::send_result::too_large: break;  // over the network
    }
  }
  const std::uint64_t now = now_ns();
  return engine_->send(p, request, kind, false, static_cast<std::uint16_t>(h), a, n, src, len,
                       dst, now);
}

int udp_backend::poll(am_sink sink) {
  last_sink_ = sink;
  // A wait polls once between two wait_idle calls; a second poll since the last one means
  // that wait ended and this is another (or the program's own poll): the next wait spins
  // afresh. (No mark on the send path: an increment there costs ~1 ns per message.)
  if (idle_mark_ == idle_mark::polled_once) [[unlikely]] idle_reset();
  idle_mark_ = idle_mark_ == idle_mark::paused ? idle_mark::polled_once : idle_mark::none;
  // Data naming a handler not registered here yet is refused (and retransmitted) until it is.
  engine_->set_handler_limit(sink.handler_count);
  int delivered = engine_->drain_self(sink);
  if (same_host_.carries_any()) {
    // The peers on this host write to our rings: a look costs a few loads, a look at the
    // socket a system call (~1 us) that would sit in every round trip between them. While the
    // rings are in use (a delivery in the last ring_recent_ns) and the last read of the socket
    // found nothing, the socket is read at most every socket_poll_interval_ns: a message from
    // another host then waits up to that much longer. A process whose traffic is all on the
    // network reads the socket on every poll, as without the rings.
    const int from_rings = same_host_.poll(sink);
    delivered += from_rings;
    const std::uint64_t now = now_ns();
    if (from_rings != 0) last_ring_delivery_ns_ = now;
    if (!socket_busy_ && now - last_ring_delivery_ns_ < ring_recent_ns &&
        now - last_socket_poll_ns_ < socket_poll_interval_ns) {
      if (delivered != 0) idle_reset();
      return delivered;
    }
    last_socket_poll_ns_ = now;
  }
  if (fd_ < 0) return delivered;

  if (impair_ && impair_->holding()) {
    impair_->release(now_ns(), [&](int peer, const unsigned char* d, std::size_t len) {
      raw_send(peer, &d, &len, 1);
    });
  }
  // One read per system call: when nothing has arrived (the common case
  // while waiting) recv costs less than recvmmsg, and a datagram is acted on
  // before the next is read, so one buffer serves (a medium payload is
  // delivered from it). Once a read has completed a message, poll returns
  // (after the acknowledgements and the timer check): the caller is usually
  // waiting for that message, and a further recv would most often find nothing
  // and cost a system call (~1 us) on the round trip. A stream of fragments
  // (which complete nothing until their last one) is read up to max_per_poll.
  // With GRO one read may bring a run of datagrams (read_socket).
  std::uint64_t now = 0;
  int n = 0;
  bool empty = false;
  // Reads until the socket is empty or max_per_poll reads were made in this
  // poll; with `to_message`, also stops after a read that completed a message.
  auto read = [&](bool to_message) {
    for (; n < max_per_poll; ++n) {
      const int d = read_socket(sink, n, now);
      if (d < 0) {
        empty = true;
        return;
      }
      delivered += d;
      // In a stream, acknowledge as we go (every 4 reads), not once per poll: the sender's
      // window refills while we read, and its timer does not see a poll's worth of reading as
      // silence.
      if ((n & 3) == 3) engine_->flush_acks(now);
      if (d != 0 && to_message) {
        ++n;
        return;
      }
    }
  };
  read(true);
  now = now_ns();
  // The timers never run with datagrams left unread: a process that was off
  // the CPU (more processes than cores) finds the acknowledgements it waits
  // for queued behind the message it has just read, and a retransmission
  // timer checked before reading them resends what has arrived.
  if (!empty && n < max_per_poll && engine_->timers_due(now)) {
    read(false);
    now = now_ns();
  }
  engine_->flush_acks(now);
  engine_->tick(now);
  socket_busy_ = n > 0;
  if (socket_busy_ || delivered != 0) idle_reset();
  return delivered;
}

void udp_backend::wait_on_socket() {
  if (!idle_sleeping_) {
    // An answer is usually a round trip (~7 us here) away: spin, reading the clock every 8th round.
    if (idle_rounds_++ == 0) {
      idle_since_ns_ = now_ns();
    } else if ((idle_rounds_ & 7) == 0 &&
               now_ns() - idle_since_ns_ >=
                   (port::oversubscribed ? idle_spin_oversubscribed_ns : idle_spin_ns)) {
      idle_sleeping_ = true;
    }
    if (!idle_sleeping_) {
      port::cpu_relax();
      return;
    }
  }
  // Sleep until a datagram arrives (the kernel wakes us: a peer's probe or answer is not kept
  // waiting behind a fixed nap) or the engine's timers are due (at most a tick away).
  const std::uint64_t now = now_ns(), due = engine_->next_timers_ns();
  const std::uint64_t wait = std::clamp<std::uint64_t>(due > now ? due - now : 0, 1'000, 1'000'000);
  pollfd p{fd_, POLLIN, 0};
  const timespec t{0, static_cast<long>(wait)};
  ::ppoll(&p, 1, &t, nullptr);
}

// One read of the socket, acted on: the messages it completed, or -1 when the socket was empty.
// `now` is refreshed after the first read of a poll and every 8th (`reads` so far).
int udp_backend::read_socket(am_sink sink, int reads, std::uint64_t& now) {
  if (!gro_) {
    const ssize_t got = ::recv(fd_, recv_buffers_, recv_slot, MSG_DONTWAIT);
    if (got < 0) return -1;
    if ((reads & 7) == 0) now = now_ns();
    return engine_->receive(recv_buffers_, static_cast<std::size_t>(got), sink, now);
  }
  // With GRO a read may bring a run of datagrams of one length (the last may be shorter),
  // which the kernel's control message gives; each is acted on as if read alone.
  iovec v{recv_buffers_, recv_slot};
  alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(int))];
  msghdr h{};
  h.msg_iov = &v;
  h.msg_iovlen = 1;
  h.msg_control = control;
  h.msg_controllen = sizeof control;
  const ssize_t got = ::recvmsg(fd_, &h, MSG_DONTWAIT);
  if (got < 0) return -1;
  if ((reads & 7) == 0) now = now_ns();
  const auto len = static_cast<std::size_t>(got);
  std::size_t seg = len;
  for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(&h, c)) {
    if (c->cmsg_level == SOL_UDP && c->cmsg_type == UDP_GRO) {
      int size = 0;
      std::memcpy(&size, CMSG_DATA(c), sizeof size);
      if (size > 0) seg = static_cast<std::size_t>(size);
    }
  }
  if (seg >= len) return engine_->receive(recv_buffers_, len, sink, now);
  ++engine_->stats().gro_reads;
  int delivered = 0;
  for (std::size_t off = 0; off < len; off += seg) {
    const std::size_t l = std::min(seg, len - off);
    const unsigned char* d = recv_buffers_ + off;
    if (off % 8 != 0) {
      // The engine reads the header in place: a run of odd-sized datagrams is copied aligned.
      std::memcpy(recv_aligned_, d, l);
      d = recv_aligned_;
    }
    delivered += engine_->receive(d, l, sink, now);
  }
  return delivered;
}

// ---- bootstrap -------------------------------------------------------------------

template <class Done>
void udp_backend::wait_for(am_sink sink, Done done) {
  port::backoff wait;
  while (!done()) {
    if (poll(sink) != 0) {
      wait.reset();
    } else {
      wait.pause();
    }
  }
}

am_status udp_backend::send_internal(proc_t p, int opcode, const am_word* a, int n,
                                     const void* src, std::size_t len, am_sink sink) {
  port::backoff wait;
  for (;;) {
    const am_status s = engine_->send(p, true, am_kind::medium_msg, true,
                                      static_cast<std::uint16_t>(opcode), a, n, src, len, nullptr,
                                      now_ns());
    if (s == am_status::ok) return s;
    poll(sink);
    wait.pause();
  }
}

void udp_backend::on_internal(void* self, const am_message& m) {
  auto& b = *static_cast<udp_backend*>(self);
  switch (static_cast<internal_op>(m.handler)) {
    case op_barrier:
      if (m.nargs == 2 && m.args[1] < max_rounds) ++b.barrier_arrivals_[m.args[1]];
      break;
  }
}

void udp_backend::bootstrap_barrier(am_sink sink) {
  last_sink_ = sink;
  if (procs_ == 1) {
    poll(sink);
    return;
  }
  // Dissemination: in round r, tell processor me + 2^r and wait for me - 2^r.
  const std::uint64_t epoch = ++barrier_epoch_;
  int round = 0;
  for (proc_t k = 1; k < procs_; k <<= 1, ++round) {
    const am_word a[2] = {epoch, static_cast<am_word>(round)};
    send_internal((myproc_ + k) % procs_, op_barrier, a, 2, nullptr, 0, sink);
    const auto r = static_cast<std::size_t>(round);
    wait_for(sink, [&] { return barrier_arrivals_[r] >= epoch; });
  }
}

// ---- leaving ---------------------------------------------------------------------

void udp_backend::finish(int) {
  if (finished_) return;
  finished_ = true;
  if (control_ >= 0) {
    am_sink sink = last_sink_;
    if (sink.deliver == nullptr) {
      sink = am_sink{nullptr, [](void*, const am_message&) {}, 65536};
    }
    // Everything we sent has arrived; then wait until everyone can say the same,
    // acknowledging their retransmissions meanwhile.
    wait_for(sink, [&] { return engine_->all_acknowledged(); });
    if (!write_control(control_, keys_, job_, control_type::done,
                       static_cast<std::uint32_t>(myproc_), nullptr, 0))
      port::fail("udp: lost the connection to the launcher while leaving the job");
    wait_for(sink, [&] { return released_.load(std::memory_order_acquire); });
  }
  if (stats_at_exit_) {
    const std::string line = fmt::format("splitc udp stats: processor {}: {}\n", myproc_, stats_line());
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
  }
}

void udp_backend::set_impairment(const std::string& spec) {
  if (impair_) {
    impair_->release(~std::uint64_t{0}, [&](int peer, const unsigned char* d, std::size_t len) {
      raw_send(peer, &d, &len, 1);
    });
    impair_.reset();
  }
  if (spec.empty() || procs_ == 1) return;
  try {
    impair_ = std::make_unique<impairment>(impairment::parse(spec), myproc_);
  } catch (const std::invalid_argument& e) {
    port::fail("udp impairment '{}': {}", spec, e.what());
  }
}

std::string udp_backend::stats_line() const {
  const udp_stats& s = engine_->stats();
  std::string line = fmt::format(
      "datagrams_sent={} bytes_sent={} datagrams_received={} bytes_received={} messages_sent={} "
      "messages_delivered={} retransmits_timeout={} retransmits_fast={} probes_sent={} "
      "acks_sent={} gso_sends={} gro_reads={} "
      "heartbeats_sent={} duplicates={} out_of_window={} no_resource={} send_errors={} "
      "impair_dropped={} impair_duplicated={} impair_delayed={} impair_reordered={} rejected={}",
      s.datagrams_sent, s.bytes_sent, s.datagrams_received, s.bytes_received, s.messages_sent,
      s.messages_delivered, s.retransmits_timeout, s.retransmits_fast, s.probes_sent, s.acks_sent,
      s.gso_sends, s.gro_reads,
      s.heartbeats_sent, s.duplicates, s.out_of_window, s.no_resource, s.send_errors,
      s.impair_dropped, s.impair_duplicated, s.impair_delayed, s.impair_reordered, s.rejected());
  for (int i = 1; i < static_cast<int>(drop_reason::count); ++i)
    line += fmt::format(" drop_{}={}", drop_reason_name(static_cast<drop_reason>(i)), s.dropped[i]);
  return line;
}

// ---- the helper thread -----------------------------------------------------------

void udp_backend::start_helper() {
  wake_ = eventfd(0, EFD_CLOEXEC);
  if (wake_ < 0) port::fail("udp: eventfd: {}", std::strerror(errno));
  helper_ = std::thread([this] { helper_main(); });
}

// The launcher's word (release, abort, its disappearance) reaches us even
// while the main thread computes without polling.
void udp_backend::helper_main() {
  pollfd fds[2] = {{control_, POLLIN, 0}, {wake_, POLLIN, 0}};
  for (;;) {
    const int r = ::poll(fds, 2, -1);
    if (stopping_.load()) return;
    if (r <= 0 || fds[0].revents == 0) continue;
    control_frame f{};
    std::vector<unsigned char> payload;
    if (!read_control(control_, keys_, job_, f, payload)) {
      if (released_.load()) {
        fds[0].fd = -1;  // the launcher is done with us
      } else {
        const std::string line = fmt::format(
            "splitc: processor {} of {}: lost the connection to the launcher; leaving\n",
            myproc_, procs_);
        [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
        _exit(error_exit_status);
      }
    } else if (f.type == static_cast<std::uint32_t>(control_type::release)) {
      released_.store(true, std::memory_order_release);
    } else if (f.type == static_cast<std::uint32_t>(control_type::abort)) {
      _exit(error_exit_status);  // the launcher has named the cause
    }
  }
}

static_assert(splitc::backend<udp_backend>);

}  // namespace splitc::backends::udp
