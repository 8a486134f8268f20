// The kit's SPSC ring (port/shm_ring.hpp) on malloc'd memory: wrap padding, full ring, sizes,
// two-thread stress; and its active-message records (port/ring_messages.hpp): a long message in pieces.
#include <splitc/port/ring_messages.hpp>
#include <splitc/port/shm_ring.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <new>
#include <random>
#include <thread>
#include <vector>

namespace {

using namespace splitc::port;

/// A ring of `ncells` cells in zeroed, 64-byte-aligned heap memory.
class test_ring {
 public:
  explicit test_ring(std::uint64_t ncells) : ncells_(ncells) {
    const std::size_t bytes = sizeof(ring_shared) + ncells * cell_bytes;
    memory_ = std::aligned_alloc(64, bytes);
    std::memset(memory_, 0, bytes);
    shared_ = new (memory_) ring_shared;
    shared_->head.store(0);
    producer = ring_producer(shared_, ncells);
    consumer = ring_consumer(shared_, ncells);
  }
  ~test_ring() { std::free(memory_); }
  test_ring(const test_ring&) = delete;
  test_ring& operator=(const test_ring&) = delete;

  unsigned char* cell(std::uint64_t i) { return shared_->cells() + i * cell_bytes; }
  std::uint64_t published_head() const { return shared_->head.load(); }
  std::uint64_t ncells() const { return ncells_; }

  ring_producer producer;
  ring_consumer consumer;

 private:
  std::uint64_t ncells_;
  void* memory_ = nullptr;
  ring_shared* shared_ = nullptr;
};

unsigned char pattern(std::uint64_t seq, std::size_t i) {
  return static_cast<unsigned char>((seq * 131 + i * 7 + (i >> 8)) & 0xff);
}

/// Produce one medium-style record carrying `len` payload bytes; false when the ring is full.
bool produce(ring_producer& p, std::uint64_t seq, std::size_t len,
             unsigned char** where = nullptr) {
  unsigned char* r = p.reserve(sizeof(record_header) + 8 + len);
  if (r == nullptr) return false;
  auto* h = reinterpret_cast<record_header*>(r);
  h->handler = static_cast<std::uint16_t>(seq & 0xffff);
  h->nargs = 1;
  h->flags = record_medium;
  h->length = static_cast<std::uint32_t>(len);
  std::memcpy(r + sizeof(record_header), &seq, 8);
  unsigned char* payload = r + sizeof(record_header) + 8;
  for (std::size_t i = 0; i < len; ++i) payload[i] = pattern(seq, i);
  if (where != nullptr) *where = r;
  p.publish(r);
  return true;
}

/// Consume one record, checking it is record `seq` of `len` bytes; false when none is there.
bool consume(ring_consumer& c, std::uint64_t seq, std::size_t len) {
  record_header* h = c.peek();
  if (h == nullptr) return false;
  EXPECT_EQ(h->flags & record_kind_mask, record_medium);
  EXPECT_EQ(h->nargs, 1);
  EXPECT_EQ(h->handler, static_cast<std::uint16_t>(seq & 0xffff));
  EXPECT_EQ(h->length, len);
  auto* r = reinterpret_cast<unsigned char*>(h);
  std::uint64_t got_seq = 0;
  std::memcpy(&got_seq, r + sizeof(record_header), 8);
  EXPECT_EQ(got_seq, seq);
  const unsigned char* payload = r + sizeof(record_header) + 8;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < len; ++i) bad += payload[i] != pattern(seq, i);
  EXPECT_EQ(bad, 0u) << "record " << seq << " of " << len << " bytes";
  c.release(sizeof(record_header) + 8 + h->length);
  return true;
}

TEST(SmpRing, LayoutConstants) {
  EXPECT_EQ(sizeof(record_header), 16u);
  EXPECT_EQ(sizeof(ring_shared), 64u);
  EXPECT_EQ(record_prefix(0, false), 16u);
  EXPECT_EQ(record_prefix(8, false), 16u + 64u);
  EXPECT_EQ(record_prefix(1, true), 16u + 8u + 8u);
  EXPECT_EQ(cells_for(1), 1u);
  EXPECT_EQ(cells_for(64), 1u);
  EXPECT_EQ(cells_for(65), 2u);
}

TEST(SmpRing, EmptyRingHasNothing) {
  test_ring ring(16);
  EXPECT_EQ(ring.consumer.peek(), nullptr);
}

