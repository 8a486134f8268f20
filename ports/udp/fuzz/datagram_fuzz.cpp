// libFuzzer target for the udp backend's datagram parser and the protocol
// state behind it: a fresh engine (processor 1 of 3) per input receives a
// sequence of datagrams cut from the input. The first byte picks how they
// are treated:
//   bit 0  re-tag each datagram with the job's key after the fuzzer's edits,
//          so the checks behind the tag (kinds, lengths, fragments, windows,
//          acknowledgements, reassembly) are reached too;
//   bit 1  force magic, job, destination and a valid source first;
//   bit 2  point long messages into a scratch buffer (an authenticated peer
//          may write anywhere it names; a fuzzer must not).
// Messages delivered to the sink are read in full (ASan checks the bounds)
// and requests are answered, which drives the send path and its acknowledgements.
//
//   build: see CMakeLists.txt (clang++ -fsanitize=fuzzer,address,undefined)
//   short run (ctest udp.fuzz): -max_total_time=20
//   longer:  ./udp_datagram_fuzz -max_total_time=3600 -jobs=2 corpus/
#include <splitc/backends/udp_engine.hpp>
#include <splitc/backends/udp_wire.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace splitc;
using namespace splitc::backends::udp;

namespace {

constexpr std::uint64_t job = 0x5eed5eed5eed5eedULL;
constexpr std::size_t max_long = 16 * 65344;
alignas(64) unsigned char scratch[max_long + 65536];
engine* current = nullptr;
volatile unsigned char sink_hole;

const wire_keys& keys() {
  static const wire_keys k = [] {
    job_secret s{};
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<unsigned char>(i + 3);
    return derive_keys(s);
  }();
  return k;
}

void link(void*, int, const unsigned char* const* d, const std::size_t* len, int n) {
  for (int i = 0; i < n; ++i) sink_hole = d[i][len[i] - 1];
}
void touch(const am_message& m) {
  for (int i = 0; i < m.nargs; ++i) sink_hole = static_cast<unsigned char>(m.args[i]);
  if (m.kind != am_kind::short_msg && m.length != 0) {
    const auto* p = static_cast<const unsigned char*>(m.payload);
    sink_hole = p[0];
    sink_hole = p[m.length - 1];
  }
}
void on_internal(void*, const am_message& m) { touch(m); }
void on_message(void*, const am_message& m) {
  touch(m);
  if (m.is_request && current != nullptr) {
    const am_word a[2] = {1, 2};
    current->send(m.source, false, am_kind::short_msg, false, 1, a, 2, nullptr, 0, nullptr, 5'000'000);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0];
  ++data;
  --size;
  engine_config cfg;
  cfg.ring_bytes = std::size_t{4} << 20;
  const parse_limits limits{1, 3, job, 65536, max_long, max_long};
  engine e(cfg, keys(), limits, engine_link{nullptr, &link}, internal_sink{nullptr, &on_internal},
           1'000'000);
  e.set_handler_limit(40);
  current = &e;
  std::vector<std::uint64_t> buf(max_datagram / 8 + 2);
  std::uint64_t now = 2'000'000;
  while (size >= 2) {
    std::size_t len = static_cast<std::size_t>(data[0]) | static_cast<std::size_t>(data[1]) << 8;
    data += 2;
    size -= 2;
    len = std::min(len, size);
    auto* d = reinterpret_cast<unsigned char*>(buf.data());
    std::memcpy(d, data, len);
    data += len;
    size -= len;
    if (len >= header_bytes) {
      auto* h = reinterpret_cast<wire_header*>(d);
      if (mode & 2) {
        h->magic = wire_magic;
        h->job = job;
        h->dst = 1;
        h->src = static_cast<std::uint16_t>(h->src % 3 == 1 ? 0 : h->src % 3);
      }
      if ((mode & 4) && h->type == static_cast<std::uint8_t>(dgram_type::data) &&
          static_cast<am_kind>((h->flags >> flag_kind_shift) & 3) == am_kind::long_msg) {
        h->address = reinterpret_cast<std::uintptr_t>(scratch);
        if (h->total > max_long) h->total = static_cast<std::uint32_t>(max_long);
      }
      if (mode & 1) {
        const std::size_t body = len - header_bytes;
        h->tag = compute_tag(keys(), *h, d + header_bytes, body, nullptr);
        // An authenticated long message writes where it says: keep that in scratch.
        if (h->type == static_cast<std::uint8_t>(dgram_type::data) &&
            static_cast<am_kind>((h->flags >> flag_kind_shift) & 3) == am_kind::long_msg &&
            (h->flags & flag_internal) == 0 &&
            (h->address != reinterpret_cast<std::uintptr_t>(scratch) || h->total > max_long))
          continue;
      }
    }
    e.receive(d, len, am_sink{nullptr, &on_message}, now);
    now += 50'000;
    e.flush_acks(now);
    e.tick(now);
  }
  e.drain_self(am_sink{nullptr, &on_message});
  current = nullptr;
  return 0;
}
