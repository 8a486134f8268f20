// udp_bench: the udp backend next to raw UDP, measured in the same run, on
// two processes (splitc-run --backend udp -n 2 udp_bench [options]).
//
// Raw UDP between the same two processes (their own sockets, loopback or
// whatever the job's endpoints are):
//   raw_rt           8-byte ping-pong, both sides busy-polling (MSG_DONTWAIT)
//   raw_stream_hot   65,507-byte datagrams from one buffer into one buffer
//   raw_stream_64M   65,507-byte datagrams walking a 64 MiB source into a
//                    64 MiB destination (what moving 64 MiB costs with raw UDP)
//   (raw_transfer below with the buffers' offsets wrapping: a window of 64 datagrams,
//   a credit every 16, timed by the sender up to the credit for the last one)
// splitc on the udp backend:
//   am_rt            am_request with 4 words, replied to, waited for
//   read, write      8-byte blocking get and put (round trips)
//   get, put         N 8-byte get/put issued, then sync: per operation
//   store            N 8-byte stores, then all_store_sync: per operation
//   bulk_put S       bulk_put of S bytes then sync, S = 8 B .. 64 MiB: MB/s
//   bulk_get S       the same for bulk_get
//   bulk_put S loss  bulk_put with the impairment layer dropping --loss of
//                    every datagram (acknowledgements included), same run
// Line rate (part "line", issue 43's bar), for S = 64 KiB, 1 MiB and 64 MiB, the
// two alternating in each repetition:
//   raw_transfer S   S bytes in datagrams of the job's size (65,507 on loopback;
//                    SPLITC_UDP_DATAGRAM=1472 stands for Ethernet), one sendto
//                    each, into the peer's segment, window 64 datagrams, a credit
//                    every 16, ended by the receiver's credit for the last one:
//                    raw UDP's bulk_put + sync
//   raw_transfer_gso S  the same with UDP GSO (up to 64 datagrams per send) and
//                    GRO (the receiver reads coalesced runs): only where a
//                    datagram is smaller than 32 KiB, as GSO then pays
//   line bulk_put S  bulk_put of S bytes then sync
//   and the timeout retransmissions of both processors during the part (none
//   is needed: the link is lossless)
//
// Each figure is the median of --reps repetitions (after one warm-up).
// Prints a table, the three bars of issue 5, and with --json=FILE one JSON
// object per line.
#include <splitc/backends/udp.hpp>
#include <splitc/splitc.hpp>

#include <CLI/CLI.hpp>
#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;
using u64 = std::uint64_t;

double seconds_since(clock_type::time_point t) {
  return std::chrono::duration<double>(clock_type::now() - t).count();
}

struct options {
  int reps = 7;
  double loss = 0.05;
  std::size_t max_size = std::size_t{64} << 20;
  std::string json;
  bool quick = false;
  bool progress = false;
  std::vector<std::string> only;  ///< parts to run (empty: all)
  bool want(const char* part) const {
    return only.empty() || std::find(only.begin(), only.end(), part) != only.end();
  }
};

