// The symmetric segment in one address space (docs/sim.md, "One address,
// P segments"). Every processor's segment is a slice of one memfd; the
// running processor's slice is mapped at the segment address every backend
// uses (the window), remapped when another processor runs. (Messages touch a
// segment only when its owner runs: a long message's payload is copied at
// delivery.) So a
// spread pointer's address means the same offset on every processor and
// tolocal() names the running processor's own memory, as the seed requires.
#pragma once

#include <splitc/port/am.hpp>

#include <cstddef>
#include <cstdint>

namespace splitc::backends::sim {

class segment_window {
 public:
  /// The geometry from SPLITC_SEGMENT_BASE and SPLITC_SEGMENT_SIZE; when the
  /// size is not set, min(1 GiB, 64 GiB / procs) (P = 1024: 64 MiB each).
  explicit segment_window(int procs);
  ~segment_window();
  segment_window(const segment_window&) = delete;
  segment_window& operator=(const segment_window&) = delete;

  segment_info segment() const noexcept { return {window_, size_}; }
  /// Show processor p's segment at the window (nothing to do if it is shown).
  void show(proc_t p);
  /// Processor p's segment, shown or not (one-sided access: sim_engine.h).
  void write(proc_t p, std::size_t offset, const void* src, std::size_t len);
  void read(proc_t p, std::size_t offset, void* dst, std::size_t len) const;

 private:
  int procs_;
  int fd_ = -1;
  std::size_t size_ = 0;
  unsigned char* window_ = nullptr;
  proc_t shown_ = -1;
};

}  // namespace splitc::backends::sim
