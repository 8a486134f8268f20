// A job of one: identity, segment, barrier/poll, spread pointers, active messages to itself.
#include "value_types.hpp"

#include <splitc/splitc.hpp>
#include <splitc/wait.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace {

TEST(JobOfOne, Identity) {
  EXPECT_TRUE(splitc::initialized());
  EXPECT_EQ(splitc::myproc(), 0);
  EXPECT_EQ(splitc::procs(), 1);
  EXPECT_EQ(std::string_view(splitc::backend_name()), "smp");
}

TEST(JobOfOne, SegmentIsPageAlignedWritableAndOfTheConfiguredSize) {
  const splitc::segment_info seg = splitc::my_segment();
  ASSERT_NE(seg.base, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(seg.base) % 4096, 0u);
  EXPECT_GT(seg.size, std::size_t{1} << 20);
  if (std::getenv("SPLITC_SEGMENT_SIZE") == nullptr && std::getenv("SPLITC_SEGMENT_BASE") == nullptr) {
    // Defaults (splitc-run --help): 1 GiB per processor at 0x100000000000; the runtime's part
    // is at the start, so the program's part ends where the segment does.
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(seg.base) + seg.size,
              std::uintptr_t{0x100000000000} + (std::uintptr_t{1} << 30));
    EXPECT_LT(seg.size, std::size_t{1} << 30);
  }
  auto* bytes = static_cast<unsigned char*>(seg.base);
  bytes[0] = 1;
  bytes[seg.size - 1] = 2;
  EXPECT_EQ(splitc::read(splitc::toglobal(0, &bytes[seg.size - 1])), 2);
  EXPECT_EQ(splitc::my_segment().base, seg.base) << "stable across calls";
}

TEST(JobOfOne, BarrierAndPollReturn) {
  for (int i = 0; i < 100; ++i) {
    splitc::barrier();
    splitc::poll();
  }
  splitc::sync();
  EXPECT_TRUE(splitc::is_sync());
  splitc::all_store_sync();
}

// splitc::wait_until calls the caller's condition, never a copy of it: a condition with state
// is seen by its owner, and a wait the compiler keeps out of line copies nothing at its calls.
TEST(JobOfOne, WaitUntilCallsTheCallersConditionNotACopy) {
  struct counting_condition {
    int* copies;
    int until;
    int calls = 0;
    counting_condition(int* c, int u) : copies(c), until(u) {}
    counting_condition(const counting_condition& o)
        : copies(o.copies), until(o.until), calls(o.calls) {
      ++*copies;
    }
    counting_condition(counting_condition&& o) noexcept
        : copies(o.copies), until(o.until), calls(o.calls) {
      ++*copies;
    }
    bool operator()() { return ++calls >= until; }
  };
  int copies = 0;
  counting_condition done(&copies, 5);
  splitc::wait_until("the test's condition", done);
  EXPECT_EQ(done.calls, 5) << "the caller's own object is the one called";
  splitc::wait_until("a temporary condition", counting_condition(&copies, 3));
  EXPECT_EQ(copies, 0);
}

TEST(JobOfOne, SpreadPointerOperatorsUseProcs) {
  int a[16] = {};
  splitc::spread_ptr<int> s(0, &a[4]);
  EXPECT_EQ((s + 5).local(), &a[9]);
  EXPECT_EQ((s + 5).proc(), 0);
  EXPECT_EQ((s - 4).local(), &a[0]);
  EXPECT_EQ((s + 7) - s, 7);
  auto t = s;
  ++t;
  t += 2;
  t--;
  EXPECT_EQ(t.local(), &a[6]);
  t -= 2;
  EXPECT_EQ(t, s);
  s[3] = 33;  // writes through global memory
  EXPECT_EQ(a[7], 33);
  *s = 44;
  EXPECT_EQ(a[4], 44);
  EXPECT_EQ(static_cast<int>(s[3]), 33);
}

// ---- active messages to oneself -------------------------------------------------------

struct am_state {
  int short_requests = 0;
  int short_replies = 0;
  std::uint64_t reply_sum = 0;
  int medium_requests = 0;
  int medium_replies = 0;
  int long_requests = 0;
  int errors = 0;
};
am_state g;

splitc::handler_id h_short, h_short_reply, h_medium, h_medium_reply, h_long;

std::uint64_t arg_word(int nargs, int k) { return 0x1000u * nargs + k + 1; }

