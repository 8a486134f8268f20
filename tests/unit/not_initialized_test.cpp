// Any call before init ends the process with "splitc is not initialized" (status 70).
#include <splitc/splitc.hpp>

#include <gtest/gtest.h>

namespace {

using ::testing::ExitedWithCode;

TEST(NotInitializedDeathTest, CallsBeforeInitEndTheProcess) {
  ASSERT_FALSE(splitc::initialized());
  EXPECT_EXIT(static_cast<void>(splitc::myproc()), ExitedWithCode(splitc::error_exit_status),
              "splitc: processor 0: splitc is not initialized: call splitc::init\\(\\)");
  EXPECT_EXIT(splitc::barrier(), ExitedWithCode(splitc::error_exit_status), "not initialized");
  int x = 0;
  EXPECT_EXIT(splitc::write(splitc::toglobal(0, &x), 1), ExitedWithCode(splitc::error_exit_status),
              "not initialized");
  EXPECT_EXIT(splitc::poll(), ExitedWithCode(splitc::error_exit_status), "not initialized");
}

}  // namespace
