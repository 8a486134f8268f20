// The symmetric segment in one address space (docs/sim.md, "One address,
// P segments"). Every processor's segment is a slice of one memfd. All of
// them are mapped side by side at an address the kernel picks (the aliases:
// how the simulated network reaches a segment whatever processor runs), and
// the running processor's slice is also mapped at the segment address every
// backend uses (the window), remapped when another processor runs. So a
// spread pointer's address means the same offset on every processor and
// tolocal() names the running processor's own memory, as the seed requires.
#pragma once

#include <splitc/am.hpp>

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
  proc_t shown() const noexcept { return shown_; }
  /// Where processor p's object at `address` can be reached now: inside the
  /// segment, through p's alias; elsewhere (stacks, heap, statics, all
  /// distinct in one process) the address itself.
  void* reach(proc_t p, void* address) const noexcept {
    const auto offset = reinterpret_cast<std::uintptr_t>(address) -
                        reinterpret_cast<std::uintptr_t>(window_);
    if (offset >= size_) return address;
    return aliases_ + static_cast<std::size_t>(p) * size_ + offset;
  }
  /// Remappings so far (each is one mmap).
  std::uint64_t switches() const noexcept { return switches_; }

 private:
  int procs_;
  int fd_ = -1;
  std::size_t size_ = 0;
  unsigned char* window_ = nullptr;
  unsigned char* aliases_ = nullptr;
  proc_t shown_ = -1;
  std::uint64_t switches_ = 0;
};

}  // namespace splitc::backends::sim
