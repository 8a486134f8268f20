// Teams and the full collective set: every collective (barrier, broadcast from every root,
// reductions, scans, gather/scatter and their vector forms, all-gather(v), all-to-all(v),
// reduce-scatter(v)) on the world, on split teams of uneven sizes ranked backwards, on teams
// split again (nested), on the host's team and on the rows and columns of a processor grid,
// small and large (several mailbox messages; the ring and binary-swap sizes), commutative and
// not, each checked against the sequential answer. Teams are destroyed and made again.
// Then long streams (staged: detail/streams.hpp), with and without staging space.
// Arguments: the largest per-member element count (smaller on the network backends), and the
// per-member block of the long streams in bytes (default 20000).
#include "harness.hpp"
#include "per_pair.hpp"

#include <splitc/grid_teams.hpp>
#include <splitc/spread_heap.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

using splitc::team;

std::size_t max_count = 5000;

/// Element i of world processor q's data, in a collective of the given salt.
std::int64_t value(int q, std::size_t i, int salt) {
  return static_cast<std::int64_t>(q) * 1000003 + static_cast<std::int64_t>(i) * 7 + salt;
}

/// A non-commutative operator: 2x2 integer matrices modulo a prime, multiplied.
struct mat {
  std::int64_t a, b, c, d;
  bool operator==(const mat&) const = default;
};
struct mat_mult {
  mat operator()(const mat& x, const mat& y) const {
    constexpr std::int64_t p = 1000003;
    return {(x.a * y.a + x.b * y.c) % p, (x.a * y.b + x.b * y.d) % p,
            (x.c * y.a + x.d * y.c) % p, (x.c * y.b + x.d * y.d) % p};
  }
};
mat mat_of(int q, std::size_t i) {
  return {q % 5 + 1, static_cast<std::int64_t>(i % 3), static_cast<std::int64_t>(q % 2), 1};
}

using splitc_tests::per_pair;

/// Sizes to try: one element, several mailbox messages, past binary_swap_threshold.
std::vector<std::size_t> counts_to_try(int n) {
  std::vector<std::size_t> counts{0, 1, 3, per_pair(n, 200)};
  if (max_count >= 3000) counts.push_back(3000);
  return counts;
}

void check_seed_collectives(const team& t, int salt) {
  const int n = t.size(), r = t.rank();
  splitc::barrier(t);
  // Broadcast from every root.
  for (int root = 0; root < n; ++root) {
    for (std::size_t count : {std::size_t{1}, std::size_t{300}}) {
      std::vector<std::int64_t> v(count);
      for (std::size_t i = 0; i < count; ++i) v[i] = value(t.proc(r), i, salt);
      splitc::broadcast(t, std::span<std::int64_t>(v), root);
      for (std::size_t i = 0; i < count; ++i)
        CHECK_MSG(v[i] == value(t.proc(root), i, salt), "broadcast root {} element {}", root, i);
    }
  }
  // Reductions and scans, commutative and not, one value and vectors.
  for (std::size_t count : {std::size_t{1}, std::size_t{500}, std::size_t{3000}}) {
    if (count > max_count) continue;
    std::vector<std::int64_t> sum(count), one(count), inc(count), exc(count);
    for (std::size_t i = 0; i < count; ++i) sum[i] = one[i] = inc[i] = exc[i] = value(t.proc(r), i, salt);
    splitc::reduce_to_all(t, std::span<std::int64_t>(sum), splitc::ops::add{});
    splitc::reduce_to_one(t, std::span<std::int64_t>(one), splitc::ops::add{});
    splitc::scan(t, std::span<std::int64_t>(inc), splitc::ops::add{});
    splitc::exclusive_scan(t, std::span<std::int64_t>(exc), splitc::ops::add{}, std::int64_t{0});
    for (std::size_t i = 0; i < count; ++i) {
      std::int64_t all = 0, upto = 0, before = 0;
      for (int k = 0; k < n; ++k) {
        all += value(t.proc(k), i, salt);
        if (k <= r) upto += value(t.proc(k), i, salt);
        if (k < r) before += value(t.proc(k), i, salt);
      }
      CHECK_MSG(sum[i] == all, "reduce_to_all element {} of {}", i, count);
      if (r == 0) CHECK_MSG(one[i] == all, "reduce_to_one element {}", i);
      CHECK_MSG(inc[i] == upto, "scan element {}", i);
      CHECK_MSG(exc[i] == before, "exclusive_scan element {}", i);
    }
    std::vector<mat> m(count), ms(count);
    for (std::size_t i = 0; i < count; ++i) m[i] = ms[i] = mat_of(t.proc(r), i);
    splitc::reduce_to_all(t, std::span<mat>(m), mat_mult{});
    splitc::scan(t, std::span<mat>(ms), mat_mult{});
    for (std::size_t i = 0; i < count; ++i) {
      mat all = mat_of(t.proc(0), i), upto = all;
      for (int k = 1; k < n; ++k) {
        all = mat_mult{}(all, mat_of(t.proc(k), i));
        if (k <= r) upto = all;
      }
      CHECK_MSG(m[i] == all, "non-commutative reduce_to_all element {} of {}", i, count);
      CHECK_MSG(ms[i] == upto, "non-commutative scan element {}", i);
    }
  }
}

