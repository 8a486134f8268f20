// The template backend's operations: each fails with "no path to peer".
// Replace each body with your message layer's calls (PORTING.md).
#include <splitc/backends/template.hpp>
#include <splitc/detail/launch.hpp>
#include <splitc/errors.hpp>

#include <cstring>

namespace splitc::backends::template_backend {
namespace {
[[noreturn]] void no_path(proc_t p, const char* op) {
  detail::fail("template backend: {} to processor {}: no path to peer (this backend "
               "implements no message layer; see PORTING.md)",
               op, p);
}
}  // namespace

// A real backend reads its place in the job from its launcher here.
template_backend::template_backend(start_arguments) : segment_(std::size_t{1} << 20) {}

am_status template_backend::request_short(proc_t p, handler_id, const am_word*, int) {
  no_path(p, "request_short");
}
am_status template_backend::request_medium(proc_t p, handler_id, const am_word*, int, const void*,
                                           std::size_t) {
  no_path(p, "request_medium");
}
am_status template_backend::request_long(proc_t p, handler_id, const am_word*, int, const void*,
                                         std::size_t, void*) {
  no_path(p, "request_long");
}
am_status template_backend::reply_short(const am_message& t, handler_id, const am_word*, int) {
  no_path(t.source, "reply_short");
}
am_status template_backend::reply_medium(const am_message& t, handler_id, const am_word*, int,
                                         const void*, std::size_t) {
  no_path(t.source, "reply_medium");
}
am_status template_backend::reply_long(const am_message& t, handler_id, const am_word*, int,
                                       const void*, std::size_t, void*) {
  no_path(t.source, "reply_long");
}
int template_backend::poll(am_sink) { return 0; }
void template_backend::bootstrap_barrier(am_sink) {}
void template_backend::finish(int) {}

static_assert(splitc::backend<template_backend>);

}  // namespace splitc::backends::template_backend

namespace splitc::detail {
// A real backend creates the job's shared resources (endpoints, memory)
// here and hands them to run_job, or execs its layer's own launcher.
int launch_job(const launch_options& options, char** argv) {
  if (options.procs != 1)
    fail("template backend: cannot start {} processes: no path to peer (see PORTING.md)",
         options.procs);
  return run_job(options, argv, job_plan{});
}
}  // namespace splitc::detail
