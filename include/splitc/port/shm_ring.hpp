// Porting kit: a lock-free single-producer single-consumer ring of
// variable-length records in shared memory: the wire of the smp backend and of
// the same-host layer's messages (port/same_host.hpp). One ring per ordered
// pair of processes and per network (requests, replies); the records are
// active messages (port/ring_messages.hpp).
//
// The ring is an array of 64-byte cells. A record starts on a cell with a
// 16-byte header whose first word is a tag = absolute cell index + 1, stored
// last with release semantics: the consumer polls that one word, so an
// arriving message costs one cache-line transfer, like a raw ping-pong. Stale
// payload must never look like a valid header (a header of an earlier lap
// holds a tag that cannot match). The consumer zeroes the tag word of every
// cell of a small record it consumed before it publishes its position; the
// cells of a large record it only reads, and the producer knows them (a bit
// per cell, in its own memory) and zeroes such a word before it publishes a
// record that ends there, where the consumer will look next. Zeroing every
// cell made each line of a large payload cross between the cores twice (a
// 2 MiB bulk_put on smp 1.3-1.5x slower); leaving small records unzeroed made
// small messages slower (docs/performance.md, "One copy on smp, off by
// default"). The producer re-reads the consumer's position only when its
// cached copy says the ring is full.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace splitc::port {

inline constexpr std::size_t cell_bytes = 64;

/// Record flags.
enum : std::uint8_t {
  record_short = 0,
  record_medium = 1,
  record_long = 2,
  record_pad = 3,  ///< filler up to the end of the ring
  record_kind_mask = 3,
};

struct record_header {
  std::atomic<std::uint64_t> tag;  ///< absolute cell index + 1 once the record is complete
  std::uint16_t handler;
  std::uint8_t nargs;
  std::uint8_t flags;
  std::uint32_t length;  ///< payload bytes (pad: cells skipped)
};
static_assert(sizeof(record_header) == 16);

/// The shared part of a ring: the consumer's published position, then cells.
struct ring_shared {
  alignas(64) std::atomic<std::uint64_t> head;  ///< cells consumed (absolute)
  char pad_[64 - sizeof(std::atomic<std::uint64_t>)];
  // cells follow

  unsigned char* cells() noexcept { return reinterpret_cast<unsigned char*>(this + 1); }
};
static_assert(sizeof(ring_shared) == 64);

/// Copy n (<= 8) argument words with fixed-size stores: a memcpy of a
/// length known only at run time becomes `rep movsq`, three times slower.
inline void copy_words(void* to, const std::uint64_t* from, int n) noexcept {
  auto* out = static_cast<unsigned char*>(to);
  switch (n) {
    case 8: std::memcpy(out + 56, from + 7, 8); [[fallthrough]];
    case 7: std::memcpy(out + 48, from + 6, 8); [[fallthrough]];
    case 6: std::memcpy(out + 40, from + 5, 8); [[fallthrough]];
    case 5: std::memcpy(out + 32, from + 4, 8); [[fallthrough]];
    case 4: std::memcpy(out + 24, from + 3, 8); [[fallthrough]];
    case 3: std::memcpy(out + 16, from + 2, 8); [[fallthrough]];
    case 2: std::memcpy(out + 8, from + 1, 8); [[fallthrough]];
    case 1: std::memcpy(out, from, 8); [[fallthrough]];
    default: break;
  }
}

/// Bytes a record occupies before its payload.
constexpr std::size_t record_prefix(int nargs, bool has_destination) noexcept {
  return sizeof(record_header) + (has_destination ? 8 : 0) + 8 * static_cast<std::size_t>(nargs);
}
constexpr std::size_t cells_for(std::size_t bytes) noexcept {
  return (bytes + cell_bytes - 1) / cell_bytes;
}
/// A record of at most this many cells is small: its consumer zeroes its cells' tag words.
inline constexpr std::uint64_t small_record_cells = 64;

/// The producer's private view of one ring.
class ring_producer {
 public:
  ring_producer() = default;
  /// `ncells` is a power of two (positions are masked, not divided).
  ring_producer(ring_shared* ring, std::uint64_t ncells)
      : ring_(ring), ncells_(ncells), payload_((ncells + 63) / 64, 0) {}

  /// Room for a record of `bytes`; nullptr when the ring is full (no_resource).
  /// After filling it, call publish(). The common case (room known, no wrap)
  /// is inlined into every sender: left to the compiler, the call stayed in
  /// some senders (store's path) and not in others; inlined, a send costs
  /// ~0.4 ns less (docs/performance.md "The store bar").
  /// The fast path takes a small record while no cell is marked (`need` is a constant in most
  /// callers, so that test is one load); the rest is reserve_slow's.
  [[gnu::always_inline]] unsigned char* reserve(std::size_t bytes) noexcept {
    const std::uint64_t need = cells_for(bytes);
    const std::uint64_t pos = tail_ & (ncells_ - 1);
    if (need <= small_record_cells && marked_ == 0 && pos + need <= ncells_ &&
        tail_ + need - cached_head_ <= ncells_) [[likely]] {
      pending_cells_ = need;
      return ring_->cells() + pos * cell_bytes;
    }
    return reserve_slow(need);
  }

  /// Whether this producer has a ring.
  bool ready() const noexcept { return ring_ != nullptr; }
  /// The ring's position after the last record published (cells, absolute).
  std::uint64_t position() const noexcept { return tail_; }
  /// Whether the consumer has taken every record up to `position` (a position() seen before).
  bool consumed_through(std::uint64_t position) noexcept {
    if (cached_head_ >= position) return true;
    cached_head_ = ring_->head.load(std::memory_order_acquire);
    return cached_head_ >= position;
  }