std::FILE* json_out = nullptr;
void record(const std::string& key, const std::string& unit, double value, std::size_t size = 0) {
  if (json_out == nullptr) return;
  std::fprintf(json_out, "%s\n",
               fmt::format(R"({{"backend":"udp","key":"{}","size":{},"unit":"{}","value":{:.6g}}})",
                           key, size, unit, value)
                   .c_str());
  std::fflush(json_out);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// ---- control between the two processes ------------------------------------------

std::atomic<u64> pongs{0};
std::atomic<u64> phase_end{0};
splitc::handler_id h_echo, h_pong, h_end;
void on_echo(const splitc::am_message& m) { splitc::am_reply(m, h_pong, m.args[0], m.args[1], m.args[2], m.args[3]); }
void on_pong(const splitc::am_message&) { pongs.fetch_add(1, std::memory_order_relaxed); }
void on_end(const splitc::am_message&) { phase_end.fetch_add(1, std::memory_order_relaxed); }

/// Processor 1 serves (polls) until processor 0 ends the phase.
void serve_phase() {
  static u64 seen = 0;
  ++seen;
  while (phase_end.load(std::memory_order_relaxed) < seen) splitc::poll();
}
void end_phase() { splitc::am_request(1, h_end); }

// ---- raw UDP ------------------------------------------------------------------------

struct raw_socket {
  int fd = -1;
  sockaddr_in peer{};
  explicit raw_socket(std::uint32_t ip) {
    fd = socket(AF_INET, SOCK_DGRAM, 0);
    int big = 16 << 20;
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big) != 0)
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof big) != 0)
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
    int on = 1;  // GSO runs arrive whole (plain datagrams are read as before)
    setsockopt(fd, SOL_UDP, UDP_GRO, &on, sizeof on);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = ip;
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  ~raw_socket() { close(fd); }
  std::uint16_t port() const {
    sockaddr_in a{};
    socklen_t l = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &l);
    return a.sin_port;
  }
  void send(const void* d, std::size_t n) {
    while (sendto(fd, d, n, 0, reinterpret_cast<const sockaddr*>(&peer), sizeof peer) < 0) {
    }
  }
  /// `n` bytes cut by the kernel into datagrams of `segment` bytes (UDP GSO).
  void send_gso(const void* d, std::size_t n, std::size_t segment) {
    iovec v{const_cast<void*>(d), n};
    alignas(cmsghdr) unsigned char control[CMSG_SPACE(sizeof(std::uint16_t))] = {};
    msghdr h{};
    h.msg_name = &peer;
    h.msg_namelen = sizeof peer;
    h.msg_iov = &v;
    h.msg_iovlen = 1;
    h.msg_control = control;
    h.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_UDP;
    c->cmsg_type = UDP_SEGMENT;
    c->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
    const auto seg = static_cast<std::uint16_t>(segment);
    std::memcpy(CMSG_DATA(c), &seg, sizeof seg);
    while (sendmsg(fd, &h, 0) < 0) {
    }
  }
  ssize_t poll_recv(void* d, std::size_t n) {
    ssize_t r;
    while ((r = recv(fd, d, n, MSG_DONTWAIT)) < 0) {
    }
    return r;
  }
};

constexpr std::size_t dgram = 65507;
constexpr int stream_window = 64, credit_every = 16;

