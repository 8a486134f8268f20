// A job of one: every bulk operation on local memory of every kind, size and alignment.
#include "value_types.hpp"

#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace {

using testvals::check_pattern;
using testvals::fill_pattern;

constexpr std::size_t kSizes[] = {0, 1, 7, 40, 41, 1023, 131071, 131072, 131073};
constexpr std::size_t kLargest = 131073;
constexpr std::size_t kSlack = 16;  // offsets plus guard bytes on each side
constexpr std::size_t kArea = kLargest + 2 * kSlack;
constexpr unsigned char kGuard = 0xa5;
// (source offset, destination offset): aligned, and unaligned both ways.
constexpr std::pair<std::size_t, std::size_t> kOffsets[] = {
    {kSlack, kSlack}, {kSlack + 3, kSlack - 5}, {kSlack - 1, kSlack + 7}};

enum class op { read, write, get, get_ctr, put, put_ctr, store, store_ctr };
const char* name(op o) {
  static const char* names[] = {"bulk_read", "bulk_write", "bulk_get",   "bulk_get(ctr)",
                                "bulk_put",  "bulk_put(ctr)", "bulk_store", "bulk_store(ctr)"};
  return names[static_cast<int>(o)];
}

splitc::counter g_received;
splitc::counter g_sent;
unsigned char g_static_src[kArea];
unsigned char g_static_dst[kArea];

/// Move `len` bytes from src+so to dst+do_ with operation `o`, all on processor 0, and check
/// the destination and the guard bytes around it.
void transfer_and_check(op o, unsigned char* src, unsigned char* dst, std::size_t len,
                        std::size_t so, std::size_t do_, std::uint64_t seed) {
  SCOPED_TRACE(std::string(name(o)) + " len " + std::to_string(len) + " src+" +
               std::to_string(so) + " dst+" + std::to_string(do_));
  std::memset(dst, kGuard, kArea);
  fill_pattern(src + so, len, seed);
  const auto g_src = splitc::toglobal<void>(0, src + so);
  const auto g_dst = splitc::toglobal<void>(0, dst + do_);
  splitc::counter ctr;
  switch (o) {
    case op::read: splitc::bulk_read(dst + do_, g_src, len); break;
    case op::write: splitc::bulk_write(g_dst, src + so, len); break;
    case op::get:
      splitc::bulk_get(dst + do_, g_src, len);
      splitc::sync();
      break;
    case op::get_ctr:
      splitc::bulk_get(dst + do_, g_src, len, ctr);
      splitc::sync_ctr(ctr);
      break;
    case op::put:
      splitc::bulk_put(g_dst, src + so, len);
      splitc::sync();
      break;
    case op::put_ctr:
      splitc::bulk_put(g_dst, src + so, len, ctr);
      splitc::sync_ctr(ctr);
      break;
    case op::store:
      splitc::bulk_store(g_dst, src + so, len);
      splitc::store_sync(static_cast<std::int64_t>(len));
      EXPECT_FALSE(splitc::is_store_sync(1));
      break;
    case op::store_ctr:
      splitc::bulk_store(g_dst, src + so, len, g_received, g_sent);
      splitc::store_sync(static_cast<std::int64_t>(len), g_received, g_sent);
      EXPECT_FALSE(splitc::is_store_sync(1, g_received, g_sent));
      break;
  }
  EXPECT_EQ(check_pattern(dst + do_, len, seed), len) << "first wrong byte";
  for (std::size_t i = 0; i < do_; ++i) ASSERT_EQ(dst[i], kGuard) << "before, byte " << i;
  for (std::size_t i = do_ + len; i < kArea; ++i) ASSERT_EQ(dst[i], kGuard) << "after, byte " << i;
}

void all_cases(unsigned char* src, unsigned char* dst) {
  std::uint64_t seed = 1;
  for (op o : {op::read, op::write, op::get, op::get_ctr, op::put, op::put_ctr, op::store,
               op::store_ctr})
    for (std::size_t len : kSizes)
      for (const auto& [so, do_] : kOffsets) transfer_and_check(o, src, dst, len, so, do_, seed++);
}

TEST(LocalBulk, SpreadHeapToSpreadHeap) {
  auto* base = static_cast<unsigned char*>(splitc::my_segment().base);
  all_cases(base, base + kArea);
}

TEST(LocalBulk, StackToStack) {
  alignas(64) unsigned char src[kArea];
  alignas(64) unsigned char dst[kArea];
  all_cases(src, dst);
}

TEST(LocalBulk, StaticToStatic) { all_cases(g_static_src, g_static_dst); }

TEST(LocalBulk, MallocToMalloc) {
  auto* src = static_cast<unsigned char*>(std::malloc(kArea));
  auto* dst = static_cast<unsigned char*>(std::malloc(kArea));
  all_cases(src, dst);
  std::free(src);
  std::free(dst);
}

TEST(LocalBulk, MallocToSpreadHeapAndBack) {
  auto* heap = static_cast<unsigned char*>(splitc::my_segment().base);
  auto* mem = static_cast<unsigned char*>(std::malloc(kArea));
  all_cases(mem, heap);
  all_cases(heap, mem);
  std::free(mem);
}

TEST(LocalBulk, ZeroLengthTouchesNothing) {
  unsigned char buf[8];
  std::memset(buf, kGuard, sizeof buf);
  const auto g = splitc::toglobal<void>(0, buf);
  splitc::bulk_put(g, buf + 1, 0);
  splitc::bulk_get(buf + 1, g, 0);
  splitc::bulk_write(g, buf + 1, 0);
  splitc::bulk_read(buf + 1, g, 0);
  splitc::bulk_store(g, buf + 1, 0);
  splitc::sync();
  splitc::store_sync(0);
  for (unsigned char b : buf) EXPECT_EQ(b, kGuard);
}

}  // namespace
