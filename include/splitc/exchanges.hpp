// Collectives that move each member's own data (beyond the seed's set, collectives.hpp):
// gather and scatter to and from a root, all-gather, all-to-all, their vector forms (a count
// per member), and reduce-scatter -- over all processors, or over a team's members (every call
// has a form whose first argument is the team; ranks then number the members).
//
//   gather(mine, all, root)              all[r*n .. r*n+n) = rank r's mine (n = mine.size()),
//                                        at root; elsewhere `all` is not touched (may be empty)
//   gatherv(mine, all, counts, root)     rank r's counts[r] elements, packed in rank order;
//                                        counts are read at the root only
//   scatter(all, mine, root)             the inverse of gather; scatterv(all, counts, mine, root)
//   all_gather(mine, all)                gather to every member; all_gatherv(mine, all, counts)
//   all_to_all(send, receive)            block q of send (send.size()/size elements) goes to
//                                        rank q, where it is block r of receive
//   all_to_allv(send, send_counts, receive, receive_counts)   the same with a count per member,
//                                        blocks packed in rank order
//   reduce_scatter(in, out, op)          out = block r of the reduction of every member's in
//                                        (in.size() == size * out.size()), combined in rank
//                                        order unless op is commutative (is_commutative)
//   reduce_scatterv(in, out, counts, op) blocks of counts[r] elements
//
// Sizes a member passes that cannot fit are reported at once; members that disagree on a count
// are reported by name where the data arrives (collective mismatch).
//
// Algorithms (detail below): gather and scatter go straight between the root and each member;
// all-gather takes ceil(log2 n) rounds (Bruck's dissemination, any n; each member sends the
// same bytes as a ring would); all-to-all is a pairwise exchange (n - 1 rounds, member r sends
// to r + k while it receives from r - k; blocks of one mailbox message are all sent first);
// reduce-scatter is a ring of n - 1 rounds for a commutative operator on at least
// binary_swap_threshold bytes, else a reduce-to-all of the whole vector whose own block each
// member keeps (rank order kept). Where the backend reads a peer's memory (has_peer_read: smp;
// udp, mpi and mpich between processes of one host) a long block is read by its receiver
// straight from the sender's buffer into place, one copy (detail/mailbox.hpp): the sender's
// call returns once its receivers have read it.
#pragma once

#include <splitc/collectives.hpp>
#include <splitc/detail/rank_table.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <span>
#include <vector>