TEST(SmpRing, ReservedButUnpublishedRecordIsInvisible) {
  test_ring ring(16);
  unsigned char* r = ring.producer.reserve(40);
  ASSERT_NE(r, nullptr);
  auto* h = reinterpret_cast<record_header*>(r);
  h->handler = 1;
  h->nargs = 0;
  h->flags = record_short;
  h->length = 0;
  std::memset(r + sizeof(record_header), 0xab, 24);  // everything but the tag is written
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  ring.producer.publish(r);
  EXPECT_NE(ring.consumer.peek(), nullptr);
}

TEST(SmpRing, OneRecordRoundTrip) {
  test_ring ring(16);
  ASSERT_TRUE(produce(ring.producer, 7, 100));
  ASSERT_TRUE(consume(ring.consumer, 7, 100));
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  EXPECT_EQ(ring.published_head(), cells_for(sizeof(record_header) + 8 + 100));
}

TEST(SmpRing, ConsumerZeroesTheTagOfEveryCellOfASmallRecord) {
  test_ring ring(4 * small_record_cells);
  // The largest small record: payload bytes everywhere.
  const std::size_t len = small_record_cells * cell_bytes - sizeof(record_header) - 8;
  ASSERT_TRUE(produce(ring.producer, 1, len));
  const std::uint64_t cells = cells_for(sizeof(record_header) + 8 + len);
  ASSERT_EQ(cells, small_record_cells);
  ASSERT_TRUE(consume(ring.consumer, 1, len));
  for (std::uint64_t i = 0; i < cells; ++i) {
    std::uint64_t tag;
    std::memcpy(&tag, ring.cell(i), 8);
    EXPECT_EQ(tag, 0u) << "cell " << i;
  }
}

TEST(SmpRing, ConsumerOnlyReadsALargeRecord) {
  test_ring ring(4 * small_record_cells);
  // The smallest large record: payload bytes everywhere.
  const std::size_t len = small_record_cells * cell_bytes - sizeof(record_header) - 8 + 1;
  ASSERT_TRUE(produce(ring.producer, 1, len));
  const std::uint64_t cells = cells_for(sizeof(record_header) + 8 + len);
  ASSERT_EQ(cells, small_record_cells + 1);
  std::vector<unsigned char> before(ring.cell(0), ring.cell(cells));
  ASSERT_TRUE(consume(ring.consumer, 1, len));
  EXPECT_TRUE(std::equal(before.begin(), before.end(), ring.cell(0)))
      << "the consumer wrote into the cells of a large record";
  EXPECT_EQ(ring.published_head(), cells);
}

// Payload whose first word in every cell is the tag the consumer will expect there on the
// next lap: the producer must clear each such word before a record ends in front of it, or
// the consumer would take old payload for a record. Checked over laps of one-cell records
// (every cell a header position) after a large record, and again after a wrap with padding.
TEST(SmpRing, PayloadOfAnEarlierLapIsNeverTakenForAHeader) {
  constexpr std::uint64_t s = small_record_cells, n = 4 * s;
  test_ring ring(n);
  auto forge = [&](std::uint64_t seq, std::uint64_t first_cell, std::uint64_t cells,
                   std::uint64_t lap_ahead) {
    unsigned char* r = ring.producer.reserve(cells * cell_bytes);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r, ring.cell(first_cell % n));
    auto* h = reinterpret_cast<record_header*>(r);
    h->handler = static_cast<std::uint16_t>(seq);
    h->nargs = 0;
    h->flags = record_medium;
    h->length = static_cast<std::uint32_t>(cells * cell_bytes - sizeof(record_header));
    for (std::uint64_t c = 1; c < cells; ++c) {  // each continuation cell's first word
      const std::uint64_t forged = first_cell + c + lap_ahead * n + 1;
      std::memcpy(r + c * cell_bytes, &forged, 8);
    }
    ring.producer.publish(r);
    record_header* got = ring.consumer.peek();
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(got->handler, static_cast<std::uint16_t>(seq));
    ring.consumer.release(cells * cell_bytes);
  };
  // Lap 0: a large record of 2s cells whose payload forges lap 1's tags; then one-cell records.
  forge(1, 0, 2 * s, 1);
  for (std::uint64_t c = 2 * s; c < n; ++c) {
    ASSERT_TRUE(produce(ring.producer, c, 8));
    ASSERT_TRUE(consume(ring.consumer, c, 8));
  }
  // Lap 1: one-cell records land on every forged word; nothing more may be seen after each.
  for (std::uint64_t c = 0; c < n; ++c) {
    ASSERT_EQ(ring.consumer.peek(), nullptr) << "lap 1, cell " << c << ": old payload taken for a record";
    ASSERT_TRUE(produce(ring.producer, 100 + c, 8));
    ASSERT_TRUE(consume(ring.consumer, 100 + c, 8));
  }
  ASSERT_EQ(ring.consumer.peek(), nullptr);
  // Lap 2: a record of 2s + 2 cells forging lap 3's tags, then one of 2s - 1 cells, which
  // does not fit before the end: padding over cells 2s + 2 .. n - 1 (whose old words stay),
  // the record at cell 0 of lap 3, and one-cell records over the rest of lap 3 (the first
  // three on forged words).
  forge(2, 2 * n, 2 * s + 2, 1);
  unsigned char* where = nullptr;
  const std::size_t len = (2 * s - 1) * cell_bytes - sizeof(record_header) - 8;
  ASSERT_TRUE(produce(ring.producer, 200, len, &where));
  EXPECT_EQ(where, ring.cell(0));
  ASSERT_TRUE(consume(ring.consumer, 200, len));
  for (std::uint64_t c = 2 * s - 1; c < n; ++c) {
    ASSERT_EQ(ring.consumer.peek(), nullptr) << "lap 3, cell " << c << ": old payload taken for a record";
    ASSERT_TRUE(produce(ring.producer, 300 + c, 8));
    ASSERT_TRUE(consume(ring.consumer, 300 + c, 8));
  }
  ASSERT_EQ(ring.consumer.peek(), nullptr);
}

