// The udp reliability protocol in one process: engines connected by a fake
// link that loses, duplicates, reorders and delays datagrams on a simulated
// clock. Checks exactly-once delivery with exact contents, fragmentation and
// reassembly, the flow-control window, piggybacked acknowledgements,
// timeouts that probe before they resend, back-off, the send ring's layout
// for GSO, and that invalid datagrams are dropped and counted without effect.
#include <splitc/backends/udp_engine.hpp>
#include <splitc/backends/udp_wire.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

using namespace splitc;
using namespace splitc::backends::udp;

namespace {

struct in_flight_datagram {
  std::uint64_t at;
  std::uint64_t order;
  int from, to;
  std::vector<unsigned char> data;
};

struct delivered {
  int source;
  std::uint16_t handler;
  am_kind kind;
  bool request;
  std::vector<am_word> args;
  std::vector<unsigned char> payload;  ///< medium: the bytes; long: copied from the destination
  std::uintptr_t address = 0;
};

struct network;

struct node {
  network* net = nullptr;
  int me = 0;
  std::unique_ptr<engine> e;
  std::vector<delivered> got;
  std::size_t max_flight_seen = 0;
  bool reply_to_requests = false;  ///< answer every request with a short reply
};

struct network {
  double loss = 0, dup = 0, reorder = 0;
  std::uint64_t latency = 20'000;  // ns
  std::mt19937_64 rng{12345};
  std::uint64_t now = 1'000'000;
  std::uint64_t order = 0;
  std::vector<in_flight_datagram> wire;
  std::vector<std::unique_ptr<node>> nodes;
  std::vector<int> blackholed;  ///< nodes whose datagrams vanish
  int paused = -1;              ///< a node off the CPU: nothing is delivered to it, no timers
  int ack_every_read = 0;       ///< >0: acknowledge after every so many datagrams read, as the
                                ///< backend's poll does; 0: once per step
  std::uint64_t sent = 0;
  std::vector<std::uint64_t> drop_once;  ///< data datagrams (by seq) lost at their first sending
  std::vector<std::vector<std::pair<const unsigned char*, std::size_t>>> link_calls;  ///< recorded

  double uniform() { return std::uniform_real_distribution<double>(0, 1)(rng); }