namespace splitc {
namespace detail {

[[gnu::cold, noreturn]] void bad_collective_size(collective_group& g, const char* what,
                                                 const char* which, std::size_t got,
                                                 std::size_t needed);

/// A stream to `to` while one of `receive_len` bytes arrives from `from` (detail/streams.hpp),
/// in whole elements of `unit` bytes.
template <class Use>
inline void shift_stream(collective_group& g, proc_t to, const send_pieces& send, proc_t from,
                         std::size_t receive_len, Use use, std::size_t unit = 1) {
  exchange_streams(g, to, send, from, receive_len, unit, use);
}

/// A stream copied into place at both ends: what it sends may be lent to `to` rather than
/// staged, so the collective ends with mailbox_settle_sources.
inline void shift_into(collective_group& g, proc_t to, const send_pieces& send, proc_t from,
                       const receive_pieces& receive) {
  exchange_streams(g, to, send, from, receive.total(), 1,
                   [&](std::size_t at, const unsigned char* d, std::size_t len) {
                     copy_into_pieces(receive, at, d, len);
                   },
                   &receive);
}

/// Where each rank's block sits in a packed buffer of `counts[r]` elements of `size` bytes per
/// rank.
struct block_layout {
  rank_table offset;  ///< size + 1 entries, in bytes
  /// (A running sum, each entry written once and never read back here: rank_table's
  /// for_overwrite says why.)
  block_layout(std::span<const std::size_t> counts, std::size_t size)
      : offset(counts.size() + 1, rank_table::for_overwrite) {
    std::size_t at = 0;
    offset[0] = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) offset[r + 1] = at += counts[r] * size;
  }
  std::size_t at(proc_t r) const noexcept { return offset[static_cast<std::size_t>(r)]; }
  std::size_t bytes(proc_t r) const noexcept {
    return offset[static_cast<std::size_t>(r) + 1] - offset[static_cast<std::size_t>(r)];
  }
  std::size_t total() const noexcept { return offset.back(); }
  /// The blocks of ranks first, first+1, ... (count of them, wrapping past the last rank).
  template <class Byte>
  byte_pieces<Byte> run(Byte* base, proc_t first, proc_t count) const {
    const auto n = static_cast<proc_t>(offset.size() - 1);
    const proc_t end = first + count;
    byte_pieces<Byte> p;
    if (end <= n) {
      p.piece[0] = {base + at(first), at(end) - at(first)};
    } else {
      p.piece[0] = {base + at(first), total() - at(first)};
      p.piece[1] = {base, at(end - n)};
    }
    return p;
  }
};

/// Root receives every member's block; the others send theirs.
inline void gather_bytes(collective_group& g, const unsigned char* mine, std::size_t mine_bytes,
                         unsigned char* all, const block_layout* layout, proc_t root) {
  if (g.rank != root) {
    shift_into(g, root, one_piece(mine, mine_bytes), -1, {});
    mailbox_settle_sources(g);
    return;
  }
  for (proc_t r = 0; r < g.size; ++r) {
    if (r == root) {
      if (const std::size_t n = std::min(mine_bytes, layout->bytes(r)); n != 0)
        std::memcpy(all + layout->at(r), mine, n);  // a null buffer is legal when empty
      if (mine_bytes != layout->bytes(r)) [[unlikely]]
        collective_mismatch(g, r, mine_bytes, layout->bytes(r));
      continue;
    }
    shift_into(g, -1, {}, r, one_piece(all + layout->at(r), layout->bytes(r)));
  }
}

inline void scatter_bytes(collective_group& g, const unsigned char* all,
                          const block_layout* layout, unsigned char* mine, std::size_t mine_bytes,
                          proc_t root) {
  if (g.rank != root) {
    shift_into(g, -1, {}, root, one_piece(mine, mine_bytes));
    return;
  }
  for (proc_t r = 0; r < g.size; ++r) {
    if (r == root) {
      if (mine_bytes != layout->bytes(r)) [[unlikely]]
        collective_mismatch(g, r, layout->bytes(r), mine_bytes);
      if (mine_bytes != 0) std::memcpy(mine, all + layout->at(r), mine_bytes);
      continue;
    }
    shift_into(g, r, one_piece(all + layout->at(r), layout->bytes(r)), -1, {});
  }
  mailbox_settle_sources(g);
}

/// Bruck's all-gather, in place in `all` (this member's block already there, and at `mine`):
/// in round k (distance d = 2^k) a member sends the blocks of ranks r .. r+m-1
/// (m = min(d, n-d)) to r - d and receives those of r+d .. r+d+m-1 from r + d. The first
/// round's block, its own, goes from `mine`: a receiver reading it from our memory then reads
/// lines no core has just written (the copy into `all` has), which costs half as much
/// (docs/performance.md, "One copy for the collectives' streams").
inline void all_gather_bytes(collective_group& g, const unsigned char* mine, unsigned char* all,
                             const block_layout& layout) {
  const proc_t n = g.size, me = g.rank;
  for (proc_t d = 1; d < n; d *= 2) {
    const proc_t m = std::min(d, n - d);
    const auto send = d == 1 ? one_piece(mine, layout.bytes(me))
                             : layout.run<const unsigned char>(all, me, m);
    const auto receive = layout.run<unsigned char>(all, (me + d) % n, m);
    shift_into(g, (me - d + n) % n, send, (me + d) % n, receive);
  }
  mailbox_settle_sources(g);
}

/// Pairwise all-to-all: in round k, to rank r + k, from rank r - k. A block that fits in one
/// mailbox message waits for nobody, so all of those are sent before the first round: where
/// every block is small, the rounds only receive, and the call costs one hop instead of n - 1
/// in a row (each pair still carries one stream per call, so a receiver that expects another
/// size is told as before).
inline void all_to_all_bytes(collective_group& g, const unsigned char* send,
                             const block_layout& out, unsigned char* receive,
                             const block_layout& in) {
  const proc_t n = g.size, me = g.rank;
  if (out.bytes(me) != in.bytes(me)) [[unlikely]] collective_mismatch(g, me, out.bytes(me), in.bytes(me));
  if (in.bytes(me) != 0) std::memcpy(receive + in.at(me), send + out.at(me), in.bytes(me));
  const auto sent_first = [&](proc_t to) { return out.bytes(to) <= mailbox_payload_bytes; };
  for (proc_t k = 1; k < n; ++k) {
    const proc_t to = (me + k) % n;
    if (sent_first(to)) shift_into(g, to, one_piece(send + out.at(to), out.bytes(to)), -1, {});
  }
  for (proc_t k = 1; k < n; ++k) {
    const proc_t to = (me + k) % n, from = (me - k + n) % n;
    shift_into(g, sent_first(to) ? -1 : to, one_piece(send + out.at(to), out.bytes(to)), from,
               one_piece(receive + in.at(from), in.bytes(from)));
  }
  mailbox_settle_sources(g);
}

/// Ring reduce-scatter (commutative operators): in round s a member passes its partial sum of
/// block r - s - 1 to r + 1 and adds what r - 1 passes it into block r - s - 2; after n - 1
/// rounds block r is complete. `acc` holds every block, in elements.
template <class T, class Op>
inline void ring_reduce_scatter(collective_group& g, T* acc, const block_layout& layout, Op& op) {
  const proc_t n = g.size, me = g.rank;
  for (proc_t s = 0; s + 1 < n; ++s) {
    const proc_t out = ((me - s - 1) % n + n) % n, in = ((me - s - 2) % n + n) % n;
    auto* bytes = reinterpret_cast<unsigned char*>(acc);
    const send_pieces send = one_piece<const unsigned char>(bytes + layout.at(out), layout.bytes(out));
    T* target = acc + layout.at(in) / sizeof(T);
    shift_stream(g, (me + 1) % n, send, (me - 1 + n) % n, layout.bytes(in),
                 [&](std::size_t at, const unsigned char* d, std::size_t len) {
                   combine_elements(target + at / sizeof(T), d, len / sizeof(T), op);
                 },
                 sizeof(T));
  }
}

/// Reduce-scatter of blocks of counts[r] elements (checked by check_reduce_scatter), on T itself.
template <class T, class Op>
inline void reduce_scatter_algorithm(collective_group& g, std::span<const T> in, std::span<T> out,
                                     std::span<const std::size_t> counts, Op& op) {
  const block_layout layout(counts, sizeof(T));
  const auto mine = counts[static_cast<std::size_t>(g.rank)];
  std::vector<T> acc(in.begin(), in.end());
  prepare_operands(std::span<T>(acc), op);
  if constexpr (is_commutative<Op>) {
    if (g.size > 1 && layout.total() >= binary_swap_threshold) {
      ring_reduce_scatter(g, acc.data(), layout, op);
      const T* block = acc.data() + layout.at(g.rank) / sizeof(T);
      std::copy(block, block + mine, out.begin());
      return;
    }
  }
  // The whole vector reduced everywhere (rank order), each member keeping its block.
  reduce_to_all_on(g, std::span<T>(acc), op);
  const T* block = acc.data() + layout.at(g.rank) / sizeof(T);
  std::copy(block, block + mine, out.begin());
}

/// The algorithm once per element size, alignment and commutativity (detail/erased_reduction.hpp).
template <std::size_t N, std::size_t A, bool C>
inline void reduce_scatter_cells(collective_group& g, std::span<const erased_cell<N, A>> in,
                                 std::span<erased_cell<N, A>> out,
                                 std::span<const std::size_t> counts,
                                 erased_operator<N, A, C> op) {
  reduce_scatter_algorithm(g, in, out, counts, op);
}

template <class T, class Op>
inline void reduce_scatter_on(collective_group& g, std::span<const T> in, std::span<T> out,
                              std::span<const std::size_t> counts, Op& op) {
  if constexpr (runs_erased<T, Op>)
    reduce_scatter_cells(g, as_cells(in), as_cells(out), counts, erased<T>(op));
  else reduce_scatter_algorithm(g, in, out, counts, op);
}

template <class T>
inline const unsigned char* bytes_of(std::span<const T> s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}
template <class T>
inline unsigned char* bytes_of(std::span<T> s) {
  return reinterpret_cast<unsigned char*>(s.data());
}

// ---- the checks of a member's own arguments ---------------------------------------------
// Made at the call, before anything moves: a split-phase form makes them before it returns,
// so a size that cannot fit is reported from the caller's own stack. What needs another
// member's arguments (counts that disagree) is found where the data arrives.

inline void check_counts(collective_group& g, const char* what, std::span<const std::size_t> counts) {
  if (counts.size() != static_cast<std::size_t>(g.size)) [[unlikely]]
    bad_collective_size(g, what, "the counts", counts.size(), static_cast<std::size_t>(g.size));
}
inline void check_root(collective_group& g, proc_t root, const char* what) {
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(g.size)) [[unlikely]] bad_root(g, root, what);
}
inline std::size_t counts_total(std::span<const std::size_t> counts) {
  return std::accumulate(counts.begin(), counts.end(), std::size_t{0});
}

