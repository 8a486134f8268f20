// Porting kit: a lock-free single-producer single-consumer ring of
// variable-length records in shared memory: the wire of the smp backend and of
// the same-host layer's messages (port/same_host.hpp). One ring per ordered
// pair of processes and per network (requests, replies); the records are
// active messages (port/ring_messages.hpp).
//
// The ring is an array of 64-byte cells. A record starts on a cell with a
// 16-byte header whose first word is a tag = absolute cell index + 1, stored
// last with release semantics: the consumer polls that one word, so an
// arriving message costs one cache-line transfer, like a raw ping-pong. The
// consumer zeroes the tag word of every cell it consumed before it publishes
// its position, so stale payload can never look like a valid header. The
// producer re-reads the consumer's position only when its cached copy says
// the ring is full.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

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

/// The producer's private view of one ring.
class ring_producer {
 public:
  ring_producer() = default;
  /// `ncells` is a power of two (positions are masked, not divided).
  ring_producer(ring_shared* ring, std::uint64_t ncells) : ring_(ring), ncells_(ncells) {}

  /// Room for a record of `bytes`; nullptr when the ring is full (no_resource).
  /// After filling it, call publish(). The common case (room known, no wrap)
  /// is inlined into every sender: left to the compiler, the call stayed in
  /// some senders (store's path) and not in others; inlined, a send costs
  /// ~0.4 ns less (docs/performance.md "The store bar").
  [[gnu::always_inline]] unsigned char* reserve(std::size_t bytes) noexcept {
    const std::uint64_t need = cells_for(bytes);
    const std::uint64_t pos = tail_ & (ncells_ - 1);
    if (pos + need <= ncells_ && tail_ + need - cached_head_ <= ncells_) [[likely]] {
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

  /// Make the reserved record visible to the consumer.
  [[gnu::always_inline]] void publish(unsigned char* record) noexcept {
    reinterpret_cast<record_header*>(record)->tag.store(tail_ + 1, std::memory_order_release);
    tail_ += pending_cells_;
  }

 private:
  /// reserve() when the cached head says full or the record would wrap:
  /// look at the consumer's head again, pad to the ring's end.
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
      h->tag.store(tail_ + 1, std::memory_order_release);
      tail_ += pad;
      pos = 0;
    }
    pending_cells_ = need;
    return ring_->cells() + pos * cell_bytes;
  }

  record_header* header_at(std::uint64_t pos) noexcept {
    return reinterpret_cast<record_header*>(ring_->cells() + pos * cell_bytes);
  }

  ring_shared* ring_ = nullptr;
  std::uint64_t ncells_ = 0;
  std::uint64_t tail_ = 0;
  std::uint64_t cached_head_ = 0;
  std::uint64_t pending_cells_ = 0;
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
    unsigned char* base = ring_->cells();
    for (std::uint64_t i = 0; i < n; ++i) {
      auto* tag = reinterpret_cast<std::atomic<std::uint64_t>*>(
          base + ((head_ + i) & (ncells_ - 1)) * cell_bytes);
      tag->store(0, std::memory_order_relaxed);
    }
    head_ += n;
    ring_->head.store(head_, std::memory_order_release);
  }

  ring_shared* ring_ = nullptr;
  std::uint64_t ncells_ = 0;
  std::uint64_t head_ = 0;
};

}  // namespace splitc::port