  static void link(void* ctx, int peer, const unsigned char* const* d, const std::size_t* len, int n) {
    auto* nd = static_cast<node*>(ctx);
    network& w = *nd->net;
    nd->max_flight_seen = std::max(nd->max_flight_seen, nd->e ? nd->e->in_flight(peer) : 0);
    w.link_calls.emplace_back();
    for (int i = 0; i < n; ++i) w.link_calls.back().emplace_back(d[i], len[i]);
    for (int i = 0; i < n; ++i) {
      ++w.sent;
      const auto* h = reinterpret_cast<const wire_header*>(d[i]);
      if (h->type == static_cast<std::uint8_t>(dgram_type::data)) {
        const auto lost = std::find(w.drop_once.begin(), w.drop_once.end(), h->seq);
        if (lost != w.drop_once.end()) {
          w.drop_once.erase(lost);
          continue;
        }
      }
      if (std::find(w.blackholed.begin(), w.blackholed.end(), nd->me) != w.blackholed.end()) continue;
      if (w.uniform() < w.loss) continue;
      const int copies = w.uniform() < w.dup ? 2 : 1;
      for (int c = 0; c < copies; ++c) {
        std::uint64_t t = w.now + w.latency;
        if (c == 1 || w.uniform() < w.reorder) t += static_cast<std::uint64_t>(w.uniform() * 200'000);
        w.wire.push_back({t, w.order++, nd->me, peer, std::vector<unsigned char>(d[i], d[i] + len[i])});
      }
    }
  }
  static void on_internal(void*, const am_message&) {}
  static void on_message(void* ctx, const am_message& m) {
    auto* nd = static_cast<node*>(ctx);
    delivered d{m.source, static_cast<std::uint16_t>(m.handler), m.kind, m.is_request,
                std::vector<am_word>(m.args, m.args + m.nargs), {}, 0};
    if (m.kind != am_kind::short_msg && m.length != 0) {
      const auto* p = static_cast<const unsigned char*>(m.payload);
      d.payload.assign(p, p + m.length);
    }
    if (m.kind == am_kind::long_msg) d.address = reinterpret_cast<std::uintptr_t>(m.payload);
    nd->got.push_back(std::move(d));
    if (nd->reply_to_requests && m.is_request) {
      const am_word a[1] = {m.nargs > 0 ? m.args[0] : 0};
      EXPECT_EQ(nd->e->send(m.source, false, am_kind::short_msg, false, 7, a, 1, nullptr, 0,
                            nullptr, nd->net->now),
                am_status::ok);
    }
  }

  network(int procs, const engine_config& cfg, std::size_t datagram) {
    job_secret secret{};
    for (std::size_t i = 0; i < secret.size(); ++i) secret[i] = static_cast<unsigned char>(i * 7 + 1);
    static const wire_keys keys = derive_keys(secret);
    for (int p = 0; p < procs; ++p) {
      auto nd = std::make_unique<node>();
      nd->net = this;
      nd->me = p;
      const parse_limits limits{p, procs, 0x1234, 65536, 1 << 20, 1 << 20};
      nd->e = std::make_unique<engine>(cfg, keys, limits, engine_link{nd.get(), &link},
                                       internal_sink{nullptr, &on_internal}, now);
      for (int q = 0; q < procs; ++q)
        if (q != p) nd->e->set_datagram_bytes(q, datagram);
      nodes.push_back(std::move(nd));
    }
  }

  am_sink sink(int p) { return {nodes[static_cast<std::size_t>(p)].get(), &on_message, 65536}; }

  /// Advance the clock by `step` and deliver what is due.
  void step(std::uint64_t dt = 10'000) {
    now += dt;
    std::stable_sort(wire.begin(), wire.end(), [](const auto& a, const auto& b) {
      return a.at != b.at ? a.at < b.at : a.order < b.order;
    });
    std::vector<in_flight_datagram> due;
    auto it = wire.begin();
    while (it != wire.end() && it->at <= now) ++it;
    due.assign(std::make_move_iterator(wire.begin()), std::make_move_iterator(it));
    wire.erase(wire.begin(), it);
    if (paused >= 0) {
      // The paused node's datagrams wait in its "socket" (in order, ahead of later ones).
      auto held = std::stable_partition(due.begin(), due.end(),
                                        [&](const in_flight_datagram& d) { return d.to != paused; });
      wire.insert(wire.begin(), std::make_move_iterator(held), std::make_move_iterator(due.end()));
      due.erase(held, due.end());
    }
    std::vector<int> read(nodes.size());
    for (auto& d : due) {
      // Engines parse in place: give them an 8-byte aligned copy.
      std::vector<std::uint64_t> aligned((d.data.size() + 7) / 8);
      std::memcpy(aligned.data(), d.data.data(), d.data.size());
      nodes[static_cast<std::size_t>(d.to)]->e->receive(
          reinterpret_cast<const unsigned char*>(aligned.data()), d.data.size(), sink(d.to), now);
      if (ack_every_read > 0 && ++read[static_cast<std::size_t>(d.to)] % ack_every_read == 0)
        nodes[static_cast<std::size_t>(d.to)]->e->flush_acks(now);
    }
    for (auto& nd : nodes) {
      if (nd->me == paused) continue;
      nd->e->drain_self(sink(nd->me));
      nd->e->flush_acks(now);
      nd->e->tick(now);
    }
  }

  bool quiet() const {
    for (auto& nd : nodes)
      if (!nd->e->all_acknowledged()) return false;
    return wire.empty();
  }
};

engine_config test_config() {
  engine_config c;
  c.rto_initial_ns = 1'000'000;
  c.rto_min_ns = 200'000;
  c.heartbeat_ns = 3'600'000'000'000ULL;
  return c;
}

std::vector<unsigned char> pattern(std::size_t n, std::uint64_t seed) {
  std::vector<unsigned char> v(n);
  std::mt19937_64 r(seed);
  for (auto& b : v) b = static_cast<unsigned char>(r());
  return v;
}

/// Every node sends `count` messages of every kind to every other node; all
/// must arrive exactly once, with exact contents.
void exchange_everything(network& net, int count, std::size_t max_len) {
  const int procs = static_cast<int>(net.nodes.size());
  struct expect {
    int from, to;
    am_kind kind;
    std::vector<unsigned char> data;
    std::unique_ptr<unsigned char[]> dst;
  };
  std::vector<expect> sent;
  std::mt19937_64 r(99);
  std::uint64_t id = 0;
  for (int i = 0; i < count; ++i) {
    for (int p = 0; p < procs; ++p) {
      for (int q = 0; q < procs; ++q) {
        const auto kind = static_cast<am_kind>(r() % 3);
        std::size_t len = kind == am_kind::short_msg ? 0 : r() % max_len;
        if (kind == am_kind::medium_msg) len = std::min<std::size_t>(len, 65536);
        expect e{p, q, kind, pattern(len, ++id), nullptr};
        if (kind == am_kind::long_msg) e.dst.reset(new unsigned char[len + 1]());
        const am_word args[3] = {id, static_cast<am_word>(p), static_cast<am_word>(len)};
        for (;;) {
          const am_status s = net.nodes[static_cast<std::size_t>(p)]->e->send(
              q, true, kind, false, 5, args, 3, e.data.data(), len, e.dst.get(), net.now);
          if (s == am_status::ok) break;
          net.step();
        }
        sent.push_back(std::move(e));
      }
    }
    net.step();
  }
  for (int guard = 0; !net.quiet(); ++guard) {
    ASSERT_LT(guard, 2'000'000) << "the protocol did not converge";
    net.step();
  }
  // Exactly once, exact contents.
  std::map<am_word, const delivered*> by_id;
  for (auto& nd : net.nodes) {
    for (const auto& d : nd->got) {
      ASSERT_EQ(d.args.size(), 3u);
      ASSERT_TRUE(by_id.emplace(d.args[0], &d).second) << "message " << d.args[0] << " delivered twice";
    }
  }
  ASSERT_EQ(by_id.size(), sent.size());
  std::uint64_t k = 0;
  for (const auto& e : sent) {
    const delivered& d = *by_id.at(++k);
    EXPECT_EQ(d.source, e.from);
    EXPECT_EQ(d.kind, e.kind);
    EXPECT_EQ(d.args[2], e.data.size());
    if (e.kind == am_kind::medium_msg) {
      EXPECT_EQ(d.payload, e.data);
    }
    if (e.kind == am_kind::long_msg) {
      EXPECT_EQ(d.address, reinterpret_cast<std::uintptr_t>(e.dst.get()));
      EXPECT_EQ(0, std::memcmp(e.dst.get(), e.data.data(), e.data.size())) << "message " << k;
      EXPECT_EQ(d.payload, e.data);
    }
  }
}

}  // namespace

TEST(UdpEngine, ExactlyOnceOnAPerfectLink) {
  network net(3, test_config(), 65507);
  exchange_everything(net, 20, 300'000);
  for (auto& nd : net.nodes) {
    EXPECT_EQ(nd->e->stats().retransmits_timeout, 0u);
    EXPECT_EQ(nd->e->stats().duplicates, 0u);
  }
}

TEST(UdpEngine, ExactlyOnceDespiteLossDuplicationReordering) {
  network net(3, test_config(), 1500);  // small datagrams: everything fragments
  net.loss = 0.15;
  net.dup = 0.10;
  net.reorder = 0.20;
  exchange_everything(net, 12, 200'000);
  std::uint64_t retx = 0, dups = 0;
  for (auto& nd : net.nodes) {
    retx += nd->e->stats().retransmits_timeout + nd->e->stats().retransmits_fast;
    dups += nd->e->stats().duplicates;
  }
  EXPECT_GT(retx, 0u);
  EXPECT_GT(dups, 0u);
}

TEST(UdpEngine, FourPeersHeavyLoss) {
  network net(4, test_config(), 4000);
  net.loss = 0.35;
  net.dup = 0.05;
  net.reorder = 0.5;
  exchange_everything(net, 6, 50'000);
}

TEST(UdpEngine, WindowBoundsBytesInFlight) {
  engine_config c = test_config();
  c.window_bytes = 64 * 1024;
  network net(2, c, 9000);
  net.latency = 500'000;  // a long pipe: the window, not the link, limits the flight
  exchange_everything(net, 30, 500'000);
  for (auto& nd : net.nodes) EXPECT_LE(nd->max_flight_seen, c.window_bytes + 9000);
}

TEST(UdpEngine, AcknowledgementsRideOnReplies) {
  network net(2, test_config(), 65507);
  net.nodes[1]->reply_to_requests = true;
  for (int i = 0; i < 200; ++i) {
    const am_word a[1] = {static_cast<am_word>(i)};
    ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0,
                                    nullptr, net.now),
              am_status::ok);
    // Wait for the reply, as a round trip does.
    const std::size_t want = static_cast<std::size_t>(i) + 1;
    for (int g = 0; net.nodes[0]->got.size() < want; ++g) {
      ASSERT_LT(g, 1000);
      net.step(5'000);
    }
  }
  // Requests carry the acknowledgement of the previous reply and replies that
  // of their request: no datagram of acknowledgements alone in the steady state.
  EXPECT_LE(net.nodes[0]->e->stats().acks_sent + net.nodes[1]->e->stats().acks_sent, 2u);
  EXPECT_EQ(net.nodes[0]->e->stats().datagrams_sent, 200u);
}

// A lost request also delays the acknowledgement of the reply before it (it
// rode on that request); the retransmission carries it a timeout later. The
// acknowledgement's delay field keeps such late acknowledgements out of the
// round-trip estimate: the timeout stays near its floor instead of growing
// with every loss (which made each loss cost more, and so on).
TEST(UdpEngine, LateAcknowledgementsDoNotInflateTheTimeout) {
  engine_config c = test_config();
  network net(2, c, 65507);
  net.nodes[1]->reply_to_requests = true;
  net.loss = 0.1;
  for (int i = 0; i < 300; ++i) {
    const am_word a[1] = {static_cast<am_word>(i)};
    ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0,
                                    nullptr, net.now),
              am_status::ok);
    const std::size_t want = static_cast<std::size_t>(i) + 1;
    for (int g = 0; net.nodes[0]->got.size() < want; ++g) {
      ASSERT_LT(g, 100000);
      net.step(5'000);
    }
  }
  // Floor: srtt (~40 us here) + delayed-acknowledgement wait (150 us) + 2 ticks (200 us).
  EXPECT_LT(net.nodes[0]->e->rto_ns(1), 600'000u);
  EXPECT_LT(net.nodes[1]->e->rto_ns(0), 600'000u);
  EXPECT_GT(net.nodes[0]->e->stats().retransmits_timeout + net.nodes[1]->e->stats().retransmits_timeout, 0u);
}

// A peer off the CPU for much longer than the timeout (more processes than
// cores; this VM's processes are for up to ~10 ms now and then): each
// (backed-off) timeout sends a probe, and nothing is resent -- when the peer
// runs again it has every datagram, and its answer says so. (Before probes,
// each timeout resent the oldest datagram: needless copies, and a lossless
// run counted "retransmissions".)
TEST(UdpEngine, APeerOffTheCpuCostsProbesNotRetransmissions) {
  network net(2, test_config(), 65507);
  net.ack_every_read = 4;
  auto send_shorts = [&](int n) {
    for (int i = 0; i < n; ++i) {
      const am_word a[1] = {static_cast<am_word>(i)};
      ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0,
                                      nullptr, net.now),
                am_status::ok);
    }
  };
  send_shorts(8);  // round-trip samples first
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step();
  }
  const udp_stats& s = net.nodes[0]->e->stats();
  ASSERT_EQ(s.retransmits_timeout + s.retransmits_fast + s.probes_sent, 0u);
  net.paused = 1;
  send_shorts(64);
  for (int i = 0; i < 2000; ++i) net.step();  // 20 ms, ~50 timeouts' worth
  net.paused = -1;
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step();
  }
  EXPECT_EQ(net.nodes[1]->got.size(), 72u);
  EXPECT_GT(s.probes_sent, 0u);                    // the pause was noticed...
  EXPECT_LE(s.probes_sent, 10u);                   // ...and backed off
  EXPECT_EQ(s.retransmits_timeout, 0u);            // nothing resent: it had all arrived
  EXPECT_EQ(s.retransmits_fast, 0u);
  EXPECT_EQ(net.nodes[1]->e->stats().duplicates, 0u);
}

// A lost datagram with nothing after it (no selective acknowledgement can name
// the hole): the timeout's probe is answered without it, and it is resent then
// -- once, one round trip after the timeout.
TEST(UdpEngine, ALostTailIsResentWhenTheProbesAnswerLacksIt) {
  network net(2, test_config(), 65507);
  for (int i = 0; i < 4; ++i) {
    const am_word a[1] = {static_cast<am_word>(i)};
    ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0,
                                    nullptr, net.now),
              am_status::ok);
    for (int g = 0; !net.quiet(); ++g) {
      ASSERT_LT(g, 100000);
      net.step();
    }
  }
  net.drop_once = {5};  // the next datagram, the last one sent
  const am_word a[1] = {4};
  ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0,
                                  nullptr, net.now),
            am_status::ok);
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step();
  }
  const udp_stats& s = net.nodes[0]->e->stats();
  ASSERT_EQ(net.nodes[1]->got.size(), 5u);
  EXPECT_EQ(net.nodes[1]->got.back().args[0], 4u);
  EXPECT_EQ(s.probes_sent, 1u);
  EXPECT_EQ(s.retransmits_timeout, 1u);
  EXPECT_EQ(s.retransmits_fast, 0u);
  EXPECT_EQ(net.nodes[1]->e->stats().duplicates, 0u);
}

