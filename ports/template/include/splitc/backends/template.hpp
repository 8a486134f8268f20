// The template backend: the porter's starting point (README.md beside this directory walks
// through the day). It compiles, satisfies the porting boundary with its mandatory members
// only, and runs a job of one process; every attempt to reach another processor fails with
// "no path to peer". Copy this directory to ports/<yours> (or anywhere, against an installed
// splitc), rename, and fill in each member with your layer's calls (PORTING.md, part 2).
// It includes nothing of splitc but the porter's surface, include/splitc/port/.
#pragma once

#include <splitc/port/am.hpp>

namespace splitc::backends::template_backend {

class template_backend {
 public:
  static constexpr const char* name = "template";
  // Describe your layer honestly: the core chooses its paths from this. With no medium and
  // no long members (max_medium = max_long = 0) the core composes both from short messages.
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = 0,
      .max_long = 0,
      .ordered = false,
      .direct_access = false,
  };

  /// Join the job: learn this process's place from the layer (or from port::env::myproc and
  /// port::env::procs, which the kit's run_job sets), and reserve the segment.
  explicit template_backend(start_arguments args);
  template_backend(const template_backend&) = delete;
  template_backend& operator=(const template_backend&) = delete;
  ~template_backend();

  proc_t myproc() const noexcept { return 0; }
  proc_t procs() const noexcept { return 1; }

  am_status request_short(proc_t p, handler_id h, const am_word* args, int nargs);
  am_status reply_short(const am_message& token, handler_id h, const am_word* args, int nargs);
  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);
  segment_info segment() const noexcept { return segment_; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code);

 private:
  segment_info segment_{};
};

}  // namespace splitc::backends::template_backend