/// gather: the root; at the root, a count per member and room for them all.
template <class T>
inline void check_gather(collective_group& g, std::span<const T> all,
                         std::span<const std::size_t> counts, proc_t root, const char* what) {
  check_root(g, root, what);
  if (g.rank != root) return;
  check_counts(g, what, counts);
  if (all.size() < counts_total(counts)) [[unlikely]]
    bad_collective_size(g, what, "the result", all.size(), counts_total(counts));
}
/// scatter: the same as gather, `all` being the data the root sends.
template <class T>
inline void check_scatter(collective_group& g, std::span<const T> all,
                          std::span<const std::size_t> counts, proc_t root, const char* what) {
  check_root(g, root, what);
  if (g.rank != root) return;
  check_counts(g, what, counts);
  if (all.size() < counts_total(counts)) [[unlikely]]
    bad_collective_size(g, what, "the data", all.size(), counts_total(counts));
}
/// all-gather: a count per member, this member's own among them, and room for them all.
template <class T>
inline void check_all_gather(collective_group& g, std::span<const T> mine, std::span<T> all,
                             std::span<const std::size_t> counts, const char* what) {
  check_counts(g, what, counts);
  if (all.size() < counts_total(counts)) [[unlikely]]
    bad_collective_size(g, what, "the result", all.size(), counts_total(counts));
  if (mine.size() != counts[static_cast<std::size_t>(g.rank)]) [[unlikely]]
    bad_collective_size(g, what, "this member's data", mine.size(), counts[static_cast<std::size_t>(g.rank)]);
}
/// all-to-all: a count per member each way, and the data and room they add up to.
template <class T>
inline void check_all_to_all(collective_group& g, std::span<const T> send,
                             std::span<const std::size_t> send_counts, std::span<T> receive,
                             std::span<const std::size_t> receive_counts, const char* what) {
  check_counts(g, what, send_counts);
  check_counts(g, what, receive_counts);
  if (send.size() < counts_total(send_counts)) [[unlikely]]
    bad_collective_size(g, what, "the data sent", send.size(), counts_total(send_counts));
  if (receive.size() < counts_total(receive_counts)) [[unlikely]]
    bad_collective_size(g, what, "the result", receive.size(), counts_total(receive_counts));
}
/// reduce-scatter: a count per member adding up to the data, this member's block its result.
template <class T>
inline void check_reduce_scatter(collective_group& g, std::span<const T> in, std::span<T> out,
                                 std::span<const std::size_t> counts, const char* what) {
  check_counts(g, what, counts);
  if (in.size() != counts_total(counts)) [[unlikely]]
    bad_collective_size(g, what, "the data", in.size(), counts_total(counts));
  const auto mine = counts[static_cast<std::size_t>(g.rank)];
  if (out.size() != mine) [[unlikely]] bad_collective_size(g, what, "the result", out.size(), mine);
}

