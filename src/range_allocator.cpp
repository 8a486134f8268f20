// First-fit range allocation with coalescing (see detail/range_allocator.hpp).
#include <splitc/detail/range_allocator.hpp>

#include <algorithm>
#include <iterator>

namespace splitc::detail {

void range_allocator::reset(std::size_t begin, std::size_t end) {
  free_.clear();
  live_.clear();
  begin_ = begin;
  end_ = end;
  in_use_ = 0;
  if (end > begin) free_.emplace(begin, end - begin);
}

std::optional<std::size_t> range_allocator::allocate(std::size_t bytes, std::size_t alignment) {
  if (bytes == 0) bytes = 1;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::size_t start = it->first, length = it->second;
    const std::size_t aligned = (start + alignment - 1) & ~(alignment - 1);
    if (aligned - start > length || length - (aligned - start) < bytes) continue;
    const std::size_t tail_start = aligned + bytes;
    const std::size_t tail_length = start + length - tail_start;
    free_.erase(it);
    if (aligned > start) free_.emplace(start, aligned - start);
    if (tail_length > 0) free_.emplace(tail_start, tail_length);
    live_.emplace(aligned, bytes);
    in_use_ += bytes;
    return aligned;
  }
  return std::nullopt;
}

bool range_allocator::release(std::size_t offset) {
  const auto live = live_.find(offset);
  if (live == live_.end()) return false;
  std::size_t start = offset, length = live->second;
  in_use_ -= length;
  live_.erase(live);
  // Coalesce with the free neighbours on both sides.
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + length) {
    length += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(start, length);
  return true;
}

std::size_t range_allocator::largest_free() const noexcept {
  std::size_t best = 0;
  for (const auto& [offset, length] : free_) best = std::max(best, length);
  return best;
}

}  // namespace splitc::detail