// Probes that cross: processor 1 reads 0's probe, and its own timer fires before it flushes
// its acknowledgements. Its probe carries its acknowledgements but cannot carry the answer
// (an ack's seq): the answer must still go, or 0 would wait a doubled timeout more.
TEST(UdpEngine, AProbeOfOursDoesNotSwallowTheAnswerWeOwe) {
  network net(2, test_config(), 65507);
  net.drop_once = {1, 1};  // each side's first datagram to the other is lost
  const am_word a[1] = {9};
  for (int p : {0, 1})
    ASSERT_EQ(net.nodes[static_cast<std::size_t>(p)]->e->send(1 - p, true, am_kind::short_msg,
                                                               false, 3, a, 1, nullptr, 0, nullptr,
                                                               net.now),
              am_status::ok);
  ASSERT_TRUE(net.wire.empty());
  // 0's timeout: its probe goes out (twice).
  net.now += 5'000'000;
  net.nodes[0]->e->tick(net.now);
  ASSERT_EQ(net.wire.size(), 2u);
  // 1 reads it, then its own timer fires before any flush.
  for (auto& d : net.wire) {
    std::vector<std::uint64_t> aligned((d.data.size() + 7) / 8);
    std::memcpy(aligned.data(), d.data.data(), d.data.size());
    net.nodes[1]->e->receive(reinterpret_cast<const unsigned char*>(aligned.data()), d.data.size(),
                             net.sink(1), net.now);
  }
  net.wire.clear();
  net.nodes[1]->e->tick(net.now);
  net.nodes[1]->e->flush_acks(net.now);
  bool answered = false;
  for (const auto& d : net.wire) {
    const auto* h = reinterpret_cast<const wire_header*>(d.data.data());
    if (d.from == 1 && h->type == static_cast<std::uint8_t>(dgram_type::ack) && h->seq == 1)
      answered = true;
  }
  EXPECT_TRUE(answered) << "1 sent its probe but not the answer to 0's";
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step();
  }
  for (int p : {0, 1}) {
    ASSERT_EQ(net.nodes[static_cast<std::size_t>(p)]->got.size(), 1u);
    EXPECT_EQ(net.nodes[static_cast<std::size_t>(p)]->e->stats().retransmits_timeout, 1u) << p;
  }
}