  /// Make the reserved record visible to the consumer: two stores (reserve did the marking).
  [[gnu::always_inline]] void publish(unsigned char* record) noexcept {
    reinterpret_cast<record_header*>(record)->tag.store(tail_ + 1, std::memory_order_release);
    tail_ += pending_cells_;
  }

 private:
  /// reserve() for a large record, any record while cells are marked, or when the cached head
  /// says full or the record would wrap: look at the consumer's head again, pad to the ring's
  /// end; then mark the record's continuation cells if it is large (its consumer leaves them as
  /// they are), unmark them if small (its consumer zeroes them), and clear the cell after it.
  [[gnu::noinline]] unsigned char* reserve_slow(std::uint64_t need) noexcept {
    std::uint64_t pos = tail_ & (ncells_ - 1);
    const std::uint64_t pad = pos + need > ncells_ ? ncells_ - pos : 0;
    if (tail_ + pad + need - cached_head_ > ncells_) {
      cached_head_ = ring_->head.load(std::memory_order_acquire);
      if (tail_ + pad + need - cached_head_ > ncells_) return nullptr;
    }
    if (pad != 0) {
      auto* h = header_at(pos);
      h->flags = record_pad;
      h->length = static_cast<std::uint32_t>(pad);
      clear_after(pad);  // the cells it skips keep what they held
      h->tag.store(tail_ + 1, std::memory_order_release);
      tail_ += pad;
      pos = 0;
    }
    if (need > small_record_cells || marked_ != 0) {
      mark(pos + 1, pos + need, need > small_record_cells);
      clear_after(need);
    }
    pending_cells_ = need;
    return ring_->cells() + pos * cell_bytes;
  }

  /// Before publishing a record of `cells` at the tail (its cell holds no payload: it was the
  /// cell after the record before, or the first): the consumer looks next at the cell after
  /// it, so if that cell's first word is payload of a large record of an earlier lap, it is
  /// zeroed first (ordered before the consumer can see this record by the publish's release
  /// store). A marked cell is free to write: the one cell past the record the consumer may not
  /// have released yet is the first of its oldest record, a header, never marked.
  void clear_after(std::uint64_t cells) noexcept {
    if (marked_ == 0) return;
    const std::uint64_t next = (tail_ + cells) & (ncells_ - 1);
    std::uint64_t& word = payload_[next / 64];
    const std::uint64_t bit = std::uint64_t{1} << (next % 64);
    if ((word & bit) != 0) {
      header_at(next)->tag.store(0, std::memory_order_relaxed);
      word &= ~bit;
      --marked_;
    }
  }
  /// Set (or clear) the marks of cells [from, to) of this lap (to <= ncells_), keeping marked_.
  void mark(std::uint64_t from, std::uint64_t to, bool set) noexcept {
    while (from < to) {
      const std::uint64_t in_word = std::min<std::uint64_t>(64 - from % 64, to - from);
      const std::uint64_t bits =
          (in_word == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << in_word) - 1)) << (from % 64);
      std::uint64_t& word = payload_[from / 64];
      const std::uint64_t was = word;
      word = set ? was | bits : was & ~bits;
      marked_ += static_cast<std::uint64_t>(std::popcount(word)) - std::popcount(was);
      from += in_word;
    }
  }

  record_header* header_at(std::uint64_t pos) noexcept {
    return reinterpret_cast<record_header*>(ring_->cells() + pos * cell_bytes);
  }

  ring_shared* ring_ = nullptr;
  std::uint64_t ncells_ = 0;
  std::uint64_t tail_ = 0;
  std::uint64_t cached_head_ = 0;
  std::uint64_t pending_cells_ = 0;
  /// A bit per cell: set while its first word is payload (or argument words) of a large
  /// record of an earlier lap, which its consumer did not zero and could take for a tag.
  std::vector<std::uint64_t> payload_;
  std::uint64_t marked_ = 0;  ///< bits set in payload_
};

/// The consumer's private view of one ring.
class ring_consumer {
 public:
  ring_consumer() = default;
  ring_consumer(ring_shared* ring, std::uint64_t ncells) : ring_(ring), ncells_(ncells) {}

  /// The next complete record, or nullptr. Skips padding.
  record_header* peek() noexcept {
    for (;;) {
      auto* h = reinterpret_cast<record_header*>(ring_->cells() + (head_ & (ncells_ - 1)) * cell_bytes);
      if (h->tag.load(std::memory_order_acquire) != head_ + 1) return nullptr;
      if ((h->flags & record_kind_mask) != record_pad) return h;
      release_cells(h->length);
    }
  }

  /// Hand a consumed record of `bytes` back to the producer.
  void release(std::size_t bytes) noexcept { release_cells(cells_for(bytes)); }

 private:
  void release_cells(std::uint64_t n) noexcept {
    if (n <= small_record_cells) {
      unsigned char* base = ring_->cells();
      for (std::uint64_t i = 0; i < n; ++i) {
        auto* tag = reinterpret_cast<std::atomic<std::uint64_t>*>(
            base + ((head_ + i) & (ncells_ - 1)) * cell_bytes);
        tag->store(0, std::memory_order_relaxed);
      }
    }
    head_ += n;
    ring_->head.store(head_, std::memory_order_release);
  }

  ring_shared* ring_ = nullptr;
  std::uint64_t ncells_ = 0;
  std::uint64_t head_ = 0;
};

}  // namespace splitc::port