void check_exchanges(const team& t, int salt) {
  const int n = t.size(), r = t.rank();
  const auto un = static_cast<std::size_t>(n);
  for (std::size_t count : counts_to_try(n)) {
    std::vector<std::int64_t> mine(count);
    for (std::size_t i = 0; i < count; ++i) mine[i] = value(t.proc(r), i, salt);
    // all_gather, gather at every root, scatter from every root.
    std::vector<std::int64_t> all(count * un, -1);
    splitc::all_gather(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(all));
    for (int q = 0; q < n; ++q)
      for (std::size_t i = 0; i < count; ++i)
        CHECK_MSG(all[static_cast<std::size_t>(q) * count + i] == value(t.proc(q), i, salt),
                  "all_gather rank {} element {} of {}", q, i, count);
    for (int root = 0; root < n; ++root) {
      std::vector<std::int64_t> gathered(r == root ? count * un : 0, -1);
      splitc::gather(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(gathered), root);
      if (r == root) CHECK_MSG(gathered == all, "gather to root {} of {}", root, count);
      std::vector<std::int64_t> part(count, -1);
      splitc::scatter(t, std::span<const std::int64_t>(all), std::span<std::int64_t>(part), root);
      CHECK_MSG(part == mine, "scatter from root {} of {}", root, count);
    }
    // all_to_all: block q of rank r's data is value(r, q * count + i).
    std::vector<std::int64_t> send(count * un), received(count * un, -1);
    for (std::size_t k = 0; k < count * un; ++k) send[k] = value(t.proc(r), k, salt);
    splitc::all_to_all(t, std::span<const std::int64_t>(send), std::span<std::int64_t>(received));
    for (int q = 0; q < n; ++q)
      for (std::size_t i = 0; i < count; ++i)
        CHECK_MSG(received[static_cast<std::size_t>(q) * count + i] ==
                      value(t.proc(q), static_cast<std::size_t>(r) * count + i, salt),
                  "all_to_all from rank {} element {} of {}", q, i, count);
    // reduce_scatter, commutative (ring at large sizes) and not.
    std::vector<std::int64_t> block(count, -1);
    splitc::reduce_scatter(t, std::span<const std::int64_t>(send), std::span<std::int64_t>(block),
                           splitc::ops::add{});
    for (std::size_t i = 0; i < count; ++i) {
      std::int64_t s = 0;
      for (int q = 0; q < n; ++q) s += value(t.proc(q), static_cast<std::size_t>(r) * count + i, salt);
      CHECK_MSG(block[i] == s, "reduce_scatter element {} of {}", i, count);
    }
    if (count <= 200) {
      std::vector<mat> ms(count * un), mb(count);
      for (std::size_t k = 0; k < count * un; ++k) ms[k] = mat_of(t.proc(r) + static_cast<int>(k), k);
      splitc::reduce_scatter(t, std::span<const mat>(ms), std::span<mat>(mb), mat_mult{});
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t k = static_cast<std::size_t>(r) * count + i;
        mat acc = mat_of(t.proc(0) + static_cast<int>(k), k);
        for (int q = 1; q < n; ++q) acc = mat_mult{}(acc, mat_of(t.proc(q) + static_cast<int>(k), k));
        CHECK_MSG(mb[i] == acc, "non-commutative reduce_scatter element {}", i);
      }
    }
  }
  // Vector forms: rank q has (q * 37 + salt) % (max + 1) elements, some none.
  std::vector<std::size_t> counts(un);
  for (int q = 0; q < n; ++q)
    counts[static_cast<std::size_t>(q)] =
        static_cast<std::size_t>(q * 37 + salt) % (std::min<std::size_t>(max_count, 700) + 1);
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  std::vector<std::size_t> at(un + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), at.begin() + 1);
  std::vector<std::int64_t> mine(counts[static_cast<std::size_t>(r)]);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = value(t.proc(r), i, salt);
  std::vector<std::int64_t> expect(total);
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < counts[static_cast<std::size_t>(q)]; ++i)
      expect[at[static_cast<std::size_t>(q)] + i] = value(t.proc(q), i, salt);
  std::vector<std::int64_t> all(total, -1);
  splitc::all_gatherv(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(all),
                      std::span<const std::size_t>(counts));
  CHECK_MSG(all == expect, "all_gatherv of {} elements", total);
  const int root = n - 1;
  std::vector<std::int64_t> gathered(r == root ? total : 0, -1);
  splitc::gatherv(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(gathered),
                  std::span<const std::size_t>(counts), root);
  if (r == root) CHECK(gathered == expect);
  std::vector<std::int64_t> part(mine.size(), -1);
  splitc::scatterv(t, std::span<const std::int64_t>(expect), std::span<const std::size_t>(counts),
                   std::span<std::int64_t>(part), root);
  CHECK(part == mine);
  // all_to_allv: rank r sends (r + q) % 5 units of 50 elements to rank q (of 12 on 1024 members).
  const std::size_t unit = per_pair(n, 200) / 4;
  auto pair_count = [unit](int from, int to) { return static_cast<std::size_t>((from + to) % 5) * unit; };
  std::vector<std::size_t> send_counts(un), receive_counts(un);
  for (int q = 0; q < n; ++q) {
    send_counts[static_cast<std::size_t>(q)] = pair_count(r, q);
    receive_counts[static_cast<std::size_t>(q)] = pair_count(q, r);
  }
  std::vector<std::int64_t> send, expected_back;
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < pair_count(r, q); ++i) send.push_back(value(t.proc(r), i, salt + q));
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < pair_count(q, r); ++i) expected_back.push_back(value(t.proc(q), i, salt + r));
  std::vector<std::int64_t> back(expected_back.size(), -1);
  splitc::all_to_allv(t, std::span<const std::int64_t>(send), std::span<const std::size_t>(send_counts),
                      std::span<std::int64_t>(back), std::span<const std::size_t>(receive_counts));
  CHECK_MSG(back == expected_back, "all_to_allv of {} elements", back.size());
  // reduce_scatterv: rank q's block has counts[q] elements.
  std::vector<std::int64_t> in(total), out(counts[static_cast<std::size_t>(r)], -1);
  for (std::size_t k = 0; k < total; ++k) in[k] = value(t.proc(r), k, salt);
  splitc::reduce_scatterv(t, std::span<const std::int64_t>(in), std::span<std::int64_t>(out),
                          std::span<const std::size_t>(counts), splitc::ops::add{});
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t s = 0;
    for (int q = 0; q < n; ++q) s += value(t.proc(q), at[static_cast<std::size_t>(r)] + i, salt);
    CHECK_MSG(out[i] == s, "reduce_scatterv element {}", i);
  }
}

