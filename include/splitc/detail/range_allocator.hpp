// A first-fit allocator over a range of offsets with coalescing frees. It
// hands out address ranges only; it never touches the memory, so the same
// object serves the job-wide symmetric heap (run by processor 0) and each
// processor's private part of its segment.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace splitc::detail {

class range_allocator {
 public:
  range_allocator() = default;
  range_allocator(std::size_t begin, std::size_t end) { reset(begin, end); }

  void reset(std::size_t begin, std::size_t end);
  /// `bytes` aligned to `alignment` (a power of two); nullopt when nothing fits.
  std::optional<std::size_t> allocate(std::size_t bytes, std::size_t alignment);
  /// False if `offset` is not the start of a live allocation (double free, foreign pointer).
  bool release(std::size_t offset);

  std::size_t bytes_in_use() const noexcept { return in_use_; }
  std::size_t capacity() const noexcept { return end_ - begin_; }
  std::size_t largest_free() const noexcept;

 private:
  std::map<std::size_t, std::size_t> free_;  // offset -> length
  std::map<std::size_t, std::size_t> live_;  // offset -> length
  std::size_t begin_ = 0, end_ = 0, in_use_ = 0;
};

}  // namespace splitc::detail