// ---- the movers (their arguments checked) ------------------------------------------------

template <class T>
inline void gather_on(collective_group& g, std::span<const T> mine, std::span<T> all,
                      std::span<const std::size_t> counts, proc_t root) {
  if (g.rank != root) {
    gather_bytes(g, bytes_of(mine), mine.size_bytes(), nullptr, nullptr, root);
    return;
  }
  const block_layout layout(counts, sizeof(T));
  gather_bytes(g, bytes_of(mine), mine.size_bytes(), bytes_of(all), &layout, root);
}

template <class T>
inline void scatter_on(collective_group& g, std::span<const T> all,
                       std::span<const std::size_t> counts, std::span<T> mine, proc_t root) {
  if (g.rank != root) {
    scatter_bytes(g, nullptr, nullptr, bytes_of(mine), mine.size_bytes(), root);
    return;
  }
  const block_layout layout(counts, sizeof(T));
  scatter_bytes(g, bytes_of(all), &layout, bytes_of(mine), mine.size_bytes(), root);
}

template <class T>
inline void all_gather_on(collective_group& g, std::span<const T> mine, std::span<T> all,
                          std::span<const std::size_t> counts) {
  const block_layout layout(counts, sizeof(T));
  if (mine.size_bytes() != 0)  // an empty span's data may be null
    std::memcpy(bytes_of(all) + layout.at(g.rank), bytes_of(mine), mine.size_bytes());
  all_gather_bytes(g, bytes_of(mine), bytes_of(all), layout);
}