/// A 12-byte element (pieces and chunks that are not a power of two) and a 16-byte one (a
/// mailbox payload of 1000 bytes is not a whole number of them) summed by ops::add.
struct triple {
  std::int32_t a, b, c;
  bool operator==(const triple&) const = default;
};
struct pair16 {
  std::int64_t x, y;
  bool operator==(const pair16&) const = default;
  pair16 operator+(const pair16& r) const { return {x + r.x, y + r.y}; }
};

std::size_t large_bytes = 20000;  ///< per-member block of the staged streams' checks

triple triple_of(int q, std::size_t i, int salt) {
  const auto v = static_cast<std::int32_t>(value(q, i, salt));
  return {v, -v, v ^ 0x5a5a};
}

/// Streams long enough to travel staged (detail/streams.hpp), some in more than one piece:
/// all-gather (Bruck's runs wrap around the buffer), all-to-all, gather, scatter of 12-byte
/// elements; reduce-to-all by binary swap (large) and by the butterfly (between the staging
/// threshold and the binary-swap one); reduce-scatter by the ring with 16-byte elements.
void check_large_streams(const team& t, int salt) {
  const int n = t.size(), r = t.rank();
  const auto un = static_cast<std::size_t>(n);
  const std::size_t count = large_bytes / sizeof(triple);
  std::vector<triple> mine(count);
  for (std::size_t i = 0; i < count; ++i) mine[i] = triple_of(t.proc(r), i, salt);
  std::vector<triple> all(count * un);
  splitc::all_gather(t, std::span<const triple>(mine), std::span<triple>(all));
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < count; ++i)
      CHECK_MSG(all[static_cast<std::size_t>(q) * count + i] == triple_of(t.proc(q), i, salt),
                "staged all_gather rank {} element {} of {}", q, i, count);
  const int root = n - 1;
  std::vector<triple> gathered(r == root ? count * un : 0);
  splitc::gather(t, std::span<const triple>(mine), std::span<triple>(gathered), root);
  if (r == root) CHECK_MSG(gathered == all, "staged gather of {}", count);
  std::vector<triple> part(count);
  splitc::scatter(t, std::span<const triple>(all), std::span<triple>(part), root);
  CHECK_MSG(part == mine, "staged scatter of {}", count);
  std::vector<triple> send(count * un), received(count * un);
  for (std::size_t k = 0; k < count * un; ++k) send[k] = triple_of(t.proc(r), k, salt + 1);
  splitc::all_to_all(t, std::span<const triple>(send), std::span<triple>(received));
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < count; ++i)
      CHECK_MSG(received[static_cast<std::size_t>(q) * count + i] ==
                    triple_of(t.proc(q), static_cast<std::size_t>(r) * count + i, salt + 1),
                "staged all_to_all from rank {} element {}", q, i);
  // Reductions: a vector of 2 * large_bytes (binary swap), and one of 12 KiB (butterfly).
  for (std::size_t bytes : {2 * large_bytes, std::size_t{12 * 1024}}) {
    std::vector<std::int64_t> v(bytes / sizeof(std::int64_t));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = value(t.proc(r), i, salt);
    splitc::reduce_to_all(t, std::span<std::int64_t>(v), splitc::ops::add{});
    for (std::size_t i = 0; i < v.size(); ++i) {
      std::int64_t sum = 0;
      for (int q = 0; q < n; ++q) sum += value(t.proc(q), i, salt);
      CHECK_MSG(v[i] == sum, "staged reduce_to_all of {} bytes, element {}", bytes, i);
    }
  }
  // The ring: blocks of 510 pairs (plain messages, 16-byte elements) and of large_bytes.
  for (std::size_t block : {std::size_t{510}, large_bytes / sizeof(pair16)}) {
    std::vector<pair16> in(block * un), out(block);
    for (std::size_t k = 0; k < in.size(); ++k)
      in[k] = {value(t.proc(r), k, salt), static_cast<std::int64_t>(k)};
    splitc::reduce_scatter(t, std::span<const pair16>(in), std::span<pair16>(out), splitc::ops::add{});
    for (std::size_t i = 0; i < block; ++i) {
      const std::size_t k = static_cast<std::size_t>(r) * block + i;
      pair16 sum{0, 0};
      for (int q = 0; q < n; ++q) sum = sum + pair16{value(t.proc(q), k, salt), static_cast<std::int64_t>(k)};
      CHECK_MSG(out[i] == sum, "reduce_scatter of pairs, block {} element {}", block, i);
    }
  }
}

