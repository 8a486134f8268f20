// The template backend's members and its launcher: each communication fails with "no path to
// peer". Replace each body with your message layer's calls (PORTING.md, part 2); the porting
// kit (include/splitc/port/) already does the segment, the launch and the failure message.
#include <splitc/backends/template.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/launch.hpp>
#include <splitc/port/segment.hpp>

#include <cstdint>

namespace splitc::backends::template_backend {
namespace {
[[noreturn]] void no_path(proc_t p, const char* op) {
  port::fail("template backend: {} to processor {}: no path to peer (this backend implements "
             "no message layer; see PORTING.md)",
             op, p);
}
}  // namespace

// The segment at the same address on every processor (SPLITC_SEGMENT_BASE/SIZE or the kit's
// default), zero-filled: a layer with memory of its own maps that there instead.
template_backend::template_backend(start_arguments) {
  const port::segment_geometry g = port::segment_from_environment();
  segment_ = {port::reserve_segment(name, g, 1, true), g.size};
}

template_backend::~template_backend() {
  port::release_segment({reinterpret_cast<std::uintptr_t>(segment_.base), segment_.size}, 1);
}

am_status template_backend::request_short(proc_t p, handler_id, const am_word*, int) {
  no_path(p, "request_short");
}
am_status template_backend::reply_short(const am_message& token, handler_id, const am_word*, int) {
  no_path(token.source, "reply_short");
}
// Deliver what has arrived: sink.deliver(sink.context, message) once per message.
int template_backend::poll(am_sink) { return 0; }
// Nobody returns before everyone has entered; poll `sink` while waiting.
void template_backend::bootstrap_barrier(am_sink) {}
void template_backend::finish(int) {}

static_assert(splitc::backend<template_backend>);

}  // namespace splitc::backends::template_backend

namespace splitc::port {
// Start a job: create its shared resources (endpoints, memory) and hand them to the kit's
// run_job, which starts and supervises the processes; or exec your layer's own launcher
// under the kit's supervision (mpi_launcher.hpp, external_launch.hpp).
int launch_job(const launch_options& options, char** argv) {
  if (options.procs != 1)
    fail("template backend: cannot start {} processes: no path to peer (see PORTING.md)",
         options.procs);
  return run_job(options, argv, job_plan{});
}
}  // namespace splitc::port