void on_short(const splitc::am_message& m) {
  ++g.short_requests;
  if (!m.is_request || m.source != 0 || m.kind != splitc::am_kind::short_msg) ++g.errors;
  std::uint64_t sum = 0;
  for (int k = 0; k < m.nargs; ++k) {
    if (m.args[k] != arg_word(m.nargs, k)) ++g.errors;
    sum += m.args[k];
  }
  splitc::am_reply(m, h_short_reply, sum, static_cast<std::uint64_t>(m.nargs));
}
void on_short_reply(const splitc::am_message& m) {
  ++g.short_replies;
  if (m.is_request || m.nargs != 2) ++g.errors;
  g.reply_sum += m.args[0];
}
void on_medium(const splitc::am_message& m) {
  ++g.medium_requests;
  if (m.kind != splitc::am_kind::medium_msg || m.nargs != 1) ++g.errors;
  if (testvals::check_pattern(m.payload, m.length, m.args[0]) != m.length) ++g.errors;
  // Reply with the same payload, half as long.
  splitc::am_reply_medium(m, h_medium_reply, m.payload, m.length / 2, m.args[0], m.length / 2);
}
void on_medium_reply(const splitc::am_message& m) {
  ++g.medium_replies;
  if (m.is_request || m.kind != splitc::am_kind::medium_msg || m.length != m.args[1]) ++g.errors;
  if (testvals::check_pattern(m.payload, m.length, m.args[0]) != m.length) ++g.errors;
}
void on_long(const splitc::am_message& m) {
  ++g.long_requests;
  if (m.kind != splitc::am_kind::long_msg || m.nargs != 2) ++g.errors;
  if (reinterpret_cast<std::uintptr_t>(m.payload) != m.args[1]) ++g.errors;
  if (testvals::check_pattern(m.payload, m.length, m.args[0]) != m.length) ++g.errors;
}

void register_once() {
  static bool done = false;
  if (done) return;
  done = true;
  h_short = splitc::register_handler(on_short);
  h_short_reply = splitc::register_handler(on_short_reply);
  h_medium = splitc::register_handler(on_medium);
  h_medium_reply = splitc::register_handler(on_medium_reply);
  h_long = splitc::register_handler(on_long);
}

template <std::size_t... K>
void send_short(std::index_sequence<K...>) {
  splitc::am_request(0, h_short, arg_word(static_cast<int>(sizeof...(K)), K)...);
}

template <class Done>
void poll_until(Done done) {
  while (!done()) splitc::poll();
}

TEST(JobOfOneAm, HandlersGetDistinctIds) {
  register_once();
  EXPECT_NE(h_short, h_short_reply);
  EXPECT_NE(h_medium, h_long);
}

TEST(JobOfOneAm, ShortRequestsWithZeroToEightArgumentsAndReplies) {
  register_once();
  g = {};
  send_short(std::make_index_sequence<0>{});
  send_short(std::make_index_sequence<1>{});
  send_short(std::make_index_sequence<2>{});
  send_short(std::make_index_sequence<3>{});
  send_short(std::make_index_sequence<4>{});
  send_short(std::make_index_sequence<5>{});
  send_short(std::make_index_sequence<6>{});
  send_short(std::make_index_sequence<7>{});
  send_short(std::make_index_sequence<8>{});
  poll_until([] { return g.short_replies == 9; });
  EXPECT_EQ(g.short_requests, 9);
  std::uint64_t expect = 0;
  for (int n = 0; n <= 8; ++n)
    for (int k = 0; k < n; ++k) expect += arg_word(n, k);
  EXPECT_EQ(g.reply_sum, expect);
  EXPECT_EQ(g.errors, 0);
}

TEST(JobOfOneAm, MediumRequestsAndRepliesUpToTheLimit) {
  register_once();
  g = {};
  const std::size_t max = splitc::active_backend::caps.max_medium;
  std::vector<unsigned char> buf(max);
  const std::size_t sizes[] = {0, 1, 7, 100, 4096, max - 1, max};
  for (std::size_t len : sizes) {
    testvals::fill_pattern(buf.data(), len, 77 + len);
    splitc::am_request_medium(0, h_medium, buf.data(), len, std::uint64_t{77 + len});
  }
  poll_until([&] { return g.medium_replies == static_cast<int>(std::size(sizes)); });
  EXPECT_EQ(g.medium_requests, static_cast<int>(std::size(sizes)));
  EXPECT_EQ(g.errors, 0);
}

TEST(JobOfOneAm, LongRequestsToTheSpreadHeapAndToMalloc) {
  register_once();
  g = {};
  const std::size_t max = splitc::active_backend::caps.max_long;
  std::vector<unsigned char> src(max);
  auto* heap = static_cast<unsigned char*>(splitc::my_segment().base) + 64;
  auto* mem = static_cast<unsigned char*>(std::malloc(max + 64));
  const std::size_t sizes[] = {0, 1, 41, 1000, max - 1, max};
  int sent = 0;
  for (unsigned char* dst : {heap, mem + 3}) {
    for (std::size_t len : sizes) {
      const std::uint64_t seed = 1000 + len + (dst == heap);
      testvals::fill_pattern(src.data(), len, seed);
      splitc::am_request_long(0, h_long, src.data(), len, dst, seed,
                              reinterpret_cast<std::uintptr_t>(dst));
      ++sent;
      poll_until([&] { return g.long_requests == sent; });
      EXPECT_EQ(testvals::check_pattern(dst, len, seed), len);
    }
  }
  EXPECT_EQ(g.errors, 0);
  std::free(mem);
}

}  // namespace