/// Staged pieces from and into every kind of place within a page: a staged piece lies in its
/// buffer where its source lies in its page (src/mailbox.cpp), so a source at the page's last
/// byte puts it 4,095 bytes in, and a piece of 64 KiB from there fills a buffer made for smaller
/// pieces (64 KiB + 4 KiB, where the blocks of check_large_streams are 20,000 bytes) to its
/// last byte but one. An all-gather and an all-to-all of bytes, each block from `from` bytes
/// into a page to `to` bytes into one.
void check_staged_placements(const team& t) {
  const auto un = static_cast<std::size_t>(t.size());
  const auto r = static_cast<std::size_t>(t.rank());
  constexpr std::size_t page = 4096;
  auto byte_of = [](std::size_t q, std::size_t i, std::size_t salt) {
    return static_cast<unsigned char>((q * 131 + i * 7 + salt * 29 + i / 251) & 0xff);
  };
  for (const std::size_t bytes : {std::size_t{20000}, std::size_t{65536}})
    for (const auto& [from, to] : {std::pair<std::size_t, std::size_t>{0, 16}, {16, 0}, {1, 63},
                                  {4095, 0}, {4095, 4095}, {40, 8}}) {
      const std::size_t salt = bytes + from * 3 + to;
      void* in_page = std::aligned_alloc(page, (bytes * un + 2 * page) / page * page);
      void* out_page = std::aligned_alloc(page, (bytes * un + 2 * page) / page * page);
      CHECK(in_page != nullptr && out_page != nullptr);
      auto* in = static_cast<unsigned char*>(in_page) + from;
      auto* out = static_cast<unsigned char*>(out_page) + to;
      for (std::size_t i = 0; i < bytes; ++i) in[i] = byte_of(r, i, salt);
      splitc::all_gather(t, std::span<const unsigned char>(in, bytes),
                         std::span<unsigned char>(out, bytes * un));
      for (std::size_t q = 0; q < un; ++q)
        for (std::size_t i = 0; i < bytes; ++i)
          CHECK_MSG(out[q * bytes + i] == byte_of(q, i, salt),
                    "staged all_gather of {} bytes from {} into {} bytes into a page: rank {} "
                    "byte {}", bytes, from, to, q, i);
      for (std::size_t k = 0; k < bytes * un; ++k) in[k] = byte_of(r, k, salt + 1);
      splitc::all_to_all(t, std::span<const unsigned char>(in, bytes * un),
                         std::span<unsigned char>(out, bytes * un));
      for (std::size_t q = 0; q < un; ++q)
        for (std::size_t i = 0; i < bytes; ++i)
          CHECK_MSG(out[q * bytes + i] == byte_of(q, r * bytes + i, salt + 1),
                    "staged all_to_all of {} bytes from {} into {} bytes into a page: rank {} "
                    "byte {}", bytes, from, to, q, i);
      std::free(in_page);
      std::free(out_page);
    }
}

