// Forged and corrupt datagrams, injected from a thread of every process into
// every peer's socket while the job works: garbage, truncated datagrams,
// another job's, forged and wrongly keyed tags, bit flips after tagging, and
// correctly tagged datagrams that name a processor, handler, length or
// acknowledgement out of range or are malformed. Each must be dropped and
// counted under its reason; the job's results must stay exact.
#include "harness.hpp"

#include <splitc/backends/udp.hpp>
#include <splitc/splitc.hpp>

#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace udp = splitc::backends::udp;

namespace {

constexpr int kPerKind = 40;  // of each kind, to each peer

struct injector {
  const udp::udp_backend& b;
  int sock;
  std::mt19937_64 rng;
  udp::wire_keys other_keys;

  explicit injector(const udp::udp_backend& backend)
      : b(backend), sock(socket(AF_INET, SOCK_DGRAM, 0)), rng(1234 + backend.myproc()) {
    udp::job_secret s{};
    s[0] = 0xee;
    other_keys = udp::derive_keys(s);
  }
  ~injector() { close(sock); }

  void send(int q, const void* d, std::size_t len) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = b.endpoints()[static_cast<std::size_t>(q)].ip;
    to.sin_port = b.endpoints()[static_cast<std::size_t>(q)].port;
    CHECK(sendto(sock, d, len, 0, reinterpret_cast<sockaddr*>(&to), sizeof to) == static_cast<ssize_t>(len));
  }

  /// A plausible data datagram from us to q with `payload` bytes, tagged with `keys`.
  std::vector<std::uint64_t> data(int q, std::size_t payload, const udp::wire_keys& keys) {
    std::vector<std::uint64_t> buf((udp::header_bytes + 16 + payload + 7) / 8);
    auto* h = reinterpret_cast<udp::wire_header*>(buf.data());
    h->magic = udp::wire_magic;
    h->type = static_cast<std::uint8_t>(udp::dgram_type::data);
    h->flags = udp::flag_request | udp::flag_first |
               (static_cast<unsigned>(splitc::am_kind::medium_msg) << udp::flag_kind_shift);
    h->nargs = 2;
    h->job = b.job();
    h->src = static_cast<std::uint16_t>(b.myproc());
    h->dst = static_cast<std::uint16_t>(q);
    h->handler = 0;
    h->payload = static_cast<std::uint32_t>(payload);
    h->seq = h->msg_seq = 1;
    h->ack = 1;
    h->total = static_cast<std::uint32_t>(payload);
    auto* body = reinterpret_cast<unsigned char*>(buf.data()) + udp::header_bytes;
    for (std::size_t i = 0; i < 16 + payload; ++i) body[i] = static_cast<unsigned char>(rng());
    h->tag = udp::compute_tag(keys, *h, body, 16 + payload, nullptr);
    return buf;
  }
  std::size_t len_of(std::size_t payload) { return udp::header_bytes + 16 + payload; }
  void retag(std::vector<std::uint64_t>& buf, std::size_t payload) {
    auto* h = reinterpret_cast<udp::wire_header*>(buf.data());
    h->tag = udp::compute_tag(b.keys(), *h, reinterpret_cast<unsigned char*>(buf.data()) + udp::header_bytes,
                              16 + payload, nullptr);
  }

  void one_round(int q) {
    const std::size_t n = 100 + rng() % 1500;  // longer than a header
    // garbage
    std::vector<unsigned char> g(n);
    for (auto& c : g) c = static_cast<unsigned char>(rng());
    g[0] = 0;  // never the magic
    send(q, g.data(), g.size());
    // truncated
    send(q, g.data(), 1 + rng() % 95);
    // another job
    auto d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->job ^= 1;
    send(q, d.data(), len_of(n));
    // a forged tag
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->tag = rng();
    send(q, d.data(), len_of(n));
    // the wrong key
    d = data(q, n, other_keys);
    send(q, d.data(), len_of(n));
    // a bit flipped after tagging (in the payload)
    d = data(q, n, b.keys());
    reinterpret_cast<unsigned char*>(d.data())[udp::header_bytes + 16 + rng() % n] ^= 4;
    send(q, d.data(), len_of(n));
    // correctly tagged, out of range: source processor
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->src = static_cast<std::uint16_t>(b.procs() + 3);
    retag(d, n);
    send(q, d.data(), len_of(n));
    // ... a length beyond the kind's limit
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->total = 1u << 30;
    retag(d, n);
    send(q, d.data(), len_of(n));
    // ... a handler nobody registered
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->handler = 65000;
    retag(d, n);
    send(q, d.data(), len_of(n));
    // ... an acknowledgement of data never sent
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->ack = std::uint64_t{1} << 40;
    retag(d, n);
    send(q, d.data(), len_of(n));
    // ... malformed: more argument words than a message may have
    d = data(q, n, b.keys());
    reinterpret_cast<udp::wire_header*>(d.data())->nargs = 9;
    retag(d, n);
    send(q, d.data(), len_of(n));
  }
};