template <class T>
inline void all_to_all_on(collective_group& g, std::span<const T> send,
                          std::span<const std::size_t> send_counts, std::span<T> receive,
                          std::span<const std::size_t> receive_counts) {
  const block_layout out(send_counts, sizeof(T)), in(receive_counts, sizeof(T));
  all_to_all_bytes(g, bytes_of(send), out, bytes_of(receive), in);
}

/// n equal counts, for the forms without counts.
inline rank_table equal_counts(const collective_group& g, std::size_t count) {
  return rank_table(static_cast<std::size_t>(g.size), count);
}
/// The block size of a buffer of n equal blocks.
inline std::size_t block_count(collective_group& g, const char* what, const char* which,
                               std::size_t total) {
  const auto n = static_cast<std::size_t>(g.size);
  if (total % n != 0) [[unlikely]] bad_collective_size(g, what, which, total, (total / n + 1) * n);
  return total / n;
}

template <collective_kind Kind, class T, class Op = void>
inline collective_group group_for(const team& t, const char* what) {
  return t.group(what, collective_signature<Kind, T, Op>);
}

}  // namespace detail

// ---- gather and scatter ----------------------------------------------------------------

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                    std::span<const std::size_t> counts, proc_t root = 0) {
  auto g = detail::group_for<detail::collective_kind::gather, T>(t, "gatherv");
  detail::check_gather(g, std::span<const T>(all), counts, root, "gatherv");
  detail::gather_on(g, mine, all, counts, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gather(const team& t, std::span<const T> mine, std::span<T> all, proc_t root = 0) {
  auto g = detail::group_for<detail::collective_kind::gather, T>(t, "gather");
  const auto counts = detail::equal_counts(g, mine.size());
  detail::check_gather(g, std::span<const T>(all), std::span<const std::size_t>(counts), root, "gather");
  detail::gather_on(g, mine, all, std::span<const std::size_t>(counts), root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatterv(const team& t, std::span<const T> all, std::span<const std::size_t> counts,
                     std::span<T> mine, proc_t root = 0) {
  auto g = detail::group_for<detail::collective_kind::scatter, T>(t, "scatterv");
  detail::check_scatter(g, all, counts, root, "scatterv");
  detail::scatter_on(g, all, counts, mine, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatter(const team& t, std::span<const T> all, std::span<T> mine, proc_t root = 0) {
  auto g = detail::group_for<detail::collective_kind::scatter, T>(t, "scatter");
  const auto counts = detail::equal_counts(g, mine.size());
  detail::check_scatter(g, all, std::span<const std::size_t>(counts), root, "scatter");
  detail::scatter_on(g, all, std::span<const std::size_t>(counts), mine, root);
}

// ---- all-gather and all-to-all ---------------------------------------------------------

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                        std::span<const std::size_t> counts) {
  auto g = detail::group_for<detail::collective_kind::all_gather, T>(t, "all_gatherv");
  detail::check_all_gather(g, mine, all, counts, "all_gatherv");
  detail::all_gather_on(g, mine, all, counts);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gather(const team& t, std::span<const T> mine, std::span<T> all) {
  auto g = detail::group_for<detail::collective_kind::all_gather, T>(t, "all_gather");
  const auto counts = detail::equal_counts(g, mine.size());
  detail::check_all_gather(g, mine, all, std::span<const std::size_t>(counts), "all_gather");
  detail::all_gather_on(g, mine, all, std::span<const std::size_t>(counts));
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_allv(const team& t, std::span<const T> send,
                        std::span<const std::size_t> send_counts, std::span<T> receive,
                        std::span<const std::size_t> receive_counts) {
  auto g = detail::group_for<detail::collective_kind::all_to_all, T>(t, "all_to_allv");
  detail::check_all_to_all(g, send, send_counts, receive, receive_counts, "all_to_allv");
  detail::all_to_all_on(g, send, send_counts, receive, receive_counts);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_all(const team& t, std::span<const T> send, std::span<T> receive) {
  auto g = detail::group_for<detail::collective_kind::all_to_all, T>(t, "all_to_all");
  const auto counts = detail::equal_counts(
      g, detail::block_count(g, "all_to_all", "the data sent", send.size()));
  const std::span<const std::size_t> c(counts);
  detail::check_all_to_all(g, send, c, receive, c, "all_to_all");
  detail::all_to_all_on(g, send, c, receive, c);
}

// ---- reduce-scatter --------------------------------------------------------------------

template <collective_element T, class Op>
inline void reduce_scatterv(const team& t, std::span<const T> in, std::span<T> out,
                            std::span<const std::size_t> counts, Op op) {
  auto g = detail::group_for<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatterv");
  detail::check_reduce_scatter(g, in, out, counts, "reduce_scatterv");
  detail::reduce_scatter_on(g, in, out, counts, op);
}
template <collective_element T, class Op>
inline void reduce_scatter(const team& t, std::span<const T> in, std::span<T> out, Op op) {
  auto g = detail::group_for<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatter");
  const auto counts =
      detail::equal_counts(g, detail::block_count(g, "reduce_scatter", "the data", in.size()));
  detail::check_reduce_scatter(g, in, out, std::span<const std::size_t>(counts), "reduce_scatter");
  detail::reduce_scatter_on(g, in, out, std::span<const std::size_t>(counts), op);
}

// ---- the same over all processors --------------------------------------------------------

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gather(std::span<const T> mine, std::span<T> all, proc_t root = 0) {
  gather(team::world(), mine, all, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gatherv(std::span<const T> mine, std::span<T> all, std::span<const std::size_t> counts,
                    proc_t root = 0) {
  gatherv(team::world(), mine, all, counts, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatter(std::span<const T> all, std::span<T> mine, proc_t root = 0) {
  scatter(team::world(), all, mine, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatterv(std::span<const T> all, std::span<const std::size_t> counts, std::span<T> mine,
                     proc_t root = 0) {
  scatterv(team::world(), all, counts, mine, root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gather(std::span<const T> mine, std::span<T> all) {
  all_gather(team::world(), mine, all);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gatherv(std::span<const T> mine, std::span<T> all,
                        std::span<const std::size_t> counts) {
  all_gatherv(team::world(), mine, all, counts);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_all(std::span<const T> send, std::span<T> receive) {
  all_to_all(team::world(), send, receive);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_allv(std::span<const T> send, std::span<const std::size_t> send_counts,
                        std::span<T> receive, std::span<const std::size_t> receive_counts) {
  all_to_allv(team::world(), send, send_counts, receive, receive_counts);
}
template <collective_element T, class Op>
inline void reduce_scatter(std::span<const T> in, std::span<T> out, Op op) {
  reduce_scatter(team::world(), in, out, op);
}
template <collective_element T, class Op>
inline void reduce_scatterv(std::span<const T> in, std::span<T> out,
                            std::span<const std::size_t> counts, Op op) {
  reduce_scatterv(team::world(), in, out, counts, op);
}

}  // namespace splitc
