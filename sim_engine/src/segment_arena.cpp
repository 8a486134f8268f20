// The sim's segments, each at its own address (segment_arena.hpp).
#include <splitc/sim_engine/segment_arena.hpp>

#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

namespace splitc::backends::sim {
namespace {

/// Without SPLITC_SEGMENT_SIZE: 64 GiB of address space shared out, but never under 64 MiB,
/// which holds the runtime's reserved start (about 4 KiB per processor: 17 MB at P = 4096) and
/// a spread heap. Only touched pages take memory; the arena is P × this much address space
/// (256 GiB at P = 4096).
constexpr std::size_t least_default_size = std::size_t{64} << 20;

port::segment_geometry geometry(int procs) {
  port::segment_geometry g = port::segment_from_environment();
  if (!port::env::segment_size.is_set()) {
    const std::size_t share = (std::size_t{64} << 30) / static_cast<std::size_t>(procs);
    g.size = std::max(least_default_size,
                      std::min(port::default_segment_size,
                               share / port::segment_granule * port::segment_granule));
  }
  return g;
}

}  // namespace

segment_arena::segment_arena(int procs) : procs_(procs) {
  const port::segment_geometry g = geometry(procs);
  size_ = g.size;
  stride_ = std::bit_ceil(size_);
  // One reservation for all (inaccessible, committing nothing), then each processor's
  // segment made readable and writable in it: pages are committed only where touched.
  base_ = static_cast<unsigned char*>(
      port::reserve_segment("sim", {g.base, stride_}, static_cast<std::size_t>(procs), false));
  for (proc_t p = 0; p < procs; ++p)
    if (mprotect(segment(p).base, size_, PROT_READ | PROT_WRITE) != 0)
      port::fail("sim: cannot open processor {}'s segment ({} bytes at {}): {}", p, size_,
                 segment(p).base, std::strerror(errno));
}

segment_arena::~segment_arena() {
  port::release_segment({reinterpret_cast<std::uintptr_t>(base_), stride_},
                        static_cast<std::size_t>(procs_));
}

void segment_arena::write(proc_t p, std::size_t offset, const void* src, std::size_t len) {
  if (len != 0) std::memcpy(static_cast<unsigned char*>(segment(p).base) + offset, src, len);
}

void segment_arena::read(proc_t p, std::size_t offset, void* dst, std::size_t len) const {
  if (len != 0) std::memcpy(dst, static_cast<const unsigned char*>(segment(p).base) + offset, len);
}

void segment_arena::discard(proc_t p, void* at, std::size_t len) {
  if (len == 0) return;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(at);
  const auto base = reinterpret_cast<std::uintptr_t>(segment(p).base);
  if (begin % page != 0 || len % page != 0 || begin < base || begin - base > size_ ||
      len > size_ - (begin - base))
    port::fail("sim: cannot give back {} bytes at {}: not whole pages of processor {}'s segment "
               "({} bytes at {})", len, at, p, size_, segment(p).base);
  // MAP_PRIVATE | MAP_ANONYMOUS (port::reserve_segment): the pages come back zero-filled.
  if (madvise(at, len, MADV_DONTNEED) != 0)
    port::fail("sim: cannot give back {} bytes at {} of processor {}'s segment: {}", len, at, p,
               std::strerror(errno));
}

}  // namespace splitc::backends::sim
