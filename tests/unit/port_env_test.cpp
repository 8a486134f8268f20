// The porting kit's environment parsers (sizes, integers, numbers, flags) and
// the one message a bad SPLITC_* value ends the job with; the segment
// geometry read from SPLITC_SEGMENT_SIZE and SPLITC_SEGMENT_BASE.
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using splitc::port::parse_flag;
using splitc::port::parse_integer;
using splitc::port::parse_number;
using splitc::port::parse_size;
using ::testing::ExitedWithCode;

TEST(PortEnv, SizesTakeBinarySuffixesAndHex) {
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("512k"), 512u << 10);
  EXPECT_EQ(parse_size("512M"), std::size_t{512} << 20);
  EXPECT_EQ(parse_size("2G"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size("2g"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size("1T"), std::size_t{1} << 40);
  EXPECT_EQ(parse_size("0x100000000000"), std::size_t{0x100000000000});
  EXPECT_EQ(parse_size("18446744073709551615"), ~std::size_t{0});
}

TEST(PortEnv, SizesRejectSignsFractionsJunkAndOverflow) {
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1.5G", "1MB", "1X", "G", "0x", "x10",
                          "18446744073709551616", "16777216T", "2GG"}) {
    EXPECT_FALSE(parse_size(bad).has_value()) << "'" << bad << "'";
  }
}

TEST(PortEnv, Integers) {
  EXPECT_EQ(parse_integer("-1"), -1);
  EXPECT_EQ(parse_integer("42"), 42);
  for (const char* bad : {"", "4x", "1.0", "0x10", " 1", "99999999999999999999"})
    EXPECT_FALSE(parse_integer(bad).has_value()) << "'" << bad << "'";
}

TEST(PortEnv, NumbersAreNonNegative) {
  EXPECT_EQ(parse_number("10"), 10.0);
  EXPECT_EQ(parse_number("0.5"), 0.5);
  EXPECT_EQ(parse_number("1e-3"), 1e-3);
  for (const char* bad : {"", "-1", "+1", "1s", "nan", "inf", " 1"})
    EXPECT_FALSE(parse_number(bad).has_value()) << "'" << bad << "'";
}

TEST(PortEnv, Flags) {
  for (const char* yes : {"1", "yes", "TRUE", "On", "2"}) EXPECT_EQ(parse_flag(yes), true) << yes;
  for (const char* no : {"0", "no", "False", "OFF"}) EXPECT_EQ(parse_flag(no), false) << no;
  for (const char* bad : {"", "y", "maybe", "1.0"})
    EXPECT_FALSE(parse_flag(bad).has_value()) << "'" << bad << "'";
}

TEST(PortEnv, UnsetOrEmptyTakesTheDefault) {
  unsetenv("SPLITC_TEST_PORT_ENV");
  EXPECT_EQ(splitc::port::env_size("SPLITC_TEST_PORT_ENV", 7), 7u);
  setenv("SPLITC_TEST_PORT_ENV", "", 1);
  EXPECT_EQ(splitc::port::env_integer("SPLITC_TEST_PORT_ENV", -3), -3);
  setenv("SPLITC_TEST_PORT_ENV", "3M", 1);
  EXPECT_EQ(splitc::port::env_size("SPLITC_TEST_PORT_ENV", 7), std::size_t{3} << 20);
  unsetenv("SPLITC_TEST_PORT_ENV");
}

TEST(PortEnvDeathTest, BadValuesNameTheVariableAndTheValue) {
  setenv("SPLITC_SEGMENT_SIZE", "-1", 1);
  EXPECT_EXIT(splitc::port::env_size("SPLITC_SEGMENT_SIZE", 1), ExitedWithCode(splitc::error_exit_status),
              "splitc: processor 0: SPLITC_SEGMENT_SIZE='-1' is not a size \\(expected e.g. 512M, 2G\\)");
  setenv("SPLITC_TEST_PORT_ENV", "ten", 1);
  EXPECT_EXIT(splitc::port::env_integer("SPLITC_TEST_PORT_ENV", 1), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_TEST_PORT_ENV='ten' is not a whole number");
  EXPECT_EXIT(splitc::port::env_number("SPLITC_TEST_PORT_ENV", 1), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_TEST_PORT_ENV='ten' is not a non-negative number");
  EXPECT_EXIT(splitc::port::env_flag("SPLITC_TEST_PORT_ENV", true), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_TEST_PORT_ENV='ten' is not a flag");
  unsetenv("SPLITC_TEST_PORT_ENV");
  unsetenv("SPLITC_SEGMENT_SIZE");
}

TEST(PortSegment, GeometryDefaultsAndRounding) {
  unsetenv("SPLITC_SEGMENT_SIZE");
  unsetenv("SPLITC_SEGMENT_BASE");
  auto g = splitc::port::segment_from_environment();
  EXPECT_EQ(g.size, splitc::port::default_segment_size);
  EXPECT_EQ(g.base, splitc::port::default_segment_base);
  setenv("SPLITC_SEGMENT_SIZE", "1", 1);
  setenv("SPLITC_SEGMENT_BASE", "0x200000000000", 1);
  g = splitc::port::segment_from_environment();
  EXPECT_EQ(g.size, splitc::port::segment_granule);
  EXPECT_EQ(g.base, std::uintptr_t{0x200000000000});
  unsetenv("SPLITC_SEGMENT_SIZE");
  unsetenv("SPLITC_SEGMENT_BASE");
}

TEST(PortSegmentDeathTest, ZeroSizeAndBadBaseAreRejected) {
  setenv("SPLITC_SEGMENT_SIZE", "0", 1);
  EXPECT_EXIT(splitc::port::segment_from_environment(), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_SEGMENT_SIZE='0' is not a usable size");
  unsetenv("SPLITC_SEGMENT_SIZE");
  for (const char* base : {"0", "12345"}) {
    setenv("SPLITC_SEGMENT_BASE", base, 1);
    EXPECT_EXIT(splitc::port::segment_from_environment(), ExitedWithCode(splitc::error_exit_status),
                "SPLITC_SEGMENT_BASE='[0-9]+' is not a usable address");
  }
  unsetenv("SPLITC_SEGMENT_BASE");
}

}  // namespace
