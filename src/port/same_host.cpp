// Porting kit: the same-host layer (include/splitc/port/same_host.hpp,
// docs/same_host.md): the segment in a memfd, discovery over abstract
// datagram sockets, the peers' segments mapped, and (for a backend that asks)
// the mailboxes of message rings after each segment.
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/same_host.hpp>

#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <string>

namespace splitc::port {
namespace {

/// What a process sends each peer on its host, with its segment's descriptor.
struct segment_offer {
  std::uint64_t magic;
  std::uint64_t job;
  std::int64_t proc;
  std::uint64_t base;
  std::uint64_t size;
  std::uint64_t mailbox;  ///< bytes of the mailbox after the segment (0: no messages)
  std::array<std::uint64_t, 2> pid_namespace;  ///< the sender's (pid_namespace_of)
};
constexpr std::uint64_t offer_magic = 0x73706c6974632d68ULL;  // "splitc-h"

/// How long a process waits for the offers of peers that took its own.
constexpr auto offer_wait = std::chrono::seconds(60);

/// This process's pid namespace, as the device and inode of /proc/self/ns/pid ({0, 0} where
/// /proc does not say). Two processes read each other's memory only when theirs are the
/// same: each then sees the other's pid, so both lend and both read, or neither does.
std::array<std::uint64_t, 2> pid_namespace_of() noexcept {
  struct stat st {};
  if (stat("/proc/self/ns/pid", &st) != 0) return {0, 0};
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

/// FNV-1a: SPLITC_HOST_ID, folded into the sockets' names.
std::uint64_t fnv1a(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ULL;
  return h;
}

/// The abstract socket name of processor q of this job (leading NUL: not in the file system).
socklen_t socket_name(sockaddr_un& a, std::uint64_t job, std::uint64_t host, proc_t q) {
  a = {};
  a.sun_family = AF_UNIX;
  const std::string name = fmt::format("splitc-{:016x}-{:016x}-{}", job, host, q);
  std::memcpy(a.sun_path + 1, name.data(), name.size());
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
}

/// Compress a sorted list of processors into "0-3, 6".
std::string ranges_of(const std::vector<proc_t>& procs) {
  std::string out;
  for (std::size_t i = 0; i < procs.size();) {
    std::size_t j = i;
    while (j + 1 < procs.size() && procs[j + 1] == procs[j] + 1) ++j;
    if (!out.empty()) out += ", ";
    out += j == i ? fmt::format("{}", procs[i]) : fmt::format("{}-{}", procs[i], procs[j]);
    i = j + 1;
  }
  return out;
}

}  // namespace

same_host::~same_host() {
  for (std::size_t q = 0; q < mapped_.size(); ++q) {
    if (mapped_[q] != 0 && mapped_[q] != base_)
      munmap(reinterpret_cast<void*>(mapped_[q]), size_ + mailbox_bytes_);
  }
  if (mailbox_ != nullptr) munmap(mailbox_, mailbox_bytes_);
  if (segment_fd_ >= 0) close(segment_fd_);
}

void* same_host::map_segment(std::string_view backend, const segment_geometry& g, proc_t procs,
                             bool messages) {
  if (!env::same_host.get()) return reserve_segment(backend, g, 1, true);
  if (messages && procs > 1 && env::same_host_messages.get()) {
    ring_bytes_ = std::bit_ceil(std::max<std::size_t>(env::same_host_ring_bytes.get(), 64 * 1024));
    mailbox_bytes_ = 2 * static_cast<std::size_t>(procs) * ring_stride();
    max_record_ = ring_bytes_ / 4;
    piece_bytes_ = std::min<std::size_t>(max_record_ - record_prefix(0, true), 32 * 1024);
  }
  const int fd = memfd_create("splitc-segment", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(g.size + mailbox_bytes_)) != 0) {
    fatal_error(fmt::format("{}: cannot make the segment shared memory ({} bytes): {}; "
                            "SPLITC_SAME_HOST=0 keeps it private",
                            backend, g.size + mailbox_bytes_, std::strerror(errno)));
  }
  segment_fd_ = fd;
  if (mailbox_bytes_ != 0) {
    mailbox_ = static_cast<unsigned char*>(map_shared(backend, "this processor's message rings",
                                                      nullptr, mailbox_bytes_, fd,
                                                      static_cast<off_t>(g.size)));
  }
  void* base = reserve_segment(backend, g, 1, false);
  return map_shared(backend, "this processor's segment", base, g.size, fd, 0);
}

same_host::send_result same_host::send_in_pieces(stream& s, ring_producer& ring, handler_id h,
                                                 const am_word* a, int n, const void* src,
                                                 std::size_t len, void* dst) {
  if (s.src != src || s.dst != dst || s.len != len) s = {src, dst, len, 0};  // a new message
  auto* from = static_cast<const unsigned char*>(src);
  auto* to = static_cast<unsigned char*>(dst);
  while (s.sent < len) {
    const std::size_t piece = std::min(piece_bytes_, len - s.sent);
    if (ring_send(ring, handler_id{}, nullptr, 0, record_long | record_piece, from + s.sent, piece,
                  to + s.sent) != am_status::ok)
      return send_result::full;
    s.sent += piece;
  }
  if (ring_send_in_place(ring, h, a, n, src, len, dst, nullptr) != am_status::ok)
    return send_result::full;
  s = {};
  return send_result::sent;
}

void same_host::open_mailboxes(proc_t myproc, proc_t procs) {
  if (mailbox_ == nullptr || members_.size() < 2) return;
  const std::uint64_t ncells = ring_bytes_ / cell_bytes;
  // The ring from processor `from` on `network` in the mailbox that starts at `box`.
  auto ring = [&](unsigned char* box, int network, proc_t from) {
    return reinterpret_cast<ring_shared*>(box + ring_offset(procs, network, from));
  };
  outboxes_.resize(static_cast<std::size_t>(procs));
  for (proc_t q : members_) {
    if (q == myproc) continue;
    auto* theirs = reinterpret_cast<unsigned char*>(mapped_[static_cast<std::size_t>(q)]) + size_;
    outboxes_[static_cast<std::size_t>(q)] = {ring_producer(ring(theirs, 0, myproc), ncells),
                                              ring_producer(ring(theirs, 1, myproc), ncells), {}, {}};
    inboxes_.push_back({q, ring_consumer(ring(mailbox_, 0, q), ncells),
                        ring_consumer(ring(mailbox_, 1, q), ncells)});
  }
}

void same_host::map_peer(std::string_view backend, proc_t q, int fd, std::size_t size) {
  void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
  const int error = errno;
  close(fd);
  if (p == MAP_FAILED) {
    fatal_error(fmt::format("{}: cannot map the segment of processor {} ({} bytes): {}; "
                            "SPLITC_SAME_HOST=0 leaves it to the network",
                            backend, q, size, std::strerror(error)));
  }
  mapped_[static_cast<std::size_t>(q)] = reinterpret_cast<std::uintptr_t>(p);
}

void same_host::connect(std::string_view backend, proc_t myproc, proc_t procs, std::uint64_t job,
                        network net) {
  auto progress = [&] {
    if (net.progress != nullptr) net.progress(net.context);
  };
  const segment_geometry g = segment_from_environment();
  mapped_.assign(static_cast<std::size_t>(procs), 0);
  mapped_[static_cast<std::size_t>(myproc)] = g.base;
  pids_.assign(static_cast<std::size_t>(procs), 0);
  members_.assign(1, myproc);
  if (segment_fd_ < 0 || procs == 1) {
    net.barrier(net.context);
    base_ = g.base;
    size_ = g.size;
    return;
  }

  // Peers may read this process's memory once the collectives start (peer_read).
  peer_read_min_ = env::same_host_collective_one_copy_min.get();
  if (peer_read_min_ != 0) cross_memory::open_to_peers();
  const std::uint64_t host = fnv1a(env::host_id.get());
  const long block = env::same_host_max.get();
  if (block < 0) {
    bad_env_value(env::same_host_max.name, *env::same_host_max.value(),
                  "is not a number of processors (0: no limit)");
  }
  auto same_block = [&](proc_t q) { return block == 0 || q / block == myproc / block; };

  const int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (s < 0) fatal_error(fmt::format("{}: same-host: cannot create a socket: {}", backend,
                                     std::strerror(errno)));
  // Each offer comes with its sender's process id as the kernel sees it from here (0 when
  // its pid namespace hides it): what the collectives' one copy reads from (peer_read), kept
  // only when the sender's pid namespace is this one's. (A process in a parent namespace sees
  // its child namespace's pids, but not the other way round: it would lend blocks its peer
  // could only fetch by a round trip, where staging them costs none.)
  const std::array<std::uint64_t, 2> pid_namespace = pid_namespace_of();
  const int pass_credentials = 1;
  setsockopt(s, SOL_SOCKET, SO_PASSCRED, &pass_credentials, sizeof pass_credentials);
  sockaddr_un me{};
  const socklen_t me_len = socket_name(me, job, host, myproc);
  if (bind(s, reinterpret_cast<sockaddr*>(&me), me_len) != 0) {
    fatal_error(fmt::format("{}: same-host: cannot bind this processor's socket: {} (another job "
                            "with the same number on this host?)",
                            backend, std::strerror(errno)));
  }
  // Every process's socket exists before anyone sends.
  net.barrier(net.context);

  std::vector<char> heard(static_cast<std::size_t>(procs), 0);
  std::vector<proc_t> offered;  // the peers that took our offer: each sends us one
  auto receive_offers = [&] {
    while (true) {
      segment_offer offer{};
      iovec io{&offer, sizeof offer};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(ucred))] = {};
      msghdr m{};
      m.msg_iov = &io;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof control;
      const ssize_t n = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
      if (n < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return;
        fatal_error(fmt::format("{}: same-host: receiving a peer's segment: {}", backend,
                                std::strerror(errno)));
      }
      int fd = -1;
      pid_t sender = 0;
      for (cmsghdr* c = CMSG_FIRSTHDR(&m); c != nullptr; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET) continue;
        if (c->cmsg_type == SCM_RIGHTS && fd < 0) {
          std::memcpy(&fd, CMSG_DATA(c), sizeof fd);
        } else if (c->cmsg_type == SCM_CREDENTIALS) {
          ucred who{};
          std::memcpy(&who, CMSG_DATA(c), sizeof who);
          sender = who.pid;
        }
      }
      if (n != static_cast<ssize_t>(sizeof offer) || offer.magic != offer_magic ||
          offer.job != job || offer.proc < 0 || offer.proc >= procs || fd < 0) {
        if (fd >= 0) close(fd);
        continue;  // not one of this job's offers
      }
      const auto q = static_cast<proc_t>(offer.proc);
      if (offer.base != g.base || offer.size != g.size) {
        fatal_error(fmt::format(
            "{}: processor {} has its segment at {:#x} ({} bytes), this one at {:#x} ({} bytes): "
            "SPLITC_SEGMENT_BASE and SPLITC_SEGMENT_SIZE must be the same in every process",
            backend, q, offer.base, offer.size, g.base, g.size));
      }
      if (offer.mailbox != mailbox_bytes_) {
        fatal_error(fmt::format(
            "{}: processor {} has {} bytes of same-host message rings, this one {}: "
            "SPLITC_SAME_HOST_MESSAGES and SPLITC_SAME_HOST_RING_BYTES must be the same in every "
            "process",
            backend, q, offer.mailbox, mailbox_bytes_));
      }
      if (heard[static_cast<std::size_t>(q)] != 0 || q == myproc) {
        close(fd);
        continue;
      }
      heard[static_cast<std::size_t>(q)] = 1;
      map_peer(backend, q, fd, g.size + mailbox_bytes_);
      pids_[static_cast<std::size_t>(q)] = offer.pid_namespace == pid_namespace ? sender : 0;
    }
  };

  const segment_offer mine{offer_magic, job, myproc, g.base, g.size, mailbox_bytes_, pid_namespace};
  for (proc_t step = 1; step < procs; ++step) {
    const proc_t q = (myproc + step) % procs;  // staggered: not everyone at processor 0 first
    if (!same_block(q)) continue;
    sockaddr_un to{};
    const socklen_t to_len = socket_name(to, job, host, q);
    while (true) {
      iovec io{const_cast<segment_offer*>(&mine), sizeof mine};
      alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
      msghdr m{};
      m.msg_name = &to;
      m.msg_namelen = to_len;
      m.msg_iov = &io;
      m.msg_iovlen = 1;
      m.msg_control = control;
      m.msg_controllen = sizeof control;
      cmsghdr* c = CMSG_FIRSTHDR(&m);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(c), &segment_fd_, sizeof(int));
      if (sendmsg(s, &m, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof mine)) {
        offered.push_back(q);
        break;
      }
      const int error = errno;
      if (error == ECONNREFUSED || error == ENOENT) break;  // not on this host
      if (error == EINTR) continue;
      if (error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS || error == ETOOMANYREFS) {
        // The peer's queue is full (it is sending too): take ours in, then again.
        receive_offers();
        progress();
        pollfd p{s, POLLIN, 0};
        ::poll(&p, 1, 1);
        continue;
      }
      fatal_error(fmt::format("{}: same-host: offering the segment to processor {}: {}", backend,
                              q, std::strerror(error)));
    }
    receive_offers();
  }

  // Each peer that took our offer makes one of its own.
  const auto deadline = std::chrono::steady_clock::now() + offer_wait;
  auto missing = [&] {
    std::vector<proc_t> out;
    for (proc_t q : offered)
      if (heard[static_cast<std::size_t>(q)] == 0) out.push_back(q);
    return out;
  };
  while (!missing().empty()) {
    if (std::chrono::steady_clock::now() > deadline) {
      fatal_error(fmt::format("{}: same-host: processors {} took this processor's segment but "
                              "did not offer theirs within {} s (SPLITC_SAME_HOST=0 turns the "
                              "layer off)",
                              backend, ranges_of(missing()), offer_wait.count()));
    }
    // Peers may still be in the barrier, waiting for this processor's layer to answer.
    progress();
    pollfd p{s, POLLIN, 0};
    ::poll(&p, 1, net.progress != nullptr ? 1 : 100);
    receive_offers();
  }
  close(s);
  close(segment_fd_);
  segment_fd_ = -1;

  for (proc_t q = 0; q < procs; ++q)
    if (q != myproc && mapped_[static_cast<std::size_t>(q)] != 0) members_.push_back(q);
  std::sort(members_.begin(), members_.end());
  base_ = g.base;
  size_ = g.size;
  open_mailboxes(myproc, procs);
  if (env::verbose.get()) {
    fmt::print(stderr, "splitc: processor {} of {}: {}: shares memory with processors {} ({} on "
                       "this host){}\n",
               myproc, procs, backend, ranges_of(members_), members_.size(),
               inboxes_.empty() ? "" : "; messages between them over shared-memory rings");
  }
}

}  // namespace splitc::port
