// The template backend: the porter's starting point. It compiles, satisfies
// the porting boundary, and runs a job of one process; every attempt to
// reach another processor fails with "no path to peer". Copy this directory
// to backends/<yours>, rename, and fill in each operation (see PORTING.md).
#pragma once

#include <splitc/am.hpp>

#include <cstddef>
#include <vector>

namespace splitc::backends::template_backend {

class template_backend {
 public:
  static constexpr const char* name = "template";
  // Describe your layer honestly: the core chooses its paths from this.
  static constexpr capabilities caps{
      .max_args = am_max_args,
      .max_medium = 4096,
      .max_long = 4096,
      .ordered = false,
      .direct_access = false,
  };

  explicit template_backend(start_arguments args);

  proc_t myproc() const noexcept { return 0; }
  proc_t procs() const noexcept { return 1; }

  am_status request_short(proc_t p, handler_id h, const am_word* a, int n);
  am_status request_medium(proc_t p, handler_id h, const am_word* a, int n, const void* src,
                           std::size_t len);
  am_status request_long(proc_t p, handler_id h, const am_word* a, int n, const void* src,
                         std::size_t len, void* dst);
  am_status reply_short(const am_message& t, handler_id h, const am_word* a, int n);
  am_status reply_medium(const am_message& t, handler_id h, const am_word* a, int n,
                         const void* src, std::size_t len);
  am_status reply_long(const am_message& t, handler_id h, const am_word* a, int n,
                       const void* src, std::size_t len, void* dst);
  int poll(am_sink sink);
  void bootstrap_barrier(am_sink sink);
  segment_info segment() const noexcept { return {segment_.data(), segment_.size()}; }
  void* direct_address(proc_t, const void*) const noexcept { return nullptr; }
  void finish(int code);

 private:
  mutable std::vector<unsigned char> segment_;
};

}  // namespace splitc::backends::template_backend
