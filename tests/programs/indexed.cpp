// Indexed transfers (splitc/indexed.hpp): gathers and scatters of elements of a cyclic
// spread array by index lists (random, with duplicates, thousands of them so that each
// owner gets several messages on the backends that send them), element lists of global
// pointers, indices from one processor's global pointer (negative ones too), lists of
// pieces of every length from 0 bytes to several KiB on every processor matched against
// local pieces cut elsewhere, and stores counted by store_sync / all_store_sync.
#include "harness.hpp"

#include <splitc/indexed.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr int per_proc = 700, lists = 2500, piece_bytes = 6000;

std::int64_t element(std::int64_t i, int round) { return i * 7919 + round * 1000003; }

/// A deterministic stream of numbers, different on each processor.
struct lcg {
  std::uint64_t state;
  std::uint64_t next() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  }
};

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  const std::int64_t n = static_cast<std::int64_t>(per_proc) * P;
  // A cyclic spread array: element i on processor i mod P, at row i div P.
  const splitc::spread_ptr<std::int64_t> a = splitc::all_spread_malloc<std::int64_t>(static_cast<std::size_t>(n));
  auto set_mine = [&](int round) {
    for (std::int64_t i = me; i < n; i += P) a.local()[i / P] = element(i, round);
  };
  set_mine(1);
  lcg rng{static_cast<std::uint64_t>(me) * 977 + 5};
  splitc::barrier();

  // 1. A gather of random indices (duplicates among them), and its split-phase form.
  {
    std::vector<std::ptrdiff_t> idx(lists);
    for (auto& i : idx) i = static_cast<std::ptrdiff_t>(rng.next() % static_cast<std::uint64_t>(n));
    idx[1] = idx[0];
    idx[2] = idx[0];
    std::vector<std::int64_t> got(lists, -1);
    splitc::bulk_get_indexed(got.data(), a, idx);
    splitc::sync();
    for (int k = 0; k < lists; ++k)
      CHECK_MSG(got[static_cast<std::size_t>(k)] == element(idx[static_cast<std::size_t>(k)], 1),
                "1: got[{}] (index {}) = {}", k, idx[static_cast<std::size_t>(k)], got[static_cast<std::size_t>(k)]);
    std::vector<std::int64_t> again(lists, -1);
    splitc::counter ctr;
    splitc::bulk_get_indexed(again.data(), a, idx, ctr);
    splitc::sync(ctr);
    CHECK(again == got);
    splitc::barrier();
  }

  // 2. A scatter: element i written by processor (3i + 1) mod P, in a shuffled order, some
  //    indices twice with the same value; each owner then checks its own elements.
  auto writer = [&](std::int64_t i) { return static_cast<int>((3 * i + 1) % P); };
  {
    std::vector<std::ptrdiff_t> idx;
    for (std::int64_t i = 0; i < n; ++i)
      if (writer(i) == me) idx.push_back(static_cast<std::ptrdiff_t>(i));
    for (std::size_t k = idx.size(); k > 1; --k) std::swap(idx[k - 1], idx[rng.next() % k]);
    if (idx.size() > 3) {
      idx.push_back(idx[0]);
      idx.push_back(idx[3]);
    }
    std::vector<std::int64_t> values(idx.size());
    for (std::size_t k = 0; k < idx.size(); ++k) values[k] = element(idx[k], 2);
    splitc::counter ctr;
    splitc::bulk_put_indexed(a, idx, values.data(), ctr);
    splitc::sync(ctr);
    splitc::barrier();
    for (std::int64_t i = me; i < n; i += P)
      CHECK_MSG(a.local()[i / P] == element(i, 2), "2: element {} = {}", i, a.local()[i / P]);
    splitc::barrier();
  }

  // 3. Element lists of global pointers: every processor's elements of round 2 read back
  //    (pointers built by hand, to the right neighbour first), then stores of round 3 to the
  //    same places by the writer of 2, counted with all_store_sync.
  {
    std::vector<splitc::global_ptr<std::int64_t>> ptrs;
    for (std::int64_t i = (me + 1) % P; i < n; i += 5) ptrs.push_back(a + i);
    std::vector<std::int64_t> got(ptrs.size());
    splitc::bulk_get_elements(got.data(), ptrs);
    splitc::sync();
    for (std::size_t k = 0; k < ptrs.size(); ++k)
      CHECK_MSG(got[k] == element((me + 1) % P + 5 * static_cast<std::int64_t>(k), 2), "3: got[{}]", k);
    splitc::barrier();
    std::vector<splitc::global_ptr<std::int64_t>> mine;
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < n; ++i)
      if (writer(i) == me) {
        mine.push_back(a + i);
        values.push_back(element(i, 3));
      }
    splitc::bulk_store_elements(mine, values.data());
    splitc::all_store_sync();
    for (std::int64_t i = me; i < n; i += P)
      CHECK_MSG(a.local()[i / P] == element(i, 3), "3: stored element {} = {}", i, a.local()[i / P]);
    splitc::barrier();
  }

  // 4. Indices from one processor's global pointer, the base in the middle of its part and
  //    negative indices reaching below it; a put of the same through bulk_put_elements.
  {
    const int owner = (me + P - 1) % P;
    const splitc::global_ptr<std::int64_t> middle(owner, a.local() + per_proc / 2);
    std::vector<std::ptrdiff_t> idx = {-per_proc / 2, 0, 5, -1, per_proc / 2 - 1, 5};
    std::vector<std::int64_t> got(idx.size());
    splitc::bulk_get_indexed(got.data(), middle, idx);
    splitc::sync();
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::int64_t row = per_proc / 2 + idx[k];
      CHECK_MSG(got[k] == element(row * P + owner, 3), "4: got[{}] = {}", k, got[k]);
    }
    splitc::barrier();
  }

  // 5. Pieces: a byte area per processor; a list of pieces of lengths 0 to several KiB on
  //    every processor (the empty ones too), got into local pieces cut at other places; then
  //    the first of them put into the right neighbour's second half, one piece after the
  //    other, and stored there again (other bytes) from one contiguous buffer.
  auto area = splitc::all_spread_malloc(static_cast<std::size_t>(P), 2 * piece_bytes);
  auto* bytes = static_cast<unsigned char*>(area.local());  // the same address everywhere
  for (int i = 0; i < piece_bytes; ++i) bytes[i] = static_cast<unsigned char>(me * 13 + i);
  std::memset(bytes + piece_bytes, 0, piece_bytes);
  splitc::barrier();
  {
    // Processor `who`'s list of pieces, and the bytes they hold.
    auto pieces_of = [&](int who, std::vector<splitc::global_piece>& remote,
                         std::vector<std::uint8_t>& want) {
      const std::size_t lengths[] = {0, 1, 3, 17, 0, 600, 8, 2999, 5, 2000};
      std::size_t offset = static_cast<std::size_t>(who);
      for (int q = 0; q < P; ++q)
        for (std::size_t len : lengths) {
          const int owner = (who + q) % P;
          offset = (offset + 37) % static_cast<std::size_t>(piece_bytes - 3000);
          remote.push_back({splitc::global_ptr<void>(owner, bytes + offset), len});
          for (std::size_t b = 0; b < len; ++b)
            want.push_back(static_cast<std::uint8_t>(owner * 13 + static_cast<int>(offset + b)));
        }
    };
    std::vector<splitc::global_piece> remote;
    std::vector<std::uint8_t> want;
    pieces_of(me, remote, want);
    std::vector<std::uint8_t> got(want.size(), 0);
    std::vector<splitc::local_piece> local;
    std::size_t cut = 0;
    for (std::size_t step = 1; cut < want.size(); step = step * 3 % 1001 + 1) {
      const std::size_t len = std::min(step, want.size() - cut);
      local.push_back({got.data() + cut, len});
      local.push_back({got.data() + cut + len, 0});
      cut += len;
    }
    splitc::bulk_get_pieces(local, remote);
    splitc::sync();
    for (std::size_t k = 0; k < want.size(); ++k) CHECK_MSG(got[k] == want[k], "5: byte {}", k);
    // As many of the pieces as fit, back-to-back in the right neighbour's second half.
    const int right = (me + 1) % P, left = (me + P - 1) % P;
    auto placed = [&](const std::vector<splitc::global_piece>& list, int to) {
      std::vector<splitc::global_piece> out;
      std::size_t next = 0;
      for (const auto& piece : list) {
        if (next + piece.len > static_cast<std::size_t>(piece_bytes)) break;
        out.push_back({splitc::global_ptr<void>(to, bytes + piece_bytes + next), piece.len});
        next += piece.len;
      }
      return std::pair{out, next};
    };
    const auto [out, sent] = placed(remote, right);
    std::vector<splitc::source_piece> from;
    for (const auto& piece : out)
      from.push_back({got.data() + (static_cast<unsigned char*>(piece.ptr.local()) - bytes - piece_bytes), piece.len});
    splitc::counter ctr;
    splitc::bulk_put_pieces(out, from, ctr);
    splitc::sync(ctr);
    splitc::barrier();
    std::vector<splitc::global_piece> left_remote;
    std::vector<std::uint8_t> left_want;
    pieces_of(left, left_remote, left_want);
    const std::size_t came = placed(left_remote, me).second;
    for (std::size_t k = 0; k < came; ++k)
      CHECK_MSG(bytes[piece_bytes + static_cast<int>(k)] == left_want[k], "5: put byte {}", k);
    splitc::barrier();
    std::vector<std::uint8_t> other(sent);
    for (std::size_t k = 0; k < sent; ++k) other[k] = static_cast<std::uint8_t>(got[k] ^ 0x5A);
    splitc::bulk_store_pieces(out, other.data());
    splitc::store_sync(static_cast<std::int64_t>(came));
    for (std::size_t k = 0; k < came; ++k)
      CHECK_MSG(bytes[piece_bytes + static_cast<int>(k)] == (left_want[k] ^ 0x5A), "5: stored byte {}", k);
    splitc::barrier();
  }
  return harness::pass("indexed");
}