/// Raw UDP's bulk_put + sync, `iters` times: 0 sends `size` bytes from `src` in datagrams
/// of at most `dgram` bytes (the job's datagram size) -- one per sendto, or with `gso` runs of
/// up to 64 per send -- within a window of stream_window datagrams' bytes, credited every
/// credit_every datagrams' bytes, and waits for the credit that covers the last byte; 1 reads
/// them (whole runs, with GRO) into `dst`. The bytes' offsets in `src` and `dst` wrap at
/// `span` (a multiple of the runs; 0: `size`): the streams of issue 5 send 4,096 datagrams from
/// and into one datagram's buffer. Returns MB/s (on 0).
double raw_transfer(raw_socket& s, int me, std::size_t size, std::size_t iters,
                    const unsigned char* src, unsigned char* dst, std::size_t dgram, bool gso,
                    std::size_t span = 0) {
  const u64 window = stream_window * dgram, credit_bytes = credit_every * dgram;
  const std::size_t run = gso ? std::min<std::size_t>(64, 65507 / dgram) * dgram : dgram;
  if (span == 0) span = size;
  if (me == 0) {
    u64 credited = 0, sent = 0;
    auto take_credit = [&] {
      u64 c;
      if (recv(s.fd, &c, sizeof c, MSG_DONTWAIT) == sizeof c) credited = c;
    };
    const auto start = clock_type::now();
    for (std::size_t it = 0; it < iters; ++it) {
      for (std::size_t off = 0; off < size;) {
        while (sent >= credited + window) take_credit();
        const std::size_t n = std::min(run, size - off);
        if (n > dgram) {
          s.send_gso(src + off % span, n, dgram);
        } else {
          s.send(src + off % span, n);
        }
        off += n;
        sent += n;
      }
      while (credited < sent) take_credit();
    }
    return static_cast<double>(size) * static_cast<double>(iters) / seconds_since(start) / 1e6;
  }
  u64 got = 0, next_credit = credit_bytes;
  for (std::size_t it = 0; it < iters; ++it) {
    for (std::size_t off = 0; off < size;) {
      const auto n = static_cast<std::size_t>(s.poll_recv(
          dst + off % span, std::min({std::size_t{65536}, size - off, span - off % span})));
      off += n;
      got += n;
      if (got >= next_credit || off == size) {
        s.send(&got, sizeof got);
        next_credit = got + credit_bytes;
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  options opt;
  CLI::App app{"udp_bench: the udp backend next to raw UDP (run with -n 2)"};
  app.add_option("--reps", opt.reps, "repetitions per figure (median reported)");
  app.add_option("--loss", opt.loss, "datagram loss for the lossy bulk_put figures");
  app.add_option("--max-size", opt.max_size, "largest bulk transfer (bytes)");
  app.add_option("--json", opt.json, "append JSON lines to this file");
  app.add_flag("--quick", opt.quick, "fewer iterations (a smoke run)");
  app.add_flag("--progress", opt.progress, "print each figure to stderr as it is measured");
  app.add_option("--only", opt.only,
                 "run only these parts: rt (raw and AM round trips), small (read..store), "
                 "stream (raw streams), put, get, loss, line (bulk_put against raw UDP at 64 KiB, "
                 "1 MiB and 64 MiB)")
      ->check(CLI::IsMember({"rt", "small", "stream", "put", "get", "loss", "line"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  const int me = splitc::myproc();
  if (splitc::procs() != 2) {
    if (me == 0) std::fprintf(stderr, "udp_bench: run with exactly 2 processes\n");
    splitc::finalize();
    return 2;
  }
  if (me == 0 && !opt.json.empty()) json_out = std::fopen(opt.json.c_str(), "a");
  h_echo = splitc::register_handler(on_echo);
  h_pong = splitc::register_handler(on_pong);
  h_end = splitc::register_handler(on_end);
  auto& backend = splitc::detail::ctx().backend;
  const int peer = 1 - me;
  const int reps = opt.quick ? 3 : opt.reps;
  const double scale = opt.quick ? 0.1 : 1.0;

  // Raw sockets on the job's own addresses; ports swapped through global memory.
  raw_socket raw(backend.endpoints()[static_cast<std::size_t>(me)].ip);
  static std::uint16_t my_port;
  my_port = raw.port();
  splitc::barrier();
  raw.peer.sin_family = AF_INET;
  raw.peer.sin_addr.s_addr = backend.endpoints()[static_cast<std::size_t>(peer)].ip;
  raw.peer.sin_port = splitc::read(splitc::toglobal(peer, &my_port));
  splitc::barrier();

  struct row {
    std::string name;
    double value;
    std::string unit;
  };
  std::vector<row> rows;
  auto add = [&](const std::string& name, double v, const std::string& unit, std::size_t size = 0) {
    rows.push_back({name, v, unit});
    record(name, unit, v, size);
    if (opt.progress) {
      fmt::print(stderr, "udp_bench: {} {:.3f} {}\n", name, v, unit);
      std::fflush(stderr);
    }
  };

  // ---- raw 8-byte round trip --------------------------------------------------------
  const int rt_iters = static_cast<int>(20000 * scale) + 100;
  double raw_rt = 0;
  if (opt.want("rt")) {
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      u64 v = 0;
      if (me == 0) {
        const auto start = clock_type::now();
        for (int i = 0; i < rt_iters; ++i) {
          ++v;
          raw.send(&v, 8);
          raw.poll_recv(&v, 8);
        }
        if (r > 0) t.push_back(seconds_since(start) / rt_iters * 1e6);
      } else {
        for (int i = 0; i < rt_iters; ++i) {
          raw.poll_recv(&v, 8);
          raw.send(&v, 8);
        }
      }
    }
    if (me == 0) add("raw_rt", raw_rt = median(t), "us");
  }

  // ---- splitc AM round trip --------------------------------------------------------
  double am_rt = 0;
  if (opt.want("rt")) {
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      if (me == 0) {
        const u64 base = pongs.load();
        const auto start = clock_type::now();
        for (int i = 0; i < rt_iters; ++i) {
          splitc::am_request(1, h_echo, u64(i), u64(1), u64(2), u64(3));
          while (pongs.load(std::memory_order_relaxed) < base + static_cast<u64>(i) + 1) splitc::poll();
        }
        if (r > 0) t.push_back(seconds_since(start) / rt_iters * 1e6);
        end_phase();
      } else {
        serve_phase();
      }
    }
    if (me == 0) add("am_rt", am_rt = median(t), "us");
  }

  // ---- read / write / get / put / store of 8 bytes -----------------------------------
  static u64 words[4096];
  if (opt.want("small")) {
    const int n = static_cast<int>(10000 * scale) + 100;
    auto timed = [&](const std::string& name, const std::function<void()>& body, int per) {
      std::vector<double> t;
      for (int r = 0; r <= reps; ++r) {
        splitc::barrier();
        if (me == 0) {
          const auto start = clock_type::now();
          body();
          if (r > 0) t.push_back(seconds_since(start) / per * 1e6);
          end_phase();
        } else {
          serve_phase();
        }
      }
      if (me == 0) add(name, median(t), "us");
    };
    timed("read", [&] { for (int i = 0; i < n; ++i) words[0] += splitc::read(splitc::toglobal(1, &words[i % 4096])); }, n);
    timed("write", [&] { for (int i = 0; i < n; ++i) splitc::write(splitc::toglobal(1, &words[i % 4096]), u64(i)); }, n);
    timed("get", [&] {
      for (int i = 0; i < n; ++i) {
        splitc::get(&words[i % 4096], splitc::toglobal(1, &words[(i + 7) % 4096]));
        if (i % 512 == 511) splitc::sync();
      }
      splitc::sync();
    }, n);
    timed("put", [&] {
      for (int i = 0; i < n; ++i) {
        splitc::put(splitc::toglobal(1, &words[i % 4096]), u64(i));
        if (i % 512 == 511) splitc::sync();
      }
      splitc::sync();
    }, n);
    // store: the receiver takes part in all_store_sync.
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      const auto start = clock_type::now();
      if (me == 0)
        for (int i = 0; i < n; ++i) splitc::store(splitc::toglobal(1, &words[i % 4096]), u64(i));
      splitc::all_store_sync();
      if (me == 0 && r > 0) t.push_back(seconds_since(start) / n * 1e6);
    }
    if (me == 0) add("store", median(t), "us");
  }

  // ---- streams and bulk transfers ------------------------------------------------------
  const std::size_t span = std::max(opt.max_size, std::size_t{64} << 20);
  std::vector<unsigned char> src(span, 1), dst(span, 2);
  auto* heap = static_cast<unsigned char*>(splitc::my_segment().base);
  if (splitc::my_segment().size < span) {
    std::fprintf(stderr, "udp_bench: the segment is smaller than %zu bytes (SPLITC_SEGMENT_SIZE)\n", span);
    return 1;
  }
  std::memset(heap, 0, span);  // fault the destination in
  splitc::barrier();

  // `count` datagrams in one transfer: from and into one datagram's buffer, or walking span.
  auto stream = [&](const std::string& name, std::size_t count, bool walk) {
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      const double v = raw_transfer(raw, me, count * dgram, 1, src.data(),
                                    walk ? dst.data() : heap, dgram, false,
                                    walk ? span / dgram * dgram : dgram);
      if (r > 0) t.push_back(v);
    }
    if (me == 0) add(name, median(t), "MB/s", dgram);
    return me == 0 ? median(t) : 0.0;
  };
  const std::size_t stream_count = static_cast<std::size_t>(std::max(200.0, 4096 * scale));
  double raw_hot = 0, raw_64m = 0;
  if (opt.want("stream")) {
    raw_hot = stream("raw_stream_hot", stream_count, false);
    raw_64m = stream("raw_stream_64M", std::max<std::size_t>(stream_count, span / dgram), true);
  }

  // Up to 256 MiB per repetition, at most `most` transfers (a lossy small
  // transfer waits for a timeout now and then: fewer of them keep the run short).
  auto bulk = [&](const std::string& name, std::size_t size, bool is_put, std::size_t most = 0) {
    if (most == 0) most = opt.quick ? 1000 : 20000;
    const std::size_t iters = std::clamp<std::size_t>(
        static_cast<std::size_t>((std::size_t{256} << 20) * scale) / size, 3, most);
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      if (me == 0) {
        const auto start = clock_type::now();
        for (std::size_t i = 0; i < iters; ++i) {
          if (is_put) {
            splitc::bulk_put(splitc::toglobal(1, heap), src.data(), size);
          } else {
            splitc::bulk_get(dst.data(), splitc::toglobal(1, heap), size);
          }
          splitc::sync();
        }
        if (r > 0) t.push_back(static_cast<double>(size) * iters / seconds_since(start) / 1e6);
        end_phase();
      } else {
        serve_phase();
      }
    }
    if (me == 0) add(name, median(t), "MB/s", size);
    return me == 0 ? median(t) : 0.0;
  };
  std::vector<std::size_t> sizes;
  for (std::size_t s = 8; s <= opt.max_size; s *= 8) sizes.push_back(s);
  if (sizes.back() != opt.max_size) sizes.push_back(opt.max_size);
  double put_big = 0;
  if (opt.want("put") || opt.want("loss")) {
    for (std::size_t s : sizes) {
      if (!opt.want("put") && s != opt.max_size) continue;  // loss needs the lossless figure
      const double v = bulk(fmt::format("bulk_put {}", s), s, true);
      if (s == opt.max_size) put_big = v;
    }
  }
  if (opt.want("get"))
    for (std::size_t s : sizes) bulk(fmt::format("bulk_get {}", s), s, false);

  // ---- line rate: bulk_put against raw UDP's transfer of the same size, alternating -----
  std::vector<std::pair<std::size_t, double>> line_ratios;  // size, median of per-round ratios
  u64 line_timeouts = 0;
  if (opt.want("line")) {
    static u64 my_timeouts;
    const std::size_t line_dgram = backend.datagram_bytes(peer);
    // GSO pays where a datagram is small (SPLITC_UDP_DATAGRAM=1472); with loopback's 64 KiB
    // datagrams a run is one datagram.
    const bool with_gso = line_dgram < 32768;
    const u64 timeouts_before = backend.stats().retransmits_timeout;
    for (std::size_t size : {std::size_t{64} << 10, std::size_t{1} << 20, std::size_t{64} << 20}) {
      if (size > span) continue;
      const std::size_t iters = std::clamp<std::size_t>(
          static_cast<std::size_t>((std::size_t{512} << 20) * scale) / size, 3, 4000);
      std::vector<double> plain_v, gso_v, put_v, ratio;
      for (int r = 0; r <= reps; ++r) {
        splitc::barrier();
        const double plain = raw_transfer(raw, me, size, iters, src.data(), heap, line_dgram, false);
        double gso = 0;
        if (with_gso) {
          splitc::barrier();
          gso = raw_transfer(raw, me, size, iters, src.data(), heap, line_dgram, true);
        }
        splitc::barrier();
        double put = 0;
        if (me == 0) {
          const auto start = clock_type::now();
          for (std::size_t i = 0; i < iters; ++i) {
            splitc::bulk_put(splitc::toglobal(1, heap), src.data(), size);
            splitc::sync();
          }
          put = static_cast<double>(size) * static_cast<double>(iters) / seconds_since(start) / 1e6;
          end_phase();
        } else {
          serve_phase();
        }
        if (me == 0 && r > 0) {
          plain_v.push_back(plain);
          if (with_gso) gso_v.push_back(gso);
          put_v.push_back(put);
          ratio.push_back(put / std::max(plain, gso));  // against the better raw transfer
        }
      }
      if (me == 0) {
        add(fmt::format("raw_transfer {}", size), median(plain_v), "MB/s", size);
        if (with_gso) add(fmt::format("raw_transfer_gso {}", size), median(gso_v), "MB/s", size);
        add(fmt::format("line bulk_put {}", size), median(put_v), "MB/s", size);
        std::sort(ratio.begin(), ratio.end());
        line_ratios.emplace_back(size, median(ratio));
        record(fmt::format("bar_line_ratio_min {}", size), "ratio", ratio.front(), size);
        record(fmt::format("bar_line_ratio_max {}", size), "ratio", ratio.back(), size);
      }
    }
    my_timeouts = backend.stats().retransmits_timeout - timeouts_before;
    splitc::barrier();
    if (me == 0) line_timeouts = my_timeouts + splitc::read(splitc::toglobal(1, &my_timeouts));
    splitc::barrier();
  }

  // ---- the same under loss (both directions, acknowledgements included) ---------------
  double put_big_loss = 0, am_rt_loss = 0;
  std::string loss_stats;
  if (opt.want("loss")) {
  const std::string spec = fmt::format("drop={},seed=11", opt.loss);
  backend.set_impairment(spec);
  splitc::barrier();
  const splitc::backends::udp::udp_stats before = backend.stats();
  for (std::size_t s : {std::size_t{4096}, std::size_t{1} << 20, opt.max_size}) {
    const double v =
        bulk(fmt::format("bulk_put {} loss {}", s, opt.loss), s, true, opt.quick ? 100 : 2000);
    if (s == opt.max_size) put_big_loss = v;
  }
  {
    const splitc::backends::udp::udp_stats& a = backend.stats();
    loss_stats = fmt::format(
        "lossy bulk_put (processor {}): datagrams_sent={} probes_sent={} retransmits_timeout={} "
        "retransmits_fast={} impair_dropped={} duplicates={} acks_sent={}",
        me, a.datagrams_sent - before.datagrams_sent, a.probes_sent - before.probes_sent,
        a.retransmits_timeout - before.retransmits_timeout,
        a.retransmits_fast - before.retransmits_fast, a.impair_dropped - before.impair_dropped,
        a.duplicates - before.duplicates, a.acks_sent - before.acks_sent);
  }
  {
    std::vector<double> t;
    for (int r = 0; r <= reps; ++r) {
      splitc::barrier();
      if (me == 0) {
        const u64 base = pongs.load();
        const int n = rt_iters / 4;
        const auto start = clock_type::now();
        for (int i = 0; i < n; ++i) {
          splitc::am_request(1, h_echo, u64(i), u64(1), u64(2), u64(3));
          while (pongs.load(std::memory_order_relaxed) < base + static_cast<u64>(i) + 1) splitc::poll();
        }
        if (r > 0) t.push_back(seconds_since(start) / n * 1e6);
        end_phase();
      } else {
        serve_phase();
      }
    }
    if (me == 0) add(fmt::format("am_rt loss {}", opt.loss), am_rt_loss = median(t), "us");
  }
  splitc::barrier();
  backend.set_impairment("");
  splitc::barrier();
  }

  if (me == 1 && !loss_stats.empty()) fmt::print("{}\n", loss_stats);
  std::fflush(stdout);
  splitc::barrier();
  if (me == 0) {
    if (!loss_stats.empty()) fmt::print("{}\n", loss_stats);
    fmt::print("udp_bench: 2 processes, endpoints {}:{} and {}:{}, datagram {} bytes, median of {}\n",
               inet_ntoa(in_addr{backend.endpoints()[0].ip}), ntohs(backend.endpoints()[0].port),
               inet_ntoa(in_addr{backend.endpoints()[1].ip}), ntohs(backend.endpoints()[1].port),
               backend.datagram_bytes(1), reps);
    for (const row& r : rows) fmt::print("  {:<28} {:>12.3f} {}\n", r.name, r.value, r.unit);
    // A bar is printed only when this run measured both of its figures.
    if (raw_rt > 0 && am_rt > 0) {
      const double b1 = am_rt / raw_rt;
      fmt::print("bar: AM round trip / raw UDP round trip        = {:.3f}  (<= 1.2) {}\n", b1,
                 b1 <= 1.2 ? "met" : "NOT met");
      record("bar_am_rt_ratio", "ratio", b1);
    }
    if (raw_hot > 0 && put_big > 0) {
      const double b2 = put_big / raw_hot, b2w = put_big / raw_64m;
      fmt::print("bar: bulk_put {} / raw 64 KiB stream (hot)  = {:.3f}  (>= 0.8) {}\n", opt.max_size,
                 b2, b2 >= 0.8 ? "met" : "NOT met");
      fmt::print("     bulk_put {} / raw 64 KiB stream (64 MiB buffers) = {:.3f}\n", opt.max_size, b2w);
      record("bar_bulk_put_vs_stream_hot", "ratio", b2);
      record("bar_bulk_put_vs_stream_64M", "ratio", b2w);
    }
    for (const auto& [size, ratio] : line_ratios) {
      fmt::print("bar: bulk_put {} / best raw UDP transfer {}  = {:.3f}  (>= 0.8) {}  (median of per-round ratios)\n",
                 size, size, ratio, ratio >= 0.8 ? "met" : "NOT met");
      record(fmt::format("bar_line_ratio {}", size), "ratio", ratio, size);
    }
    if (!line_ratios.empty()) {
      fmt::print("bar: timeout retransmissions during the lossless line part (both processors) = {}  (0) {}\n",
                 line_timeouts, line_timeouts == 0 ? "met" : "NOT met");
      record("line_timeout_retransmissions", "count", static_cast<double>(line_timeouts));
    }
    if (put_big_loss > 0 && put_big > 0) {
      const double b3 = put_big_loss / put_big;
      fmt::print("bar: bulk_put {} at {}% loss / lossless     = {:.3f}  (>= 0.5) {}\n", opt.max_size,
                 opt.loss * 100, b3, b3 >= 0.5 ? "met" : "NOT met");
      fmt::print("     AM round trip at {}% loss: {:.2f} us\n", opt.loss * 100, am_rt_loss);
      record("bar_bulk_put_loss_ratio", "ratio", b3);
    }
    fmt::print("stats: {}\n", backend.stats_line());
  }
  if (json_out != nullptr) std::fclose(json_out);
  splitc::finalize();
  return 0;
}