// The fragments of a long message lie back to back in the send ring, all of one
// length but the last, so the backend can hand each run to the kernel as one
// GSO buffer (udp_backend::raw_send); the Ethernet-sized path is the case.
TEST(UdpEngine, AMessagesFragmentsLieBackToBackForGso) {
  network net(2, test_config(), 1472);
  const auto data = pattern(20 * 1300, 5);
  std::vector<unsigned char> dst(data.size());
  for (int nargs : {0, 3}) {
    net.link_calls.clear();
    const am_word a[3] = {1, 2, 3};
    ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::long_msg, false, 3, a, nargs, data.data(),
                                    data.size(), dst.data(), net.now),
              am_status::ok);
    ASSERT_EQ(net.link_calls.size(), 1u);
    const auto& run = net.link_calls[0];
    ASSERT_EQ(run.size(), 21u);  // 1,280 payload bytes per datagram
    // With arguments the first fragment is longer; the others follow one another exactly.
    for (std::size_t i = 1; i + 1 < run.size(); ++i) {
      EXPECT_EQ(run[i].second, 1376u) << i;
      EXPECT_EQ(run[i].first + run[i].second, run[i + 1].first) << i;
    }
    EXPECT_LE(run.back().second, 1376u);
    if (nargs == 0) {
      EXPECT_EQ(run[0].first + run[0].second, run[1].first);
    }
    for (int g = 0; !net.quiet(); ++g) {
      ASSERT_LT(g, 100000);
      net.step();
    }
    EXPECT_EQ(dst, data);
  }
}

