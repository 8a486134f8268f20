// The udp backend's reliability engine per packet, without sockets: two
// engines joined by a link that hands each datagram straight to the other
// (authentication, sequencing, acknowledgement, delivery; no system call).
// A ctest runs each once (--benchmark_min_time=0).
#include <splitc/backends/udp_engine.hpp>
#include <splitc/backends/udp_wire.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <vector>

using namespace splitc;
using namespace splitc::backends::udp;

namespace {

/// Two engines; what one sends waits in `out` until pump() hands it over.
struct pair_of_engines {
  struct end {
    pair_of_engines* pair = nullptr;
    int me = 0;
    std::unique_ptr<engine> e;
    std::vector<std::vector<std::uint64_t>> out;  // 8-byte aligned copies, as a socket read gives
    std::uint64_t delivered = 0;
  };
  end ends[2];
  std::uint64_t now = 1'000'000;

  static void link(void* ctx, int, const unsigned char* const* d, const std::size_t* len, int n) {
    auto* e = static_cast<end*>(ctx);
    for (int i = 0; i < n; ++i) {
      std::vector<std::uint64_t> copy((len[i] + 7) / 8 + 1);
      std::memcpy(copy.data(), d[i], len[i]);
      copy.back() = len[i];
      e->out.push_back(std::move(copy));
    }
  }
  static void internal(void*, const am_message&) {}
  static void message(void* ctx, const am_message&) { ++static_cast<end*>(ctx)->delivered; }

  pair_of_engines() {
    job_secret secret{};
    for (std::size_t i = 0; i < secret.size(); ++i) secret[i] = static_cast<unsigned char>(3 * i + 1);
    static const wire_keys keys = derive_keys(secret);
    for (int p = 0; p < 2; ++p) {
      ends[p].pair = this;
      ends[p].me = p;
      const parse_limits limits{p, 2, 0x4242, 65536, 1 << 20, 1 << 20};
      ends[p].e = std::make_unique<engine>(engine_config{}, keys, limits, engine_link{&ends[p], &link},
                                           internal_sink{nullptr, &internal}, now);
      ends[p].e->set_datagram_bytes(1 - p, 65507);
    }
  }
  am_sink sink(int p) { return {&ends[p], &message, 65536}; }

  /// Hand every datagram waiting in either direction to its receiver.
  void pump() {
    for (bool moved = true; moved;) {
      moved = false;
      for (int p = 0; p < 2; ++p) {
        auto pending = std::move(ends[p].out);
        ends[p].out.clear();
        for (auto& d : pending) {
          const std::size_t len = d.back();
          ends[1 - p].e->receive(reinterpret_cast<const unsigned char*>(d.data()), len, sink(1 - p), now);
          moved = true;
        }
        ends[1 - p].e->flush_acks(now);
      }
    }
  }
};

// One short message (four arguments) from 0 to 1, delivered and acknowledged.
void short_message(benchmark::State& state) {
  pair_of_engines pair;
  const am_word args[4] = {1, 2, 3, 4};
  for (auto _ : state) {
    pair.ends[0].e->send(1, true, am_kind::short_msg, false, 5, args, 4, nullptr, 0, nullptr, pair.now);
    pair.pump();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(pair.ends[1].delivered));
}
BENCHMARK(short_message);

// One medium message of N bytes, delivered and acknowledged.
void medium_message(benchmark::State& state) {
  pair_of_engines pair;
  std::vector<unsigned char> payload(static_cast<std::size_t>(state.range(0)), 0x5a);
  const am_word args[1] = {7};
  for (auto _ : state) {
    pair.ends[0].e->send(1, true, am_kind::medium_msg, false, 5, args, 1, payload.data(),
                         payload.size(), nullptr, pair.now);
    pair.pump();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(medium_message)->Arg(64)->Arg(1024)->Arg(8192);

// A long message into a destination buffer (fragmented into datagrams of 64 KiB).
void long_message(benchmark::State& state) {
  pair_of_engines pair;
  std::vector<unsigned char> payload(static_cast<std::size_t>(state.range(0)), 0xa5);
  std::vector<unsigned char> dst(payload.size());
  const am_word args[1] = {9};
  for (auto _ : state) {
    pair.ends[0].e->send(1, true, am_kind::long_msg, false, 5, args, 1, payload.data(),
                         payload.size(), dst.data(), pair.now);
    pair.pump();
  }
  state.SetBytesProcessed(state.iterations() * state.range(0));
}
BENCHMARK(long_message)->Arg(256 << 10);

}  // namespace

BENCHMARK_MAIN();