/// The same streams when a sender has no staging space: on a team just made (its channels have
/// no staging buffers yet) the even ranks fill their segment's private part first
/// (global_malloc), so their pieces follow in mailbox messages while the odd ranks' are staged;
/// then again with the space given back.
void check_streams_without_staging(const team& t) {
  team fresh = t.split(0, t.rank());
  std::vector<splitc::global_ptr<void>> filler;
  if (fresh.rank() % 2 == 0) {
    for (std::size_t chunk = std::size_t{1} << 24; chunk >= 64; chunk /= 2)
      while (auto p = splitc::global_malloc(chunk)) filler.push_back(p);
  }
  check_large_streams(fresh, 50);
  for (auto p : filler) splitc::global_free(p);
  check_large_streams(fresh, 51);
  fresh.destroy();
}

void check_team(const team& t, int salt) {
  CHECK(t.valid());
  CHECK(t.rank() >= 0 && t.rank() < t.size());
  CHECK(t.proc(t.rank()) == splitc::myproc());
  CHECK(t.rank_of(splitc::myproc()) == t.rank());
  check_seed_collectives(t, salt);
  check_exchanges(t, salt);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (argc > 1) max_count = static_cast<std::size_t>(std::atol(argv[1]));
  if (argc > 2) large_bytes = static_cast<std::size_t>(std::atol(argv[2]));
  const int me = splitc::myproc(), P = splitc::procs();

  // Staged streams, on the first (up to) 8 processors: the world's channels, and a team's.
  {
    team first = team::world().split(me < 8 ? 0 : team::no_color, me);
    if (first.valid()) {
      if (P <= 8) check_large_streams(team::world(), 60);
      check_large_streams(first, 61);
      check_staged_placements(first);
      check_streams_without_staging(first);
    }
    first.destroy();
  }

  team world = team::world();
  CHECK(world.size() == P && world.rank() == me && world.is_world());
  check_team(world, 1);
  // The world calls without a team give the same answers.
  {
    std::vector<std::int64_t> mine{me + 5}, all(static_cast<std::size_t>(P));
    splitc::all_gather(std::span<const std::int64_t>(mine), std::span<std::int64_t>(all));
    for (int q = 0; q < P; ++q) CHECK(all[static_cast<std::size_t>(q)] == q + 5);
  }

  // Uneven split ranked backwards: colors me % 3 (sizes differ when 3 does not divide P).
  for (int round = 0; round < 2; ++round) {
    team part = world.split(me % 3, P - me);
    CHECK(part.valid());
    int expect_size = 0;
    for (int q = 0; q < P; ++q) expect_size += q % 3 == me % 3;
    CHECK(part.size() == expect_size);
    for (int k = 0; k < part.size(); ++k) CHECK(part.proc(k) % 3 == me % 3);
    for (int k = 1; k < part.size(); ++k) CHECK(part.proc(k) < part.proc(k - 1));
    check_team(part, 10 + round);
    // Nested: halves of the part, one a single member when the part has 3 or 1.
    team half = part.split(part.rank() < (part.size() + 1) / 2 ? 0 : 1, part.rank());
    check_team(half, 20);
    // Collectives on overlapping teams interleaved: world, part, half.
    std::int64_t w = splitc::reduce_to_all(world, std::int64_t{me}, splitc::ops::add{});
    std::int64_t p = splitc::reduce_to_all(part, std::int64_t{me}, splitc::ops::add{});
    std::int64_t h = splitc::reduce_to_all(half, std::int64_t{1}, splitc::ops::add{});
    CHECK(w == static_cast<std::int64_t>(P) * (P - 1) / 2);
    std::int64_t ps = 0;
    for (int k = 0; k < part.size(); ++k) ps += part.proc(k);
    CHECK(p == ps);
    CHECK(h == half.size());
    half.destroy();
    CHECK(!half.valid());
    part.destroy();
  }
  // A member naming no_color gets an empty team; the others still form theirs.
  {
    team odd = world.split(me % 2 == 1 ? 0 : team::no_color, me);
    CHECK(odd.valid() == (me % 2 == 1));
    if (odd.valid()) {
      CHECK(odd.size() == P / 2);
      check_seed_collectives(odd, 30);
    }
    odd.destroy();
  }
  // The host's team: the host teams partition the processors (every processor in exactly one,
  // whose members agree on it). One team of P on smp; on the network backends, a team per
  // shared-memory group the backend reports (one per process with the same-host layer off).
  {
    team host = team::world().split_by_host();
    CHECK(host.size() >= 1 && host.rank_of(me) == host.rank());
    CHECK(splitc::reduce_to_all(host, 1, splitc::ops::add{}) == host.size());
    CHECK(splitc::reduce_to_all(host.rank() == 0 ? host.size() : 0, splitc::ops::add{}) == P);
    const std::int64_t first = splitc::reduce_to_all(host, std::int64_t{host.proc(0)}, splitc::ops::min{});
    CHECK(first == host.proc(0));
    if (std::string(splitc::backend_name()) == "smp") CHECK(host.size() == P);
    host.destroy();
  }
  // Rows and columns of a processor grid (a 2-D block-cyclic spread array's layout).
  {
    int rows = 1;
    for (int d = 1; d * d <= P; ++d)
      if (P % d == 0) rows = d;
    const int cols = P / rows;
    splitc::layout::blocked_cyclic_2d layout{static_cast<std::size_t>(rows * 4),
                                             static_cast<std::size_t>(cols * 4),
                                             static_cast<std::size_t>(rows),
                                             static_cast<std::size_t>(cols), 2, 2};
    team row = splitc::grid_row_team(layout);
    team col = splitc::grid_column_team(layout);
    CHECK(row.size() == cols && col.size() == rows);
    CHECK(row.rank() == me % cols && col.rank() == me / cols);
    // The owners of a block row are the row team's members (and of a block column, the
    // column team's): the teams are the array's processor grid.
    for (std::size_t bi = 0; bi < layout.n / layout.b1; ++bi)
      for (std::size_t bj = 0; bj < layout.m / layout.b2; ++bj) {
        const int owner = splitc::block_owner(layout.block_number({bi, bj}), P);
        if (bi % static_cast<std::size_t>(rows) == static_cast<std::size_t>(me / cols))
          CHECK(row.rank_of(owner) == static_cast<int>(bj % static_cast<std::size_t>(cols)));
        if (bj % static_cast<std::size_t>(cols) == static_cast<std::size_t>(me % cols))
          CHECK(col.rank_of(owner) == static_cast<int>(bi % static_cast<std::size_t>(rows)));
      }
    const std::int64_t row_sum = splitc::reduce_to_all(row, std::int64_t{me}, splitc::ops::add{});
    std::int64_t expect = 0;
    for (int k = 0; k < cols; ++k) expect += (me / cols) * cols + k;
    CHECK(row_sum == expect);
    check_exchanges(col, 40);
    row.destroy();
    col.destroy();
  }
  // What the collectives keep of the segment's private part (the world's staging buffers: this
  // program's own global_malloc space is all given back) stays within half of it, however
  // many receivers a processor has staged to (sim.teams.small_segment: a 16 MiB segment).
  {
    const splitc::heap_usage h = splitc::heap_statistics();
    CHECK_MSG(h.private_in_use <= h.private_capacity / 2,
              "the collectives keep {} bytes of the private part's {}", h.private_in_use,
              h.private_capacity);
  }
  splitc::barrier();
  return harness::pass("teams");
}
