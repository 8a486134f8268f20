// A workload whose every result is checked exactly, for running the udp
// backend through loss, duplication, reordering and delay (the impairment
// layer, nftables between namespaces, an injector): every processor puts,
// gets and stores to every other (small values and bulk ranges up to several
// long messages), sends medium and long active messages with replies, runs
// reductions and barriers. Prints "PASS udp_exact" from processor 0.
//
//   udp_exact [rounds] [checks]     (default 3 rounds; checks: a comma-separated list)
// With "impaired", the job's impairment layer (SPLITC_UDP_IMPAIR) must really have dropped,
// duplicated and reordered datagrams (summed over the processors): a run whose traffic never
// met it (the same-host layer carried it all) proves nothing about loss; "lossy" asks only
// that it dropped some (a layer that only drops holds nothing back). With "gso", runs of
// datagrams must have gone out as GSO buffers and come in as GRO reads (SPLITC_UDP_DATAGRAM
// small enough for runs to form); with "nogso", none may have (SPLITC_UDP_GSO=0).
#include "harness.hpp"

#include <splitc/backends/udp.hpp>
#include <splitc/splitc.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
unsigned char byte_at(std::uint64_t seed, std::size_t i) {
  return static_cast<unsigned char>(mix(seed * 1'000'003 + i / 8) >> (8 * (i % 8)));
}
void fill(unsigned char* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = 0; i < n; ++i) p[i] = byte_at(seed, i);
}
bool same(const unsigned char* p, std::size_t n, std::uint64_t seed, std::size_t* bad) {
  for (std::size_t i = 0; i < n; ++i)
    if (p[i] != byte_at(seed, i)) {
      *bad = i;
      return false;
    }
  return true;
}

constexpr std::size_t kBulk = 3 * 1024 * 1024 + 777;  // several long messages, ragged end
constexpr std::size_t kMedium = 40000;
constexpr int kSmall = 32;

// Active messages: a medium request whose handler checks its payload and
// replies with a checksum; a long request deposited into a buffer.
std::atomic<std::uint64_t> replies{0};
std::atomic<std::uint64_t> reply_sum{0};
std::atomic<std::uint64_t> longs_received{0};
splitc::handler_id h_medium, h_medium_reply, h_long;

std::uint64_t checksum(const unsigned char* p, std::size_t n) {
  std::uint64_t s = 1469598103934665603ULL;
  for (std::size_t i = 0; i < n; ++i) s = (s ^ p[i]) * 1099511628211ULL;
  return s;
}