TEST(UdpEngine, BacksOffExponentially) {
  engine_config c = test_config();
  c.rto_min_ns = 1'000'000;
  c.rto_initial_ns = 1'000'000;
  c.rto_max_ns = 1'000'000'000;
  c.heartbeat_ns = 1'000'000'000ULL;
  network net(2, c, 65507);
  net.blackholed = {1};  // processor 1 is alive but nothing it sends arrives
  const am_word a[1] = {1};
  ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0, nullptr,
                                  net.now),
            am_status::ok);
  for (int ms = 0; ms < 5000; ++ms) net.step(1'000'000);
  // 1 ms doubling up to 1 s over 5 s: about a dozen probes, not thousands (and nothing resent:
  // no answer says the datagram is missing).
  const auto probes = net.nodes[0]->e->stats().probes_sent;
  EXPECT_GE(probes, 8u);
  EXPECT_LE(probes, 16u);
  EXPECT_EQ(net.nodes[0]->e->stats().retransmits_timeout, 0u);
}

TEST(UdpEngine, RefusesWhenTheSendRingIsFull) {
  engine_config c = test_config();
  c.ring_bytes = 4 << 20;
  network net(2, c, 65507);
  net.loss = 1.0;  // nothing is acknowledged
  std::vector<unsigned char> big(1 << 20, 1);
  auto dst = std::make_unique<unsigned char[]>(1 << 20);
  int accepted = 0;
  while (net.nodes[0]->e->send(1, true, am_kind::long_msg, false, 3, nullptr, 0, big.data(),
                               big.size(), dst.get(), net.now) == am_status::ok)
    ++accepted;
  EXPECT_GE(accepted, 2);
  EXPECT_LE(accepted, 4);
  EXPECT_EQ(net.nodes[0]->e->stats().no_resource, 1u);
  // Once the link works again, everything drains and room returns.
  net.loss = 0;
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step(100'000);
  }
  EXPECT_EQ(net.nodes[1]->got.size(), static_cast<std::size_t>(accepted));
  EXPECT_EQ(net.nodes[0]->e->send(1, true, am_kind::long_msg, false, 3, nullptr, 0, big.data(),
                                  big.size(), dst.get(), net.now),
            am_status::ok);
}

