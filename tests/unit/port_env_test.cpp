// The porting kit's environment parsers (sizes, integers, numbers, flags),
// the table's accessors (defaults, the one message a bad value ends the job
// with, the check that a reader's default is the documented one), the
// warning for unknown SPLITC_* names; the segment geometry read from
// SPLITC_SEGMENT_SIZE and SPLITC_SEGMENT_BASE, and the range checks of the direct paths on it.
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/same_host.hpp>
#include <splitc/port/segment.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

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

namespace env = splitc::port::env;

TEST(PortEnv, UnsetOrEmptyTakesTheTablesDefault) {
  unsetenv("SPLITC_UDP_WINDOW");
  EXPECT_EQ(env::udp_window.get(), std::size_t{4} << 20);  // "4M" in env_vars.def
  setenv("SPLITC_UDP_WINDOW", "", 1);
  EXPECT_FALSE(env::udp_window.is_set());
  EXPECT_EQ(env::udp_window.get(), std::size_t{4} << 20);
  setenv("SPLITC_UDP_WINDOW", "3M", 1);
  EXPECT_EQ(env::udp_window.get(), std::size_t{3} << 20);
  unsetenv("SPLITC_UDP_WINDOW");
  unsetenv("SPLITC_MPI_CREDITS");
  EXPECT_EQ(env::mpi_credits.get(17), 17);  // a computed default: the reader's
  unsetenv("SPLITC_MPI_LONG");
  EXPECT_EQ(env::mpi_long.get(), "auto");
  setenv("SPLITC_MPIRUN_ARGS", " --hostfile  hosts ", 1);
  EXPECT_EQ(env::mpirun_args.get(), (std::vector<std::string>{"--hostfile", "hosts"}));
  unsetenv("SPLITC_MPIRUN_ARGS");
  EXPECT_TRUE(env::mpirun_args.get().empty());
}

// Every row's fixed default parses as its type, and every row is found by name.
TEST(PortEnv, TheTableIsConsistent) {
  for (const auto& e : splitc::port::env_table) {
    EXPECT_EQ(splitc::port::find_env_entry(e.name), &e) << e.name;
    EXPECT_NE(e.meaning[0], '\0') << e.name;
    const std::string_view d = e.fallback;
    if (d.empty() || d.front() == '(') continue;
    using splitc::port::env_type;
    switch (e.type) {
      case env_type::flag: EXPECT_TRUE(parse_flag(d)) << e.name; break;
      case env_type::integer: EXPECT_TRUE(parse_integer(d)) << e.name; break;
      case env_type::size:
      case env_type::address: EXPECT_TRUE(parse_size(d)) << e.name; break;
      case env_type::number: EXPECT_TRUE(parse_number(d)) << e.name; break;
      case env_type::choice:
        EXPECT_NE(("|" + std::string(e.choices) + "|").find("|" + std::string(d) + "|"), std::string::npos)
            << e.name;
        break;
      case env_type::text:
      case env_type::words: break;
    }
  }
}

