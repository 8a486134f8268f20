// The sim's segments in one address space (docs/sim.md, "P segments, P addresses"). Every
// processor's segment has its own address range for the whole job: processor p's at
// base + p × stride (stride a power of two), with an inaccessible gap up to the next, so a
// switch to another processor changes no mapping. The seed's "same address on every
// processor" becomes "the same offset": a global pointer names its processor's copy of a
// place, and the core moves an address between copies (c_context.h, splitc_placed_).
#pragma once

#include <splitc/port/am.hpp>

#include <cstddef>
#include <cstdint>

namespace splitc::backends::sim {

class segment_arena {
 public:
  /// The geometry from SPLITC_SEGMENT_BASE (where processor 0's segment starts) and
  /// SPLITC_SEGMENT_SIZE; when the size is not set, min(1 GiB, 64 GiB / procs), at least
  /// 64 MiB (P = 1024 and beyond: 64 MiB each).
  explicit segment_arena(int procs);
  ~segment_arena();
  segment_arena(const segment_arena&) = delete;
  segment_arena& operator=(const segment_arena&) = delete;

  /// Processor p's segment.
  segment_info segment(proc_t p) const noexcept {
    return {base_ + static_cast<std::size_t>(p) * stride_, size_};
  }
  std::size_t size() const noexcept { return size_; }
  segments_apart places() const noexcept {
    return {reinterpret_cast<std::uintptr_t>(base_), stride_, stride_ * static_cast<std::size_t>(procs_)};
  }
  /// Processor p's segment from `offset` (one-sided access: sim_engine.h).
  void write(proc_t p, std::size_t offset, const void* src, std::size_t len);
  void read(proc_t p, std::size_t offset, void* dst, std::size_t len) const;
  /// Give back the whole pages of [at, at + len) in processor p's segment: the segments are
  /// private anonymous memory, so those pages read as zero afterwards and take no memory
  /// until touched again (sim_engine.h, splitc_sim_discard). `at` and `len` page-aligned.
  void discard(proc_t p, void* at, std::size_t len);

 private:
  int procs_;
  std::size_t size_ = 0;
  std::size_t stride_ = 0;
  unsigned char* base_ = nullptr;
};

}  // namespace splitc::backends::sim
