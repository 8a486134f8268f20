// The window onto the sim's segments, and access to any of them (segment_window.hpp).
#include <splitc/sim_engine/segment_window.hpp>

#include <splitc/port/fail.hpp>
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
  if (fd_ < 0) port::fail("sim: memfd_create failed: {}", std::strerror(errno));
  const std::size_t total = size_ * static_cast<std::size_t>(procs);
  if (ftruncate(fd_, static_cast<off_t>(total)) != 0)
    port::fail("sim: cannot size the segments to {} bytes ({} × {}): {}", total, procs, size_,
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

// Through the memfd: the same pages the window maps, whoever is shown.
void segment_window::write(proc_t p, std::size_t offset, const void* src, std::size_t len) {
  const off_t at = static_cast<off_t>(static_cast<std::size_t>(p) * size_ + offset);
  if (len != 0 && pwrite(fd_, src, len, at) != static_cast<ssize_t>(len))
    port::fail("sim: cannot write {} bytes of processor {}'s segment: {}", len, p,
                 std::strerror(errno));
}

void segment_window::read(proc_t p, std::size_t offset, void* dst, std::size_t len) const {
  const off_t at = static_cast<off_t>(static_cast<std::size_t>(p) * size_ + offset);
  if (len != 0 && pread(fd_, dst, len, at) != static_cast<ssize_t>(len))
    port::fail("sim: cannot read {} bytes of processor {}'s segment: {}", len, p,
                 std::strerror(errno));
}

}  // namespace splitc::backends::sim