TEST(UdpEngine, MessagesToSelf) {
  network net(2, test_config(), 65507);
  std::vector<unsigned char> data = pattern(1000, 5), dst(1000);
  const am_word a[2] = {11, 12};
  ASSERT_EQ(net.nodes[0]->e->send(0, true, am_kind::medium_msg, false, 4, a, 2, data.data(),
                                  data.size(), nullptr, net.now),
            am_status::ok);
  ASSERT_EQ(net.nodes[0]->e->send(0, true, am_kind::long_msg, false, 4, a, 2, data.data(),
                                  data.size(), dst.data(), net.now),
            am_status::ok);
  net.step();
  ASSERT_EQ(net.nodes[0]->got.size(), 2u);
  EXPECT_EQ(net.nodes[0]->got[0].payload, data);
  EXPECT_EQ(dst, data);
  EXPECT_EQ(net.nodes[0]->e->stats().datagrams_sent, 0u);
}

// ---- invalid datagrams -------------------------------------------------------------

namespace {
/// Capture what processor 0 sends to 1 without delivering it.
std::vector<std::vector<unsigned char>> capture(network& net, am_kind kind, std::size_t len) {
  std::vector<unsigned char> data = pattern(len, 77);
  static unsigned char dst[200000];
  const am_word a[2] = {1, 2};
  EXPECT_EQ(net.nodes[0]->e->send(1, true, kind, false, 3, a, 2, data.data(), len,
                                  kind == am_kind::long_msg ? dst : nullptr, net.now),
            am_status::ok);
  std::vector<std::vector<unsigned char>> out;
  for (auto& d : net.wire) out.push_back(d.data);
  net.wire.clear();
  return out;
}

void inject(network& net, std::vector<unsigned char> d) {
  std::vector<std::uint64_t> aligned((d.size() + 7) / 8 + 1);
  std::memcpy(aligned.data(), d.data(), d.size());
  net.nodes[1]->e->receive(reinterpret_cast<const unsigned char*>(aligned.data()), d.size(),
                           net.sink(1), net.now);
}
}  // namespace

