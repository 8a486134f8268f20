// The porting boundary: smp and template satisfy splitc::backend; incomplete types do not.
#include <splitc/port/am.hpp>
#include <splitc/backends/smp.hpp>
#include <splitc/backends/template.hpp>

#include <gtest/gtest.h>

#include <string_view>

namespace {

using smp_backend = splitc::backends::smp::smp_backend;
using template_backend = splitc::backends::template_backend::template_backend;

static_assert(splitc::backend<smp_backend>);
static_assert(splitc::backend<template_backend>);

// Backends carry 4 to 8 argument words; smp carries all the core ever sends.
static_assert(smp_backend::caps.max_args == splitc::am_max_args);
static_assert(template_backend::caps.max_args >= splitc::am_min_args);
static_assert(splitc::am_min_args == 4 && splitc::am_max_args == 8);
// The smp backend reaches peers' segments directly and keeps pairs in order.
static_assert(smp_backend::caps.direct_access);
static_assert(splitc::has_direct_range<smp_backend>, "smp answers for a range with one check");
// Every peer mapped, no groups of hosts: so the core inlines smp's whole get and put, the
// message to memory outside the segments too (global_memory.hpp, am_tail_called).
static_assert(!splitc::has_host_members<smp_backend>, "smp maps every peer");
static_assert(!splitc::has_direct_range<template_backend>, "the template maps nothing");
static_assert(smp_backend::caps.ordered);
static_assert(splitc::has_medium_messages<smp_backend> && splitc::has_long_messages<smp_backend>);
static_assert(!splitc::has_rma<smp_backend>, "smp's direct access makes RMA members pointless");
static_assert(!splitc::has_native_atomics<smp_backend>, "smp's CPU atomics are the core's own");
static_assert(smp_backend::caps.max_medium >= 4096 && smp_backend::caps.max_long >= 4096);
// The template backend claims no direct path.
static_assert(!template_backend::caps.direct_access);

/// A complete backend in miniature, from which the negative cases remove one piece.
template <bool with_poll = true, bool noexcept_identity = true, bool right_reply = true>
struct fake_backend {
  static constexpr splitc::capabilities caps{8, 64, 64, true, false};
  static constexpr const char* name = "fake";
  splitc::proc_t myproc() const noexcept(noexcept_identity) { return 0; }
  splitc::proc_t procs() const noexcept { return 1; }
  splitc::am_status request_short(splitc::proc_t, splitc::handler_id, const splitc::am_word*,
                                  int) {
    return splitc::am_status::ok;
  }
  splitc::am_status request_medium(splitc::proc_t, splitc::handler_id, const splitc::am_word*,
                                   int, const void*, std::size_t) {
    return splitc::am_status::ok;
  }
  splitc::am_status request_long(splitc::proc_t, splitc::handler_id, const splitc::am_word*, int,
                                 const void*, std::size_t, void*) {
    return splitc::am_status::ok;
  }
  auto reply_short(const splitc::am_message&, splitc::handler_id, const splitc::am_word*, int) {
    if constexpr (right_reply)
      return splitc::am_status::ok;
    else
      return 0;  // wrong result type
  }
  splitc::am_status reply_medium(const splitc::am_message&, splitc::handler_id,
                                 const splitc::am_word*, int, const void*, std::size_t) {
    return splitc::am_status::ok;
  }
  splitc::am_status reply_long(const splitc::am_message&, splitc::handler_id,
                               const splitc::am_word*, int, const void*, std::size_t, void*) {
    return splitc::am_status::ok;
  }
  int poll(splitc::am_sink)
    requires with_poll
  {
    return 0;
  }
  void bootstrap_barrier(splitc::am_sink) {}
  splitc::segment_info segment() const noexcept { return {nullptr, 0}; }
  void* direct_address(splitc::proc_t, const void*) const noexcept { return nullptr; }
  void finish(int) {}
};

static_assert(splitc::backend<fake_backend<>>, "the complete fake satisfies the contract");
static_assert(!splitc::backend<fake_backend<false>>, "no poll");
static_assert(!splitc::backend<fake_backend<true, false>>, "myproc must be noexcept");
static_assert(!splitc::backend<fake_backend<true, true, false>>, "reply_short must give am_status");
static_assert(!splitc::backend<int>);

TEST(BackendConcept, NamesAreReadable) {
  EXPECT_EQ(std::string_view(smp_backend::name), "smp");
  EXPECT_EQ(std::string_view(template_backend::name), "template");
}

TEST(BackendConcept, SmpRingLimitsCoverTheLargestMessage) {
  // A long message of max_long bytes plus its prefix must fit the smallest allowed ring.
  EXPECT_EQ(smp_backend::caps.max_medium, smp_backend::max_payload);
  EXPECT_EQ(smp_backend::caps.max_long, smp_backend::max_payload);
}

}  // namespace