TEST(SmpRing, WrapAroundInsertsPaddingAndRestartsAtCellZero) {
  test_ring ring(16);
  // Records of 3 cells: five fill cells 0..14, the sixth does not fit in cell 15.
  const std::size_t len = 3 * cell_bytes - sizeof(record_header) - 8;
  std::uint64_t seq = 0;
  for (; seq < 5; ++seq) {
    ASSERT_TRUE(produce(ring.producer, seq, len));
    ASSERT_TRUE(consume(ring.consumer, seq, len));
  }
  unsigned char* where = nullptr;
  ASSERT_TRUE(produce(ring.producer, seq, len, &where));
  EXPECT_EQ(where, ring.cell(0)) << "the record after the padding starts at cell 0";
  // The pad record at cell 15 is published before the record it makes room for.
  auto* pad = reinterpret_cast<record_header*>(ring.cell(15));
  EXPECT_EQ(pad->flags & record_kind_mask, record_pad);
  EXPECT_EQ(pad->length, 1u);
  ASSERT_TRUE(consume(ring.consumer, seq, len));  // peek skips the padding
  EXPECT_EQ(ring.published_head(), 16u + 3u);
  ++seq;
  // Many more laps, with sizes that put the wrap point everywhere.
  for (int lap = 0; lap < 200; ++lap, ++seq) {
    const std::size_t n = static_cast<std::size_t>(lap * 37 % 400);
    ASSERT_TRUE(produce(ring.producer, seq, n)) << "lap " << lap;
    ASSERT_TRUE(consume(ring.consumer, seq, n)) << "lap " << lap;
    ASSERT_EQ(ring.consumer.peek(), nullptr);
  }
}

TEST(SmpRing, FullRingReturnsNullptrUntilTheConsumerReleases) {
  test_ring ring(16);
  // One-cell records: exactly 16 fit.
  for (std::uint64_t i = 0; i < 16; ++i) ASSERT_TRUE(produce(ring.producer, i, 8)) << i;
  EXPECT_EQ(ring.producer.reserve(1), nullptr);
  EXPECT_EQ(ring.producer.reserve(64), nullptr);
  EXPECT_FALSE(produce(ring.producer, 16, 8));
  ASSERT_TRUE(consume(ring.consumer, 0, 8));
  EXPECT_TRUE(produce(ring.producer, 16, 8));  // room for exactly one again
  EXPECT_EQ(ring.producer.reserve(1), nullptr);
  for (std::uint64_t i = 1; i <= 16; ++i) ASSERT_TRUE(consume(ring.consumer, i, 8)) << i;
  EXPECT_EQ(ring.consumer.peek(), nullptr);
}