TEST(UdpEngine, DropsAndCountsInvalidDatagrams) {
  network net(2, test_config(), 65507);
  const auto good = capture(net, am_kind::medium_msg, 3000);
  ASSERT_EQ(good.size(), 1u);
  const auto& st = net.nodes[1]->e->stats();
  auto dropped = [&](drop_reason r) { return st.dropped[static_cast<int>(r)]; };

  // A flipped bit anywhere: header, args, payload.
  for (std::size_t at : {std::size_t{40}, std::size_t{100}, std::size_t{2000}}) {
    auto d = good[0];
    d[at] ^= 0x10;
    inject(net, d);
  }
  EXPECT_EQ(dropped(drop_reason::bad_tag) + dropped(drop_reason::malformed) +
                dropped(drop_reason::bad_length) + dropped(drop_reason::short_datagram),
            3u);
  // Another job, a truncated datagram, garbage, a wrong destination.
  auto other = good[0];
  other[8] ^= 1;  // job
  inject(net, other);
  EXPECT_EQ(dropped(drop_reason::bad_job), 1u);
  inject(net, std::vector<unsigned char>(good[0].begin(), good[0].begin() + 50));
  inject(net, std::vector<unsigned char>(good[0].begin(), good[0].end() - 1));
  EXPECT_EQ(dropped(drop_reason::short_datagram), 2u);
  inject(net, pattern(500, 3));
  EXPECT_EQ(dropped(drop_reason::bad_magic), 1u);
  auto wrong = good[0];
  wrong[18] = 5;  // dst = 5, out of range
  inject(net, wrong);
  EXPECT_EQ(dropped(drop_reason::bad_processor), 1u);
  EXPECT_TRUE(net.nodes[1]->got.empty());

  // The real one is delivered once; a replay of it is a duplicate.
  inject(net, good[0]);
  inject(net, good[0]);
  EXPECT_EQ(net.nodes[1]->got.size(), 1u);
  EXPECT_EQ(st.duplicates, 1u);
  EXPECT_EQ(st.rejected(), 8u);
}

TEST(UdpEngine, RefusesHandlersNotYetRegisteredAndTakesThemLater) {
  network net(2, test_config(), 65507);
  net.nodes[1]->e->set_handler_limit(3);  // handler 3 is not registered at 1 yet
  const am_word a[1] = {42};
  ASSERT_EQ(net.nodes[0]->e->send(1, true, am_kind::short_msg, false, 3, a, 1, nullptr, 0, nullptr,
                                  net.now),
            am_status::ok);
  for (int i = 0; i < 300; ++i) net.step(10'000);
  EXPECT_TRUE(net.nodes[1]->got.empty());
  EXPECT_GT(net.nodes[1]->e->stats().dropped[static_cast<int>(drop_reason::bad_handler)], 0u);
  net.nodes[1]->e->set_handler_limit(4);
  for (int g = 0; !net.quiet(); ++g) {
    ASSERT_LT(g, 100000);
    net.step(100'000);
  }
  ASSERT_EQ(net.nodes[1]->got.size(), 1u);
  EXPECT_EQ(net.nodes[1]->got[0].args[0], 42u);
}

TEST(UdpWire, DigestOfASplitBodyIsTheSumOfItsParts) {
  job_secret secret{};
  secret[0] = 9;
  const wire_keys keys = derive_keys(secret);
  for (std::size_t nargs : {0, 1, 3, 8}) {
    for (std::size_t len : {0, 1, 7, 8, 63, 64, 65, 1000, 4096, 65000}) {
      std::vector<unsigned char> body = pattern(8 * nargs + len, nargs * 1000 + len);
      std::uint64_t whole[2];
      nh2_digest(keys, body.data(), body.size(), whole);
      std::uint64_t acc[2] = {0, 0};
      std::vector<unsigned char> copy(body.size());
      copy_and_digest(keys, copy.data(), body.data(), 8 * nargs, 0, acc);
      copy_and_digest(keys, copy.data() + 8 * nargs, body.data() + 8 * nargs, len, 8 * nargs, acc);
      EXPECT_EQ(acc[0], whole[0]) << nargs << " " << len;
      EXPECT_EQ(acc[1], whole[1]) << nargs << " " << len;
      EXPECT_EQ(copy, body);
    }
  }
}
