// A job of one: every count and length argument of the C interface (splitc.h)
// and of the C++ completion calls is checked, and each error names the call
// the program made and the bad value (not an inner operation's name).
#include <splitc.h>
#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

namespace {

using ::testing::ExitedWithCode;

constexpr int kStatus = splitc::error_exit_status;
long long g_x[2] = {};  // room for every type the families move
Counter g_rbytes;  // a store counter: static, so at the same address everywhere

__globPtrType on(int proc) { return toglobal(proc, g_x); }

void procedure(int*, long, long) {}

TEST(CErrorsDeathTest, OutOfRangeNamesTheInlineCall) {
  EXPECT_EXIT(__i_read(on(2)), ExitedWithCode(kStatus),
              "processor 0 of 1: __i_read: processor number 2 is out of range");
  EXPECT_EXIT(__d_write(on(1), 1.0), ExitedWithCode(kStatus),
              "__d_write: processor number 1 is out of range");
  char ch;
  EXPECT_EXIT(__c_get(&ch, on(3)), ExitedWithCode(kStatus),
              "__c_get: processor number 3 is out of range");
  EXPECT_EXIT(__ll_put(on(-1), 5), ExitedWithCode(kStatus),
              "__ll_put: processor number -1 is out of range");
  EXPECT_EXIT(__sh_store(on(4), 1), ExitedWithCode(kStatus),
              "__sh_store: processor number 4 is out of range");
  Counter ctr = SPLITC_COUNTER_INIT;
  float f;
  EXPECT_EXIT(__f_get_ctr(&f, on(1), &ctr), ExitedWithCode(kStatus),
              "__f_get_ctr: processor number 1 is out of range");
  EXPECT_EXIT(__i_put_ctr(on(1), 1, &ctr), ExitedWithCode(kStatus),
              "__i_put_ctr: processor number 1 is out of range");
  Counter sbytes = SPLITC_COUNTER_INIT;
  EXPECT_EXIT(__i_store_ctr(on(1), 1, &g_rbytes, &sbytes), ExitedWithCode(kStatus),
              "__i_store_ctr: processor number 1 is out of range");
}

TEST(CErrorsDeathTest, NullNamesTheInlineCall) {
  EXPECT_EXIT(__i_read(toglobal(0, nullptr)), ExitedWithCode(kStatus),
              "__i_read: null global pointer");
}

TEST(CErrorsDeathTest, OutOfLinePathsNameTheirCaller) {
  int v;
  EXPECT_EXIT(splitc_read_bytes(&v, on(1), sizeof v, "my_read"), ExitedWithCode(kStatus),
              "my_read: processor number 1 is out of range");
  EXPECT_EXIT(splitc_get_bytes(&v, on(1), sizeof v, nullptr, nullptr), ExitedWithCode(kStatus),
              "splitc_get_bytes: processor number 1 is out of range");
  EXPECT_EXIT(splitc_put_bytes(on(0), &v, static_cast<size_t>(-8), nullptr, "my_put"),
              ExitedWithCode(kStatus), "my_put: impossible length -8 bytes");
}

TEST(CErrorsDeathTest, BulkCallsNameThemselves) {
  std::vector<char> buf(64);
  const __globPtrType g = toglobal(0, buf.data());
  Counter ctr = SPLITC_COUNTER_INIT;
  Counter sbytes = SPLITC_COUNTER_INIT;
  EXPECT_EXIT(bulk_read(buf.data(), g, -1), ExitedWithCode(kStatus),
              "bulk_read: impossible length -1 bytes");
  EXPECT_EXIT(bulk_write(g, buf.data(), -2), ExitedWithCode(kStatus),
              "bulk_write: impossible length -2 bytes");
  EXPECT_EXIT(bulk_get(buf.data(), g, -3), ExitedWithCode(kStatus),
              "bulk_get: impossible length -3 bytes");
  EXPECT_EXIT(bulk_put(g, buf.data(), -4), ExitedWithCode(kStatus),
              "bulk_put: impossible length -4 bytes");
  EXPECT_EXIT(bulk_store(g, buf.data(), -5), ExitedWithCode(kStatus),
              "bulk_store: impossible length -5 bytes");
  EXPECT_EXIT(bulk_get_ctr(buf.data(), g, -6, &ctr), ExitedWithCode(kStatus),
              "bulk_get_ctr: impossible length -6 bytes");
  EXPECT_EXIT(bulk_put_ctr(g, buf.data(), -7, &ctr), ExitedWithCode(kStatus),
              "bulk_put_ctr: impossible length -7 bytes");
  EXPECT_EXIT(bulk_store_ctr(g, buf.data(), -8, &g_rbytes, &sbytes), ExitedWithCode(kStatus),
              "bulk_store_ctr: impossible length -8 bytes");
  EXPECT_EXIT(bulk_get_ctr(buf.data(), toglobal(1, buf.data()), 4, &ctr), ExitedWithCode(kStatus),
              "bulk_get_ctr: processor number 1 is out of range");
  EXPECT_EXIT(bulk_store_ctr(toglobal(2, buf.data()), buf.data(), 4, &g_rbytes, &sbytes),
              ExitedWithCode(kStatus), "bulk_store_ctr: processor number 2 is out of range");
}

TEST(CErrorsDeathTest, NegativeStoreSyncCounts) {
  Counter sbytes = SPLITC_COUNTER_INIT;
  EXPECT_EXIT(store_sync(-4), ExitedWithCode(kStatus), "store_sync: negative byte count -4");
  EXPECT_EXIT(is_store_sync(-1), ExitedWithCode(kStatus), "is_store_sync: negative byte count -1");
  EXPECT_EXIT(store_sync_ctr(-4, &g_rbytes, &g_rbytes), ExitedWithCode(kStatus),
              "store_sync_ctr: negative byte count -4");
  EXPECT_EXIT(is_store_sync_ctr(-2, &g_rbytes, &sbytes), ExitedWithCode(kStatus),
              "is_store_sync_ctr: negative byte count -2");
}

TEST(CErrorsDeathTest, CxxStoreSyncRejectsNegativeCounts) {
  splitc::counter received, sent;
  EXPECT_EXIT(splitc::store_sync(-4), ExitedWithCode(kStatus),
              "store_sync: negative byte count -4");
  EXPECT_EXIT(splitc::is_store_sync(-9), ExitedWithCode(kStatus),
              "is_store_sync: negative byte count -9");
  EXPECT_EXIT(splitc::store_sync(-1, received, sent), ExitedWithCode(kStatus),
              "store_sync: negative byte count -1");
  EXPECT_EXIT(static_cast<void>(splitc::is_store_sync(-3, received, sent)),
              ExitedWithCode(kStatus), "is_store_sync: negative byte count -3");
}

TEST(CErrorsDeathTest, NegativeHeapCounts) {
  EXPECT_EXIT(all_spread_malloc(-1, 8), ExitedWithCode(kStatus),
              "all_spread_malloc: negative count -1");
  EXPECT_EXIT(all_spread_malloc(4, -8), ExitedWithCode(kStatus),
              "all_spread_malloc: negative object size -8");
  EXPECT_EXIT(spread_malloc(-2, 8), ExitedWithCode(kStatus), "spread_malloc: negative count -2");
  EXPECT_EXIT(spread_malloc(2, -1), ExitedWithCode(kStatus),
              "spread_malloc: negative object size -1");
}

TEST(CErrorsDeathTest, AtomicProcedureArgumentCounts) {
  // What a compiler calling splitc_atomic_call* directly could pass (the
  // atomic macros stop such calls at compile time).
  const auto fn = reinterpret_cast<splitc_atomic_fn>(&procedure);
  EXPECT_EXIT(splitc_atomic_call(fn, on(0), 9), ExitedWithCode(kStatus),
              "atomic: 9 arguments after the global pointer; it takes 0 to 4");
  EXPECT_EXIT(splitc_atomic_call_i(fn, on(0), -1), ExitedWithCode(kStatus),
              "atomic_i: -1 arguments after the global pointer");
  EXPECT_EXIT(splitc_atomic_call_d(fn, on(0), 5, 1L, 2L, 3L, 4L, 5L), ExitedWithCode(kStatus),
              "atomic_d: 5 arguments");
  EXPECT_EXIT(splitc_atomic_call_i(fn, on(3), 2, 1L, 2L), ExitedWithCode(kStatus),
              "atomic_i: processor number 3 is out of range");
}

TEST(CErrorsDeathTest, SpreadDifferenceOfZeroSizedElements) {
  EXPECT_EXIT(splitc_spread_diff(on(0), on(0), 0), ExitedWithCode(kStatus),
              "splitc_spread_diff: element size 0");
}

}  // namespace
