// A table of one std::size_t per rank of a collective (its counts, or its blocks' offsets),
// held inside the object for teams of up to rank_table::inline_entries entries and on the heap
// beyond: a collective on a team of that size builds its tables with no allocation (three
// malloc/free pairs at a gather's or scatter's root before: an 8-byte scatter at P = 2 on smp
// took 106 ns with them, 51 ns without). Not copyable or movable: spans of it stay valid.
#pragma once

#include <array>
#include <cstddef>
#include <memory>

namespace splitc::detail {

class rank_table {
 public:
  static constexpr std::size_t inline_entries = 65;  ///< counts of 64 ranks and one offset more

  /// n entries, each `value`.
  explicit rank_table(std::size_t n, std::size_t value = 0) : rank_table(n, for_overwrite) {
    std::size_t* d = data();
    for (std::size_t k = 0; k < n; ++k) d[k] = value;
  }
  /// n entries left unwritten, for a caller that writes each before it reads any. (Zeroed
  /// first, they were a memset whose wide stores the caller's 8-byte loads of them could not
  /// take from the store buffer: each such load waited for every older store to reach the
  /// cache, the last collective's store into a peer's mailbox among them -- a cross-core
  /// transfer per collective; docs/performance.md.)
  struct for_overwrite_t {};
  static constexpr for_overwrite_t for_overwrite{};
  rank_table(std::size_t n, for_overwrite_t) : size_(n) {
    if (n > inline_entries) heap_ = std::make_unique_for_overwrite<std::size_t[]>(n);
  }
  rank_table(const rank_table&) = delete;
  rank_table& operator=(const rank_table&) = delete;

  std::size_t* data() noexcept { return heap_ ? heap_.get() : inline_.data(); }
  const std::size_t* data() const noexcept { return heap_ ? heap_.get() : inline_.data(); }
  std::size_t size() const noexcept { return size_; }
  std::size_t* begin() noexcept { return data(); }
  std::size_t* end() noexcept { return data() + size_; }
  const std::size_t* begin() const noexcept { return data(); }
  const std::size_t* end() const noexcept { return data() + size_; }
  std::size_t& operator[](std::size_t k) noexcept { return data()[k]; }
  std::size_t operator[](std::size_t k) const noexcept { return data()[k]; }
  std::size_t back() const noexcept { return data()[size_ - 1]; }

 private:
  std::size_t size_;
  std::array<std::size_t, inline_entries> inline_;  // left unwritten beyond size_
  std::unique_ptr<std::size_t[]> heap_;
};

}  // namespace splitc::detail