// What each kind above must be counted as, in order: reason and how many per round.
const std::pair<udp::drop_reason, int> expected_per_round[] = {
    {udp::drop_reason::bad_magic, 1},     {udp::drop_reason::short_datagram, 1},
    {udp::drop_reason::bad_job, 1},       {udp::drop_reason::bad_tag, 3},
    {udp::drop_reason::bad_processor, 1}, {udp::drop_reason::bad_length, 1},
    {udp::drop_reason::bad_handler, 1},   {udp::drop_reason::bad_ack, 1},
    {udp::drop_reason::malformed, 1},
};

std::atomic<int> medium_ok{0};
splitc::handler_id h_echo;
void on_echo(const splitc::am_message& m) {
  const auto* p = static_cast<const unsigned char*>(m.payload);
  bool ok = m.length == 5000;
  for (std::size_t i = 0; ok && i < m.length; ++i) ok = p[i] == static_cast<unsigned char>(i * 7 + m.args[0]);
  CHECK_MSG(ok, "medium from {} corrupted", m.source);
  medium_ok.fetch_add(1);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  h_echo = splitc::register_handler(on_echo);
  const auto& backend = splitc::detail::ctx().backend;
  splitc::barrier();

  injector inj(backend);
  std::thread t([&] {
    for (int r = 0; r < kPerKind; ++r) {
      for (int q = 0; q < P; ++q)
        if (q != me) inj.one_round(q);
      usleep(2000);
    }
  });

  // Meanwhile: exact work. Bulk ranges to everyone and back, medium messages.
  const std::size_t n = 2 * 1024 * 1024 + 13;
  unsigned char* heap = harness::heap();
  std::vector<unsigned char> src(n), back(n);
  for (int round = 0; round < 4; ++round) {
    for (int q = 0; q < P; ++q) {
      for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<unsigned char>(i * 13 + me * 7 + q + round);
      splitc::bulk_put(splitc::toglobal(q, heap + n * me), src.data(), n);
      splitc::sync();
      splitc::bulk_get(back.data(), splitc::toglobal(q, heap + n * me), n);
      splitc::sync();
      CHECK_MSG(back == src, "round {}: bulk round trip with {} is not exact", round, q);
      std::vector<unsigned char> m(5000);
      for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<unsigned char>(i * 7 + round);
      splitc::am_request_medium(q, h_echo, m.data(), m.size(), static_cast<std::uint64_t>(round));
    }
    splitc::barrier();
  }
  while (medium_ok.load() < 4 * P) splitc::poll();
  t.join();
  splitc::barrier();
  // Let every injected datagram reach its socket and be read.
  for (int i = 0; i < 50; ++i) {
    splitc::poll();
    usleep(1000);
  }
  splitc::barrier();

  const auto& st = backend.stats();
  std::uint64_t expected_total = 0;
  for (const auto& [reason, per_round] : expected_per_round) {
    const std::uint64_t want = static_cast<std::uint64_t>(per_round) * kPerKind * (P - 1);
    CHECK_MSG(st.dropped[static_cast<int>(reason)] == want, "dropped as {}: {}, expected {} ({})",
              udp::drop_reason_name(reason), st.dropped[static_cast<int>(reason)], want,
              backend.stats_line());
    expected_total += want;
  }
  CHECK_MSG(st.rejected() == expected_total, "rejected {} expected {}", st.rejected(), expected_total);
  if (me == 0) std::printf("udp_inject: %llu datagrams rejected per processor, all counted\n",
                           static_cast<unsigned long long>(expected_total));
  return harness::pass("udp_inject");
}
