// One bulk_put and one bulk_get of 256 MiB through the neighbour's spread heap (P=2).
// Usage: bulk_huge [MIB]: the transfer size in MiB (default 256; the default suite runs 128,
// still twice the largest limit inside any backend: tests/programs/generic.cmake).
#include "harness.hpp"
#include "value_types.hpp"

#include <cstdint>
#include <cstdlib>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::size_t kLen =
      (argc > 1 ? std::size_t{std::strtoull(argv[1], nullptr, 10)} : std::size_t{256}) << 20;
  CHECK_MSG(kLen >= (std::size_t{128} << 20), "bulk_huge: {} bytes is not huge", kLen);
  const int me = splitc::myproc(), P = splitc::procs();
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  CHECK_MSG(harness::heap_size() >= 2 * kLen + 64, "the segment is too small: {} bytes",
            harness::heap_size());
  unsigned char* heap_a = harness::heap();
  unsigned char* heap_b = heap_a + kLen + 64;
  auto* buf = static_cast<unsigned char*>(std::malloc(kLen + 64));
  CHECK(buf != nullptr);

  testvals::fill_pattern(buf + 1, kLen, 1000 + me);
  testvals::fill_pattern(heap_b, kLen, 2000 + me);
  splitc::bulk_put(splitc::toglobal<void>(right, heap_a), buf + 1, kLen);
  splitc::sync();
  splitc::barrier();
  std::size_t bad = testvals::check_pattern(heap_a, kLen, 1000 + left);
  CHECK_MSG(bad == kLen, "{}-byte bulk_put: wrong from byte {}", kLen, bad);

  splitc::bulk_get(buf + 3, splitc::toglobal<void>(left, heap_b), kLen);
  splitc::sync();
  bad = testvals::check_pattern(buf + 3, kLen, 2000 + left);
  CHECK_MSG(bad == kLen, "{}-byte bulk_get: wrong from byte {}", kLen, bad);
  splitc::barrier();
  std::free(buf);
  return harness::pass("bulk_huge");
}