TEST(PortEnvDeathTest, BadValuesNameTheVariableAndTheValue) {
  setenv("SPLITC_SEGMENT_SIZE", "-1", 1);
  EXPECT_EXIT(env::segment_size.get(), ExitedWithCode(splitc::error_exit_status),
              "splitc: processor 0: SPLITC_SEGMENT_SIZE='-1' is not a size \\(expected e.g. 512M, 2G\\)");
  unsetenv("SPLITC_SEGMENT_SIZE");
  setenv("SPLITC_MPI_RING", "ten", 1);
  EXPECT_EXIT(env::mpi_ring.get(), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_MPI_RING='ten' is not a whole number");
  unsetenv("SPLITC_MPI_RING");
  setenv("SPLITC_UDP_RTO_MIN_US", "ten", 1);
  EXPECT_EXIT(env::udp_rto_min_us.get(), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_UDP_RTO_MIN_US='ten' is not a non-negative number");
  unsetenv("SPLITC_UDP_RTO_MIN_US");
  setenv("SPLITC_MPI_COMPACT", "maybe", 1);
  EXPECT_EXIT(env::mpi_compact.get(true), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_MPI_COMPACT='maybe' is not a flag");
  unsetenv("SPLITC_MPI_COMPACT");
  setenv("SPLITC_MPI_LONG", "fast", 1);
  EXPECT_EXIT(env::mpi_long.get(), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_MPI_LONG='fast' is not one of auto, staged, inline, rendezvous, rma");
  unsetenv("SPLITC_MPI_LONG");
  setenv("SPLITC_YIELD_WHEN_IDLE", "yes", 1);
  EXPECT_EXIT(env::yield_when_idle.get(), ExitedWithCode(splitc::error_exit_status),
              "SPLITC_YIELD_WHEN_IDLE='yes' is not one of auto, 1, 0");
  unsetenv("SPLITC_YIELD_WHEN_IDLE");
}

TEST(PortEnvDeathTest, AReaderWhoseDefaultDiffersFromTheTableIsCaught) {
  unsetenv("SPLITC_UDP_WINDOW");
  EXPECT_EXIT(env::udp_window.get(1), ExitedWithCode(splitc::error_exit_status),
              "internal: the reader of SPLITC_UDP_WINDOW has another default than env_vars.def");
  EXPECT_EXIT(env::mpi_credits.get(), ExitedWithCode(splitc::error_exit_status),
              "internal: SPLITC_MPI_CREDITS has no fixed default");
}

TEST(PortEnv, UnknownVariablesAreNamedWithTheNearestKnownOne) {
  setenv("SPLITC_SEGMENT_SIZ", "2G", 1);
  setenv("SPLITC_NOTHING_LIKE_IT_AT_ALL", "1", 1);
  testing::internal::CaptureStderr();
  splitc::port::warn_unknown_variables();
  const std::string said = testing::internal::GetCapturedStderr();
  unsetenv("SPLITC_SEGMENT_SIZ");
  unsetenv("SPLITC_NOTHING_LIKE_IT_AT_ALL");
  EXPECT_NE(said.find("splitc: warning: SPLITC_SEGMENT_SIZ is not a splitc variable (did you mean "
                      "SPLITC_SEGMENT_SIZE?); it is ignored"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find("SPLITC_NOTHING_LIKE_IT_AT_ALL is not a splitc variable; it is ignored"),
            std::string::npos)
      << said;
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

// range_in_segment, the one check of every direct_range (smp's, shmem's, the same-host
// layer's for udp and mpi): a range is inside only when its first and last bytes are, at
// every length (constant and not, up to and past the granule), below the base, across either
// end, and for a length of 0 (one byte).
TEST(PortSegment, RangeInSegment) {
  using splitc::port::range_in_segment;
  const std::uintptr_t base = splitc::port::default_segment_base;
  const std::size_t size = splitc::port::segment_granule * 2;
  auto at = [&](std::intptr_t off) { return reinterpret_cast<const void*>(base + off); };
  auto inside = [&](std::intptr_t off, std::size_t len) {
    std::uintptr_t o = 1;
    const bool in = range_in_segment(base, size, at(off), len, o);
    if (in) {
      EXPECT_EQ(o, static_cast<std::uintptr_t>(off));
    }
    return in;
  };
  const std::intptr_t end = static_cast<std::intptr_t>(size);
  EXPECT_TRUE(inside(0, 8));
  EXPECT_TRUE(inside(end - 8, 8));
  EXPECT_FALSE(inside(end - 7, 8));
  EXPECT_FALSE(inside(end, 1));
  EXPECT_FALSE(inside(-4, 8));
  EXPECT_FALSE(inside(-1, 1));
  EXPECT_TRUE(inside(end - 1, 0));
  EXPECT_FALSE(inside(end, 0));
  EXPECT_TRUE(inside(0, size));
  EXPECT_FALSE(inside(1, size));
  EXPECT_FALSE(inside(0, size + 1));
  EXPECT_TRUE(inside(end - static_cast<std::intptr_t>(splitc::port::segment_granule),
                     splitc::port::segment_granule));
  EXPECT_FALSE(inside(end - static_cast<std::intptr_t>(splitc::port::segment_granule) + 1,
                      splitc::port::segment_granule));
  EXPECT_FALSE(inside(-static_cast<std::intptr_t>(base), 8));  // the null address
  volatile std::size_t runtime_len = 16;  // the same at a length not known when compiling
  EXPECT_TRUE(inside(end - 16, runtime_len));
  EXPECT_FALSE(inside(end - 15, runtime_len));
  EXPECT_FALSE(inside(-8, runtime_len));
}

// The same-host layer's range, udp's and mpi's direct_range: in a job of two with the layer
// off (connect maps nothing), processor 0's own segment at the environment's base answers
// inside it, as address() does for the range's first and last bytes, and nothing for a range
// across either end; processor 1, on no mapping here, answers nothing anywhere.
TEST(PortSameHost, RangeAnswersOnlyInsideAMappedSegment) {
  splitc::port::same_host layer;
  const splitc::port::same_host::network net{nullptr, [](void*) {}, nullptr};
  layer.connect("unit", 0, 2, 1, net);
  const splitc::port::segment_geometry g = splitc::port::segment_from_environment();
  auto at = [&](std::intptr_t off) {
    return reinterpret_cast<const void*>(g.base + static_cast<std::uintptr_t>(off));
  };
  const std::intptr_t end = static_cast<std::intptr_t>(g.size);
  for (std::size_t len = 1; len <= 16; ++len) {
    const auto n = static_cast<std::intptr_t>(len);
    const std::intptr_t offsets[] = {0, end - n, end - n + 1, end - 1, end, -n, -1};
    for (const std::intptr_t off : offsets) {
      const bool inside = off >= 0 && off + n <= end;
      void* got = layer.range(0, at(off), len);
      if (inside) {
        EXPECT_EQ(got, at(off)) << "offset " << off << ", " << len << " bytes";
        EXPECT_EQ(layer.address(0, at(off + n - 1)), at(off + n - 1));
      } else {
        EXPECT_EQ(got, nullptr) << "offset " << off << ", " << len << " bytes";
      }
      EXPECT_EQ(layer.range(1, at(off), len), nullptr) << "processor 1, offset " << off;
    }
  }
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
