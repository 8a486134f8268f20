// Global memory over the mpi backend: the five bulk operations and single
// values to every processor, into the segment and into static and malloc
// memory, under each long-message protocol; back-pressure (many gets and
// puts in flight to one processor, everyone storing to everyone); and the
// collectives, which run on active messages here.
#include "mpi_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

namespace {

namespace mpi = splitc::backends::mpi;

unsigned char pattern(std::uint64_t seed, std::size_t k) {
  return static_cast<unsigned char>((seed * 0x9e3779b1u + k * 131 + (k >> 11)) & 0xff);
}
void fill(unsigned char* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t k = 0; k < n; ++k) p[k] = pattern(seed, k);
}
std::size_t mismatch(const unsigned char* p, std::size_t n, std::uint64_t seed) {
  for (std::size_t k = 0; k < n; ++k)
    if (p[k] != pattern(seed, k)) return k;
  return n;
}

struct record {
  std::uint64_t a[6];
  bool operator==(const record&) const = default;
};

// Static data: the same address on every processor (ASLR is off under
// splitc-run and, by the backend's re-exec, under a plain mpirun).
constexpr int max_procs = 8;
alignas(64) unsigned char static_in[max_procs][70000];
record static_records[max_procs];
int static_ints[max_procs];

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc();
  const int P = splitc::procs();
  CHECK(P <= max_procs);
  auto& b = mpitest::backend();
  const mpi::tuning saved = b.tune();
  const std::size_t max_long = mpi::mpi_backend::max_long_bytes;

  // Segment layout (same address everywhere): a source area, then one
  // landing area per sender for puts and one for stores.
  const std::size_t area = max_long + 4096;
  auto* seg = static_cast<unsigned char*>(splitc::my_segment().base);
  unsigned char* source = seg;
  auto put_area = [&](int sender) { return seg + area * (1 + static_cast<std::size_t>(sender)); };
  auto store_area = [&](int sender) {
    return seg + area * (1 + static_cast<std::size_t>(P + sender));
  };
  CHECK(splitc::my_segment().size >= area * (1 + 2 * static_cast<std::size_t>(P)));
  std::vector<unsigned char> local(area);

  const mpi::long_protocol protocols[] = {mpi::long_protocol::staged,
                                          mpi::long_protocol::rendezvous, mpi::long_protocol::rma,
                                          mpi::long_protocol::automatic};
  const std::size_t sizes[] = {1, 8, 40, 41, 1000, 3999, 4096, 5000, 65536, 65537, 300001,
                               max_long, max_long + 4093};
  std::uint64_t round = 0;
  for (auto protocol : protocols) {
    const std::uint64_t lent_before = b.stats().sends_lent;
    b.tune().long_mode = protocol;
    b.tune().rma_min = protocol == mpi::long_protocol::automatic && b.has_window() ? 262144 : 0;
    for (std::size_t len : sizes) {
      if (len > area - 4096 + 4093) continue;
      ++round;
      fill(source, len, round * 64 + static_cast<std::uint64_t>(me));
      splitc::barrier();
      for (int k = 0; k < P; ++k) {
        const int q = (me + k) % P;
        // bulk_get and bulk_read from q's source area.
        std::memset(local.data(), 0, len);
        splitc::bulk_get(local.data(), splitc::toglobal(q, static_cast<void*>(source)), len);
        splitc::sync();
        std::size_t bad = mismatch(local.data(), len, round * 64 + static_cast<std::uint64_t>(q));
        CHECK_MSG(bad == len, "bulk_get {} bytes from {}: byte {} wrong (protocol {})", len, q,
                  bad, static_cast<int>(protocol));
        std::memset(local.data(), 0, len);
        splitc::bulk_read(local.data(), splitc::toglobal(q, static_cast<void*>(source)), len);
        bad = mismatch(local.data(), len, round * 64 + static_cast<std::uint64_t>(q));
        CHECK_MSG(bad == len, "bulk_read {} bytes from {}: byte {} wrong", len, q, bad);
        // bulk_put into my landing area at q, bulk_store into the other.
        fill(local.data(), len, round * 64 + 16 + static_cast<std::uint64_t>(me));
        splitc::bulk_put(splitc::toglobal(q, static_cast<void*>(put_area(me))), local.data(), len);
        std::memset(local.data(), 0xcc, len);  // the source may be reused after the call
        fill(local.data(), len, round * 64 + 32 + static_cast<std::uint64_t>(me));
        splitc::bulk_store(splitc::toglobal(q, static_cast<void*>(store_area(me))), local.data(),
                           len);
      }
      splitc::sync();
      splitc::all_store_sync();
      for (int s = 0; s < P; ++s) {
        std::size_t bad = mismatch(put_area(s), len, round * 64 + 16 + static_cast<std::uint64_t>(s));
        CHECK_MSG(bad == len, "bulk_put {} bytes from {}: byte {} wrong", len, s, bad);
        bad = mismatch(store_area(s), len, round * 64 + 32 + static_cast<std::uint64_t>(s));
        CHECK_MSG(bad == len, "bulk_store {} bytes from {}: byte {} wrong", len, s, bad);
      }
      splitc::barrier();
      // bulk_write into static data (outside the segment: no RMA there).
      if (len <= sizeof static_in[0]) {
        fill(local.data(), len, round * 64 + 48 + static_cast<std::uint64_t>(me));
        for (int k = 0; k < P; ++k) {
          const int q = (me + k) % P;
          splitc::bulk_write(splitc::toglobal(q, static_cast<void*>(static_in[me])), local.data(),
                             len);
        }
        splitc::barrier();
        for (int s = 0; s < P; ++s) {
          const std::size_t bad =
              mismatch(static_in[s], len, round * 64 + 48 + static_cast<std::uint64_t>(s));
          CHECK_MSG(bad == len, "bulk_write {} bytes from {} into static data: byte {} wrong", len,
                    s, bad);
        }
        splitc::barrier();
      }
    }
    // Under rendezvous, the owner answers a bulk_get's long fragments from its
    // memory in place (zero copy): its handler lends the source instead of
    // waiting for the requester to receive it. Every processor answers its peers.
    if (protocol == mpi::long_protocol::rendezvous && P > 1 && !mpitest::messages_on_rings())
      CHECK_MSG(b.stats().sends_lent > lent_before,
                "rendezvous: no bulk_get reply was sent from a lent source");
  }
  b.tune() = saved;

  // Single values: int and a 48-byte record (over the 40-byte inline limit).
  for (int k = 0; k < P; ++k) {
    const int q = (me + k) % P;
    splitc::write(splitc::toglobal(q, &static_ints[me]), 1000 * me + q);
    record r{};
    for (int i = 0; i < 6; ++i) r.a[i] = static_cast<std::uint64_t>(me * 100 + q * 10 + i);
    splitc::put(splitc::toglobal(q, &static_records[me]), r);
  }
  splitc::sync();
  splitc::barrier();
  for (int s = 0; s < P; ++s) {
    CHECK(static_ints[s] == 1000 * s + me);
    CHECK(static_records[s].a[5] == static_cast<std::uint64_t>(s * 100 + me * 10 + 5));
    const int seen = splitc::read(splitc::toglobal(s, &static_ints[me]));
    CHECK_MSG(seen == 1000 * me + s, "read {} from {}", seen, s);
    record got{};
    splitc::get(&got, splitc::toglobal(s, &static_records[me]));
    splitc::sync();
    CHECK(got.a[0] == static_cast<std::uint64_t>(me * 100 + s * 10));
  }
  splitc::barrier();

  // Back-pressure: everyone hammers processor 0 with gets and puts without
  // waiting, then everyone stores to everyone.
  auto* words = reinterpret_cast<std::uint64_t*>(seg + area * (1 + 2 * static_cast<std::size_t>(P)));
  CHECK(splitc::my_segment().size >= area * (2 + 2 * static_cast<std::size_t>(P)));
  constexpr int many = 3000;
  for (int i = 0; i < many; ++i) words[i] = static_cast<std::uint64_t>(i) * 3 + 1;
  splitc::barrier();
  std::vector<std::uint64_t> got(many);
  for (int i = 0; i < many; ++i) splitc::get(&got[i], splitc::toglobal(0, &words[i]));
  splitc::sync();
  for (int i = 0; i < many; ++i) CHECK(got[i] == static_cast<std::uint64_t>(i) * 3 + 1);
  splitc::barrier();
  auto* slots = words + many;  // [sender][i]
  for (int i = 0; i < 500; ++i)
    splitc::put(splitc::toglobal(0, &slots[me * 500 + i]), static_cast<std::uint64_t>(me * 7 + i));
  splitc::sync();
  splitc::barrier();
  if (me == 0)
    for (int s = 0; s < P; ++s)
      for (int i = 0; i < 500; ++i) CHECK(slots[s * 500 + i] == static_cast<std::uint64_t>(s * 7 + i));
  splitc::barrier();
  for (int i = 0; i < 400; ++i)
    for (int k = 0; k < P; ++k)
      splitc::store(splitc::toglobal(k, &slots[me * 400 + i]), static_cast<std::uint64_t>(me + i));
  splitc::all_store_sync();
  for (int s = 0; s < P; ++s)
    for (int i = 0; i < 400; ++i) CHECK(slots[s * 400 + i] == static_cast<std::uint64_t>(s + i));
  splitc::barrier();

  // Collectives over active messages.
  const long sum = splitc::reduce_to_all(static_cast<long>(me + 1), splitc::ops::add{});
  CHECK(sum == static_cast<long>(P) * (P + 1) / 2);
  std::vector<double> vec(20000);
  if (me == P - 1) std::iota(vec.begin(), vec.end(), 0.5);
  splitc::broadcast(std::span<double>(vec), P - 1);
  CHECK(vec[19999] == 19999.5);
  const long prefix = splitc::scan(static_cast<long>(me + 1), splitc::ops::add{});
  CHECK(prefix == static_cast<long>(me + 1) * (me + 2) / 2);
  std::vector<long> many_sums(5000, me);
  splitc::reduce_to_all(std::span<long>(many_sums), splitc::ops::add{});
  CHECK(many_sums[4999] == static_cast<long>(P) * (P - 1) / 2);

  return mpitest::pass("mpi_memory");
}
