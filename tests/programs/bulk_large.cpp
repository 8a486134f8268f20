// 64 MiB bulk put/get/store/read/write between neighbours, spread heap and malloc memory.
// Usage: bulk_large [MIB]: the transfer size in MiB (default 64; smaller on slower backends,
// still many times their largest long message).
#include "harness.hpp"
#include "value_types.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

std::size_t kLen = std::size_t{64} << 20;
std::size_t kRegion = kLen + 4096;

std::uint64_t seed(int step, int proc, int part) {
  return (static_cast<std::uint64_t>(step) * 64 + proc) * 8 + part + 0x1234;
}

void expect(const unsigned char* p, std::size_t len, std::uint64_t s, const char* what) {
  const std::size_t bad = check_pattern(p, len, s);
  CHECK_MSG(bad == len, "{}: {} bytes, wrong from byte {}", what, len, bad);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (argc > 1) {
    kLen = std::size_t{std::strtoull(argv[1], nullptr, 10)} << 20;
    kRegion = kLen + 4096;
  }
  CHECK(kLen >= (std::size_t{1} << 20));
  const int me = splitc::myproc(), P = splitc::procs();
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  CHECK(harness::heap_size() >= 2 * kRegion);
  // Spread heap: [A][B]; malloc memory: [M1][M2]; plus a private source buffer.
  unsigned char* heap_a = harness::heap();
  unsigned char* heap_b = heap_a + kRegion;
  auto* mem = static_cast<unsigned char*>(std::malloc(2 * kRegion));
  auto* src = static_cast<unsigned char*>(std::malloc(kRegion));
  CHECK(mem != nullptr && src != nullptr);
  const auto mems = harness::exchange(mem);
  unsigned char* right_m1 = mems[right];
  unsigned char* left_m2 = mems[left] + kRegion;

  // 1. bulk_put to the right neighbour: into its spread heap (aligned) and its malloc memory
  //    (destination offset 3, source offset 1).
  fill_pattern(src, kLen, seed(1, me, 0));
  splitc::bulk_put(splitc::toglobal<void>(right, heap_a), src, kLen);
  fill_pattern(src + 1, kLen, seed(1, me, 1));
  splitc::counter ctr;
  splitc::bulk_put(splitc::toglobal<void>(right, right_m1 + 3), src + 1, kLen, ctr);
  splitc::sync();
  splitc::sync_ctr(ctr);
  splitc::barrier();
  expect(heap_a, kLen, seed(1, left, 0), "bulk_put into the spread heap");
  expect(mem + 3, kLen, seed(1, left, 1), "bulk_put(ctr) into malloc memory");
  splitc::barrier();

  // 2. bulk_get from the left neighbour: its spread heap into our malloc memory, and its malloc
  //    memory into our spread heap (replies deposited directly) and into malloc memory.
  fill_pattern(heap_b, kLen, seed(2, me, 0));
  fill_pattern(mem + kRegion + 5, kLen, seed(2, me, 1));
  splitc::barrier();
  splitc::bulk_get(mem + 7, splitc::toglobal<void>(left, heap_b), kLen);
  splitc::bulk_get(heap_a + 1, splitc::toglobal<void>(left, left_m2 + 5), kLen, ctr);
  splitc::sync();
  expect(mem + 7, kLen, seed(2, left, 0), "bulk_get from the spread heap");
  splitc::sync_ctr(ctr);
  expect(heap_a + 1, kLen, seed(2, left, 1), "bulk_get(ctr) from malloc memory into the heap");
  splitc::bulk_read(src + 2, splitc::toglobal<void>(left, left_m2 + 5), kLen);
  expect(src + 2, kLen, seed(2, left, 1), "bulk_read from malloc memory into malloc memory");
  splitc::barrier();

  // 3. bulk_store to the right neighbour, heap and malloc memory; its store_sync sees both.
  fill_pattern(src, kLen, seed(3, me, 0));
  splitc::bulk_store(splitc::toglobal<void>(right, heap_a + 9), src, kLen);
  splitc::bulk_store(splitc::toglobal<void>(right, right_m1), src, kLen);
  splitc::store_sync(static_cast<std::int64_t>(2 * kLen));
  expect(heap_a + 9, kLen, seed(3, left, 0), "bulk_store into the spread heap");
  expect(mem, kLen, seed(3, left, 0), "bulk_store into malloc memory");
  splitc::barrier();

  // 4. bulk_write into the right neighbour's malloc memory, unaligned.
  fill_pattern(src + 5, kLen - 11, seed(4, me, 0));
  splitc::bulk_write(splitc::toglobal<void>(right, right_m1 + 11), src + 5, kLen - 11);
  splitc::barrier();
  expect(mem + 11, kLen - 11, seed(4, left, 0), "bulk_write into malloc memory");
  splitc::barrier();

  std::free(src);
  std::free(mem);
  return harness::pass("bulk_large");
}