TEST(SmpRing, FullBecauseThePaddingDoesNotFit) {
  test_ring ring(16);
  // Ten one-cell records; consume two: 8 cells free, but only 6 contiguous at the end
  // and 2 at the start.
  for (std::uint64_t i = 0; i < 10; ++i) ASSERT_TRUE(produce(ring.producer, i, 8));
  ASSERT_TRUE(consume(ring.consumer, 0, 8));
  ASSERT_TRUE(consume(ring.consumer, 1, 8));
  const std::size_t eight_cells = 8 * cell_bytes - sizeof(record_header) - 8;
  EXPECT_FALSE(produce(ring.producer, 10, eight_cells));
  // A failed reserve leaves no trace: the consumer still sees records 2..9 only.
  for (std::uint64_t i = 2; i < 10; ++i) ASSERT_TRUE(consume(ring.consumer, i, 8)) << i;
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  // Now it fits, after 6 cells of padding, at cell 0.
  unsigned char* where = nullptr;
  ASSERT_TRUE(produce(ring.producer, 10, eight_cells, &where));
  EXPECT_EQ(where, ring.cell(0));
  ASSERT_TRUE(consume(ring.consumer, 10, eight_cells));
}

TEST(SmpRing, RecordFillingTheWholeRing) {
  test_ring ring(16);
  const std::size_t whole = 16 * cell_bytes - sizeof(record_header) - 8;
  ASSERT_TRUE(produce(ring.producer, 1, whole));
  EXPECT_EQ(ring.producer.reserve(1), nullptr);
  ASSERT_TRUE(consume(ring.consumer, 1, whole));
  EXPECT_EQ(ring.producer.reserve(16 * cell_bytes + 1), nullptr) << "larger than the ring";
}

TEST(SmpRing, ManySizesInterleavedWithContentChecks) {
  test_ring ring(1024);  // 64 KiB
  std::mt19937_64 rng(12345);
  std::deque<std::pair<std::uint64_t, std::size_t>> in_flight;
  std::uint64_t next = 0;
  std::size_t produced_bytes = 0;
  for (int step = 0; step < 20000; ++step) {
    const bool try_produce = (rng() % 3) != 0;
    if (try_produce) {
      // Mostly small, sometimes up to 16 KiB, including every size near a cell boundary.
      std::size_t len = rng() % 8 == 0 ? rng() % 16384 : rng() % 300;
      if (produce(ring.producer, next, len)) {
        in_flight.emplace_back(next++, len);
        produced_bytes += len;
        continue;
      }
      ASSERT_FALSE(in_flight.empty()) << "a " << len << "-byte record must fit an empty ring";
    }
    if (!in_flight.empty()) {
      ASSERT_TRUE(consume(ring.consumer, in_flight.front().first, in_flight.front().second));
      in_flight.pop_front();
    } else {
      ASSERT_EQ(ring.consumer.peek(), nullptr);
    }
  }
  while (!in_flight.empty()) {
    ASSERT_TRUE(consume(ring.consumer, in_flight.front().first, in_flight.front().second));
    in_flight.pop_front();
  }
  EXPECT_EQ(ring.consumer.peek(), nullptr);
  EXPECT_GT(next, 5000u);
  EXPECT_GT(produced_bytes, 64u * 1024u * 10u) << "the ring wrapped many times";
}

TEST(SmpRing, EverySizeFromZeroToEightCells) {
  test_ring ring(64);
  std::uint64_t seq = 0;
  for (int rounds = 0; rounds < 3; ++rounds) {
    for (std::size_t len = 0; len <= 8 * cell_bytes; ++len, ++seq) {
      ASSERT_TRUE(produce(ring.producer, seq, len));
      ASSERT_TRUE(consume(ring.consumer, seq, len));
    }
  }
}

