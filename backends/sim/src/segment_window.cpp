// The window and the aliases of the sim's segments (segment_window.hpp).
#include "segment_window.hpp"

#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace splitc::backends::sim {
namespace {

port::segment_geometry geometry(int procs) {
  port::segment_geometry g = port::segment_from_environment();
  if (!port::env::segment_size.is_set()) {
    const std::size_t share = (std::size_t{64} << 30) / static_cast<std::size_t>(procs);
    g.size = std::max(port::segment_granule,
                      std::min(port::default_segment_size,
                               share / port::segment_granule * port::segment_granule));
  }
  return g;
}

}  // namespace

segment_window::segment_window(int procs) : procs_(procs) {
  const port::segment_geometry g = geometry(procs);
  size_ = g.size;
  fd_ = memfd_create("splitc-sim", MFD_CLOEXEC);
  if (fd_ < 0) detail::fail("sim: memfd_create failed: {}", std::strerror(errno));
  const std::size_t total = size_ * static_cast<std::size_t>(procs);
  if (ftruncate(fd_, static_cast<off_t>(total)) != 0)
    detail::fail("sim: cannot size the segments to {} bytes ({} × {}): {}", total, procs, size_,
                 std::strerror(errno));
  window_ = static_cast<unsigned char*>(port::reserve_segment("sim", g, 1, false));
}

segment_window::~segment_window() {
  port::release_segment({reinterpret_cast<std::uintptr_t>(window_), size_}, 1);
  close(fd_);
}

void segment_window::show(proc_t p) {
  if (p == shown_) return;
  port::map_shared("sim", "the running processor's segment", window_, size_, fd_,
                   static_cast<std::size_t>(p) * size_);
  shown_ = p;
}

}  // namespace splitc::backends::sim
