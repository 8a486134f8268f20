// A job of one: each misuse exits with status 70 and a message naming processor and cause.
#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

using ::testing::ExitedWithCode;

constexpr int kStatus = splitc::error_exit_status;
int g_x = 0;

TEST(ErrorsDeathTest, ExitStatusIsSeventy) { EXPECT_EQ(kStatus, 70); }

TEST(ErrorsDeathTest, ProcessorOutOfRange) {
  EXPECT_EXIT(splitc::read(splitc::toglobal(5, &g_x)), ExitedWithCode(kStatus),
              "processor 0 of 1: read: processor number 5 is out of range");
  EXPECT_EXIT(splitc::write(splitc::toglobal(1, &g_x), 1), ExitedWithCode(kStatus),
              "write: processor number 1 is out of range");
  EXPECT_EXIT(splitc::put(splitc::toglobal(-1, &g_x), 1), ExitedWithCode(kStatus),
              "put: processor number -1 is out of range");
  int v;
  EXPECT_EXIT(splitc::get(&v, splitc::toglobal(2, &g_x)), ExitedWithCode(kStatus),
              "get: processor number 2 is out of range");
  EXPECT_EXIT(splitc::store(splitc::toglobal(3, &g_x), 1), ExitedWithCode(kStatus),
              "store: processor number 3 is out of range");
  EXPECT_EXIT(splitc::bulk_get(&v, splitc::toglobal<void>(4, &g_x), 4), ExitedWithCode(kStatus),
              "bulk_get: processor number 4 is out of range");
}

TEST(ErrorsDeathTest, NullGlobalPointer) {
  const splitc::global_ptr<int> null;
  int v;
  EXPECT_EXIT(splitc::read(null), ExitedWithCode(kStatus), "read: null global pointer");
  EXPECT_EXIT(splitc::write(null, 1), ExitedWithCode(kStatus), "write: null global pointer");
  EXPECT_EXIT(splitc::get(&v, null), ExitedWithCode(kStatus), "get: null global pointer");
  EXPECT_EXIT(splitc::put(null, 1), ExitedWithCode(kStatus), "put: null global pointer");
  EXPECT_EXIT(splitc::store(null, 1), ExitedWithCode(kStatus), "store: null global pointer");
  EXPECT_EXIT(splitc::bulk_put(splitc::global_ptr<void>(null), &v, 4), ExitedWithCode(kStatus),
              "bulk_put: null global pointer");
  EXPECT_EXIT(static_cast<void>(static_cast<int>(*null)), ExitedWithCode(kStatus),
              "null global pointer");
}

TEST(ErrorsDeathTest, ImpossibleLength) {
  std::vector<unsigned char> buf(16);
  const auto g = splitc::toglobal<void>(0, buf.data());
  EXPECT_EXIT(splitc::bulk_get(buf.data(), g, static_cast<std::size_t>(-1)),
              ExitedWithCode(kStatus), "bulk_get: impossible length -1 bytes");
  EXPECT_EXIT(splitc::bulk_put(g, buf.data(), static_cast<std::size_t>(-16)),
              ExitedWithCode(kStatus), "bulk_put: impossible length -16 bytes");
  EXPECT_EXIT(splitc::bulk_store(g, buf.data(), splitc::max_bulk_length + 1),
              ExitedWithCode(kStatus), "bulk_store: impossible length");
  EXPECT_EXIT(splitc::bulk_read(buf.data(), g, static_cast<std::size_t>(-1)),
              ExitedWithCode(kStatus), "bulk_read: impossible length");
  EXPECT_EXIT(splitc::bulk_write(g, buf.data(), static_cast<std::size_t>(-1)),
              ExitedWithCode(kStatus), "bulk_write: impossible length");
}

TEST(ErrorsDeathTest, InitTwice) {
  int argc = 1;
  char name[] = "errors_test";
  char* args[] = {name, nullptr};
  char** argv = args;
  EXPECT_EXIT(splitc::init(argc, argv), ExitedWithCode(kStatus), "init called twice");
}

// ---- handler rules --------------------------------------------------------------------

splitc::handler_id h_reply_twice, h_reply_sends, h_empty_reply, h_barrier, h_poll, h_request_sends;

void on_reply_twice(const splitc::am_message& m) {
  splitc::am_reply(m, h_empty_reply);
  splitc::am_reply(m, h_empty_reply);
}
void on_empty_reply(const splitc::am_message&) {}
void on_reply_then_send_reply(const splitc::am_message& m) { splitc::am_reply(m, h_reply_sends); }
void on_reply_sends(const splitc::am_message& m) {
  if (!m.is_request) splitc::am_request(0, h_empty_reply);
}
void on_barrier(const splitc::am_message&) { splitc::barrier(); }
void on_poll(const splitc::am_message&) { splitc::poll(); }

void register_all() {
  static bool done = false;
  if (done) return;
  done = true;
  h_reply_twice = splitc::register_handler(on_reply_twice);
  h_empty_reply = splitc::register_handler(on_empty_reply);
  h_request_sends = splitc::register_handler(on_reply_then_send_reply);
  h_reply_sends = splitc::register_handler(on_reply_sends);
  h_barrier = splitc::register_handler(on_barrier);
  h_poll = splitc::register_handler(on_poll);
}

void run_one(splitc::handler_id h) {
  splitc::am_request(0, h);
  for (int i = 0; i < 1000; ++i) splitc::poll();
}

TEST(ErrorsDeathTest, HandlerRepliesTwice) {
  register_all();
  EXPECT_EXIT(run_one(h_reply_twice), ExitedWithCode(kStatus),
              "replied twice to processor 0; a request handler may reply at most once");
}

TEST(ErrorsDeathTest, ReplyHandlerSends) {
  register_all();
  EXPECT_EXIT(run_one(h_request_sends), ExitedWithCode(kStatus),
              "\\(a reply handler\\) tried to send; reply handlers may not send");
}

TEST(ErrorsDeathTest, HandlerWaits) {
  register_all();
  EXPECT_EXIT(run_one(h_barrier), ExitedWithCode(kStatus),
              "barrier called inside handler [0-9]+; handlers run inside poll and must not wait");
  EXPECT_EXIT(run_one(h_poll), ExitedWithCode(kStatus), "must not poll");
}

TEST(ErrorsDeathTest, ReplyOutsideAHandler) {
  register_all();
  splitc::am_message fake{};
  EXPECT_EXIT(splitc::am_reply(fake, h_empty_reply), ExitedWithCode(kStatus),
              "a reply was sent outside any handler");
}

TEST(ErrorsDeathTest, BadActiveMessageTargets) {
  register_all();
  EXPECT_EXIT(splitc::am_request(3, h_empty_reply), ExitedWithCode(kStatus),
              "active message to processor 3, which is out of range");
  EXPECT_EXIT(splitc::am_request(0, static_cast<splitc::handler_id>(60000)),
              ExitedWithCode(kStatus), "names handler 60000, but only [0-9]+ handlers");
  EXPECT_EXIT(splitc::am_request(0, static_cast<splitc::handler_id>(0)), ExitedWithCode(kStatus),
              "active message names handler 0, which is one of the runtime's own");
  std::vector<unsigned char> big(splitc::active_backend::caps.max_medium + 1);
  EXPECT_EXIT(splitc::am_request_medium(0, h_empty_reply, big.data(), big.size()),
              ExitedWithCode(kStatus), "am_request_medium: payload of [0-9]+ bytes exceeds");
}

}  // namespace