void on_medium(const splitc::am_message& m) {
  const std::uint64_t seed = m.args[0];
  std::size_t bad = 0;
  CHECK_MSG(m.length == kMedium, "medium length {}", m.length);
  CHECK_MSG(same(static_cast<const unsigned char*>(m.payload), m.length, seed, &bad),
            "medium from {} differs at byte {}", m.source, bad);
  splitc::am_reply(m, h_medium_reply, checksum(static_cast<const unsigned char*>(m.payload), m.length));
}
void on_medium_reply(const splitc::am_message& m) {
  reply_sum.fetch_add(m.args[0]);
  replies.fetch_add(1);
}
void on_long(const splitc::am_message& m) {
  std::size_t bad = 0;
  CHECK_MSG(same(static_cast<const unsigned char*>(m.payload), m.length, m.args[0], &bad),
            "long message from {} differs at byte {}", m.source, bad);
  longs_received.fetch_add(1);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  const std::string checks = argc > 2 ? argv[2] : "";
  auto wanted = [&](const char* check) {
    return ("," + checks + ",").find(std::string(",") + check + ",") != std::string::npos;
  };
  const bool impaired = wanted("impaired");
  const int me = splitc::myproc(), P = splitc::procs();
  h_medium = splitc::register_handler(on_medium);
  h_medium_reply = splitc::register_handler(on_medium_reply);
  h_long = splitc::register_handler(on_long);
  splitc::barrier();

  // In the spread heap (same address everywhere): one bulk area and one small
  // area per writer, then a landing zone for long messages per sender.
  unsigned char* heap = harness::heap();
  const std::size_t area = (kBulk + 4096 + 63) & ~std::size_t{63};  // keeps the word areas aligned
  unsigned char* bulk_in = heap;                                            // P areas
  auto* small_in = reinterpret_cast<std::uint64_t*>(heap + area * P);       // P * kSmall words
  auto* stored_in = small_in + static_cast<std::size_t>(P) * kSmall;         // P * kSmall words
  unsigned char* long_in = reinterpret_cast<unsigned char*>(stored_in + static_cast<std::size_t>(P) * kSmall);
  CHECK(static_cast<std::size_t>(long_in + static_cast<std::size_t>(P) * kMedium - heap) < harness::heap_size());
  std::vector<unsigned char> src(kBulk), back(kBulk);

  for (int round = 0; round < rounds; ++round) {
    const std::uint64_t base = static_cast<std::uint64_t>(round) * 1000;
    // ---- bulk_put of kBulk to everyone (myself included), then sync
    for (int q = 0; q < P; ++q) {
      fill(src.data(), kBulk, base + me * 31 + q);
      splitc::bulk_put(splitc::toglobal(q, bulk_in + area * me), src.data(), kBulk);
      splitc::sync();  // src is reused
    }
    // ---- small puts and stores
    for (int q = 0; q < P; ++q) {
      for (int i = 0; i < kSmall; ++i) {
        splitc::put(splitc::toglobal(q, small_in + me * kSmall + i), mix(base + me * 100 + q * 7 + i));
        splitc::store(splitc::toglobal(q, stored_in + me * kSmall + i), mix(base + me * 100 + q * 7 + i + 1));
      }
    }
    splitc::sync();
    splitc::all_store_sync();
    // Check what landed here.
    for (int w = 0; w < P; ++w) {
      std::size_t bad = 0;
      CHECK_MSG(same(bulk_in + area * w, kBulk, base + w * 31 + me, &bad),
                "round {}: bulk from {} differs at byte {}", round, w, bad);
      for (int i = 0; i < kSmall; ++i) {
        CHECK_MSG(small_in[w * kSmall + i] == mix(base + w * 100 + me * 7 + i), "round {}: put from {}", round, w);
        CHECK_MSG(stored_in[w * kSmall + i] == mix(base + w * 100 + me * 7 + i + 1), "round {}: store from {}", round, w);
      }
    }
    splitc::barrier();
    // ---- bulk_get back what I wrote everywhere, and single reads
    for (int q = 0; q < P; ++q) {
      splitc::bulk_get(back.data(), splitc::toglobal(q, bulk_in + area * me), kBulk);
      splitc::sync();
      std::size_t bad = 0;
      CHECK_MSG(same(back.data(), kBulk, base + me * 31 + q, &bad), "round {}: bulk_get from {} differs at {}",
                round, q, bad);
      const std::uint64_t v = splitc::read(splitc::toglobal(q, small_in + me * kSmall + 3));
      CHECK(v == mix(base + me * 100 + q * 7 + 3));
    }
    // ---- bulk_store with store_sync of the exact byte count
    const std::size_t sb = 100'000 + static_cast<std::size_t>(round) * 333;
    for (int q = 0; q < P; ++q) {
      fill(src.data(), sb, base + 500 + me * 31 + q);
      splitc::bulk_store(splitc::toglobal(q, bulk_in + area * me), src.data(), sb);
    }
    splitc::all_store_sync();
    for (int w = 0; w < P; ++w) {
      std::size_t bad = 0;
      CHECK_MSG(same(bulk_in + area * w, sb, base + 500 + w * 31 + me, &bad), "round {}: bulk_store from {} at {}",
                round, w, bad);
    }
    splitc::barrier();
    // ---- active messages: medium with replies, long into the landing zone
    const std::uint64_t expect_replies = replies.load() + static_cast<std::uint64_t>(P);
    std::uint64_t expect_sum = reply_sum.load();
    std::vector<unsigned char> medium(kMedium);
    for (int q = 0; q < P; ++q) {
      const std::uint64_t seed = base + 700 + me * 31 + q;
      fill(medium.data(), kMedium, seed);
      expect_sum += checksum(medium.data(), kMedium);
      splitc::am_request_medium(q, h_medium, medium.data(), kMedium, seed);
      fill(medium.data(), kMedium, seed + 1);
      splitc::am_request_long(q, h_long, medium.data(), kMedium, long_in + kMedium * me, seed + 1);
    }
    while (replies.load() < expect_replies) splitc::poll();
    CHECK(reply_sum.load() == expect_sum);
    // ---- a reduction (messages are unordered: a barrier alone does not say
    // that every long message sent before it has run, so wait for them)
    while (longs_received.load() < static_cast<std::uint64_t>(P) * (round + 1)) splitc::poll();
    splitc::barrier();
    const std::uint64_t total = splitc::reduce_to_all(longs_received.load(), splitc::ops::add{});
    CHECK_MSG(total == static_cast<std::uint64_t>(P) * P * (round + 1), "round {}: {} long messages", round, total);
    splitc::barrier();
  }
  if (impaired) {
    const auto& st = splitc::detail::ctx().backend.stats();
    const std::uint64_t dropped = splitc::reduce_to_all(st.impair_dropped, splitc::ops::add{});
    const std::uint64_t duplicated = splitc::reduce_to_all(st.impair_duplicated, splitc::ops::add{});
    const std::uint64_t reordered = splitc::reduce_to_all(st.impair_reordered, splitc::ops::add{});
    CHECK_MSG(dropped > 0 && duplicated > 0 && reordered > 0,
              "the impairment layer dropped {}, duplicated {} and reordered {} datagrams: the "
              "traffic did not meet it",
              dropped, duplicated, reordered);
    if (me == 0)
      std::printf("udp_exact: impaired: %llu dropped, %llu duplicated, %llu reordered\n",
                  static_cast<unsigned long long>(dropped), static_cast<unsigned long long>(duplicated),
                  static_cast<unsigned long long>(reordered));
  }
  if (wanted("gso") || wanted("nogso")) {
    const auto& st = splitc::detail::ctx().backend.stats();
    const std::uint64_t gso = splitc::reduce_to_all(st.gso_sends, splitc::ops::add{});
    const std::uint64_t gro = splitc::reduce_to_all(st.gro_reads, splitc::ops::add{});
    if (wanted("gso")) {
      CHECK_MSG(gso > 0 && gro > 0, "{} GSO sends and {} GRO reads: no run of datagrams went as one", gso, gro);
    } else {
      CHECK_MSG(gso == 0 && gro == 0, "{} GSO sends and {} GRO reads with SPLITC_UDP_GSO=0", gso, gro);
    }
    if (me == 0)
      std::printf("udp_exact: %llu GSO sends, %llu GRO reads\n", static_cast<unsigned long long>(gso),
                  static_cast<unsigned long long>(gro));
  }
  if (wanted("lossy")) {
    const auto& st = splitc::detail::ctx().backend.stats();
    const std::uint64_t dropped = splitc::reduce_to_all(st.impair_dropped, splitc::ops::add{});
    CHECK_MSG(dropped > 0, "the impairment layer dropped no datagram");
  }
  if (me == 0 && std::getenv("SPLITC_UDP_STATS") != nullptr) {
    std::fprintf(stderr, "udp_exact: %d rounds on %d processors\n", rounds, P);
  }
  return harness::pass("udp_exact");
}