TEST(SmpRing, TwoThreadStressWithChecksums) {
  test_ring ring(512);  // 32 KiB: the producer is often blocked on a full ring
  constexpr std::uint64_t records = 200000;
  std::atomic<std::uint64_t> producer_sum{0};
  std::uint64_t consumer_sum = 0;
  std::uint64_t consumer_errors = 0;

  auto length_of = [](std::uint64_t seq) -> std::size_t {
    std::uint64_t x = seq * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return (x % 16 == 0) ? x % 6000 : x % 200;
  };

  std::thread producer([&] {
    std::uint64_t sum = 0;
    for (std::uint64_t seq = 0; seq < records; ++seq) {
      const std::size_t len = length_of(seq);
      unsigned char* r;
      while ((r = ring.producer.reserve(sizeof(record_header) + 8 + len)) == nullptr)
        std::this_thread::yield();
      auto* h = reinterpret_cast<record_header*>(r);
      h->handler = static_cast<std::uint16_t>(seq);
      h->nargs = 1;
      h->flags = record_medium;
      h->length = static_cast<std::uint32_t>(len);
      std::memcpy(r + sizeof(record_header), &seq, 8);
      unsigned char* payload = r + sizeof(record_header) + 8;
      for (std::size_t i = 0; i < len; ++i) {
        payload[i] = pattern(seq, i);
        sum += payload[i];
      }
      sum += seq;
      ring.producer.publish(r);
    }
    producer_sum.store(sum);
  });

  for (std::uint64_t seq = 0; seq < records; ++seq) {
    record_header* h;
    while ((h = ring.consumer.peek()) == nullptr) std::this_thread::yield();
    auto* r = reinterpret_cast<unsigned char*>(h);
    std::uint64_t got;
    std::memcpy(&got, r + sizeof(record_header), 8);
    const std::size_t len = h->length;
    if (got != seq || len != length_of(seq) || h->handler != static_cast<std::uint16_t>(seq))
      ++consumer_errors;
    const unsigned char* payload = r + sizeof(record_header) + 8;
    for (std::size_t i = 0; i < len; ++i) {
      if (payload[i] != pattern(seq, i)) ++consumer_errors;
      consumer_sum += payload[i];
    }
    consumer_sum += got;
    ring.consumer.release(sizeof(record_header) + 8 + len);
  }
  producer.join();
  EXPECT_EQ(consumer_errors, 0u);
  EXPECT_EQ(consumer_sum, producer_sum.load());
  EXPECT_EQ(ring.consumer.peek(), nullptr);
}

}  // namespace

namespace {

/// What a drain delivered.
struct delivered {
  std::vector<splitc::am_message> messages;
  static void deliver(void* self, const splitc::am_message& m) {
    static_cast<delivered*>(self)->messages.push_back(m);
  }
  splitc::am_sink sink() { return {this, &delivered::deliver, 16}; }
};

}  // namespace

// A long message larger than a record (same_host::send_in_pieces): pieces are copied to
// their destination and delivered to nobody; the notification after them delivers the
// whole payload, in place. The ring holds two pieces at a time, so the producer resumes.
TEST(RingMessages, LongMessageInPiecesIsDeliveredOnceWhole) {
  test_ring t(64);  // 4 KiB
  std::vector<unsigned char> src(10000), dst(10000, 0);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = pattern(7, i);
  const splitc::am_word args[3] = {11, 22, 33};
  constexpr std::size_t piece = 1500;
  delivered got;
  std::size_t sent = 0;
  int pieces = 0, fulls = 0;
  while (sent < src.size()) {
    const std::size_t n = std::min(piece, src.size() - sent);
    if (ring_send(t.producer, splitc::handler_id{}, nullptr, 0, record_long | record_piece,
                  src.data() + sent, n, dst.data() + sent) != splitc::am_status::ok) {
      ++fulls;
      EXPECT_GT(ring_drain(t.consumer, 1, true, got.sink()), 0);
      continue;
    }
    sent += n;
    ++pieces;
  }
  EXPECT_GT(fulls, 0) << "the ring never filled: the test does not resume";
  ASSERT_EQ(ring_send_in_place(t.producer, splitc::handler_id{5}, args, 3, src.data(),
                               src.size(), dst.data(), nullptr),
            splitc::am_status::ok);
  EXPECT_TRUE(got.messages.empty()) << "a piece was delivered";
  while (ring_drain(t.consumer, 1, true, got.sink()) != 0) {
  }
  ASSERT_EQ(got.messages.size(), 1u);
  const splitc::am_message& m = got.messages[0];
  EXPECT_EQ(m.kind, splitc::am_kind::long_msg);
  EXPECT_EQ(m.handler, splitc::handler_id{5});
  EXPECT_EQ(m.length, src.size());
  EXPECT_EQ(m.payload, dst.data());
  ASSERT_EQ(m.nargs, 3);
  EXPECT_EQ(pieces, 7);
  EXPECT_EQ(m.args[0], 11u);
  EXPECT_EQ(m.args[2], 33u);
  EXPECT_EQ(dst, src);
  EXPECT_EQ(t.consumer.peek(), nullptr);
}
