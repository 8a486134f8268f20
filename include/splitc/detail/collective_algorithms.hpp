// The algorithms of the collectives (collectives.hpp, exchanges.hpp), on any group of
// processors numbered by rank: the world, or a team (detail/mailbox.hpp, collective_group).
//
// They run on a static tree whose every subtree is a contiguous range of ranks
// (the root of [lo, hi) is lo; its children root the two halves of
// [lo+1, hi)), so reductions and scans combine in rank order and a
// non-commutative operator gives the sequential answer. Messages travel
// through mailboxes with dataflow flow control (detail/mailbox.hpp):
// successive collectives pipeline rather than paying a barrier each, and a
// processor waiting in a collective keeps serving active messages. Every message is signed
// (collective, element type, operator, a broadcast's root) and checked on arrival.
#pragma once

#include <splitc/detail/context.hpp>
#include <splitc/detail/mailbox.hpp>
#include <splitc/detail/streams.hpp>
#include <splitc/detail/wait.hpp>

#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace splitc {
namespace detail {

/// A processor's place in the range tree, in virtual ranks (root = 0).
struct tree_node {
  proc_t parent = -1, left = -1, right = -1;
};

constexpr tree_node range_tree(proc_t v, proc_t nprocs) noexcept {
  proc_t lo = 0, hi = nprocs, parent = -1;
  for (;;) {
    const proc_t rest = hi - lo - 1;
    const proc_t left_end = lo + 1 + (rest + 1) / 2;
    if (v == lo) {
      tree_node n;
      n.parent = parent;
      n.left = rest > 0 ? lo + 1 : -1;
      n.right = left_end < hi ? left_end : -1;
      return n;
    }
    parent = lo;
    if (v < left_end) {
      lo = lo + 1;
      hi = left_end;
    } else {
      lo = left_end;
    }
  }
}

/// The tree as physical processors, rooted at `root`.
inline tree_node physical_tree(const collective_group& g, proc_t root) noexcept {
  const proc_t v = (g.rank - root + g.size) % g.size;
  tree_node n = range_tree(v, g.size);
  auto phys = [&](proc_t x) { return x < 0 ? x : (x + root) % g.size; };
  return {phys(n.parent), phys(n.left), phys(n.right)};
}

constexpr std::uint64_t fnv1a(const char* s, std::uint64_t h = 1469598103934665603ULL) {
  for (; *s != '\0'; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ULL;
  return h;
}
template <class T, class Op>
constexpr std::uint64_t type_hash() {
  return fnv1a(__PRETTY_FUNCTION__);
}
enum class collective_kind : std::uint64_t {
  barrier = 1,
  broadcast,
  reduce_to_one,
  reduce_to_all,
  scan,
  exclusive_scan,
  gather,
  scatter,
  all_gather,
  all_to_all,
  reduce_scatter,
  team_split
};
/// A hash naming the collective, its element type and operator (computed at compile time).
template <collective_kind Kind, class T, class Op>
inline constexpr std::uint64_t collective_signature =
    type_hash<T, Op>() ^ (static_cast<std::uint64_t>(Kind) * 0x9E3779B97F4A7C15ULL);

/// A broadcast's signature also names its root: processors that disagree on
/// it see each other's messages as mismatched, and the root can be read back
/// (multiplication by an odd constant is invertible modulo 2^64).
inline constexpr std::uint64_t root_multiplier = 0xD6E8FEB86659FD93ULL;
constexpr std::uint64_t root_mix(proc_t root) noexcept {
  return (static_cast<std::uint64_t>(root) + 1) * root_multiplier;
}
constexpr std::uint64_t root_unmix(std::uint64_t mixed) noexcept {
  std::uint64_t inverse = root_multiplier;  // Newton's iteration: 5 steps give 64 bits
  for (int i = 0; i < 5; ++i) inverse *= 2 - root_multiplier * inverse;
  return mixed * inverse - 1;
}
static_assert(root_unmix(root_mix(0)) == 0 && root_unmix(root_mix(4095)) == 4095);
/// A broadcast checked before anyone returns (agreed_broadcast) is signed with this mark too:
/// a processor that checks that way and one that does not see each other's messages as
/// mismatched, and the report says so.
inline constexpr std::uint64_t agreed_broadcast_mark = 0xA24BAED4963EE407ULL;

/// Operators with a `truth` (the logical ones) see every value as 1 or 0
/// before anything is combined; an operator on cells (detail/erased_reduction.hpp) does it
/// through the real type.
template <class T, class Op>
inline void prepare_operands(std::span<T> data, const Op& op) {
  if constexpr (requires(T v) { Op::truth(v); })
    for (T& v : data) v = Op::truth(v);
  else if constexpr (requires { op.prepare_run(data.data(), data.size()); })
    op.prepare_run(data.data(), data.size());
}

/// A broadcast's messages are signed with its signature and its root; once it is over, the
/// channels remember both (mailbox_state::last_broadcast_root) for the mismatch report.
inline void sign_broadcast(collective_group& g, proc_t root) {
  g.root = root;
  g.signature ^= root_mix(root);
}
inline void broadcast_finished(collective_group& g) {
  g.mail.last_broadcast_signature = g.signature ^ root_mix(g.root);
  g.mail.last_broadcast_root = g.root;
}

/// Elements of T per mailbox message.
template <class T>
constexpr std::size_t chunk_elements = mailbox_payload_bytes / sizeof(T);

/// acc[i] = acc[i] op in[i] for `count` elements, `in` being a message's bytes; with
/// `in_first`, acc[i] = in[i] op acc[i]. Every algorithm combines through here. An operator
/// may combine a whole run itself, with a member
/// `combine_run(T* acc, const unsigned char* in, std::size_t count, bool in_first)`: the C
/// interface's operators do, so that one instance of each algorithm per element size serves
/// all its typed names (src/c_reductions.hpp).
template <class T, class Op>
inline void combine_elements(T* acc, const unsigned char* in, std::size_t count, Op& op,
                             bool in_first = false) {
  if constexpr (requires { op.combine_run(acc, in, count, in_first); }) {
    op.combine_run(acc, in, count, in_first);
  } else if (in_first) {
    for (std::size_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, in + i * sizeof(T), sizeof(T));
      acc[i] = op(v, acc[i]);
    }
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, in + i * sizeof(T), sizeof(T));
      acc[i] = op(acc[i], v);
    }
  }
}

/// Combine each element of a chunk from p into acc (acc = acc op incoming).
template <class T, class Op>
inline void combine_from(collective_group& g, proc_t p, T* acc, std::size_t count, Op& op) {
  receive_chunk<T>(g, p, count,
                   [&](const unsigned char* data) { combine_elements(acc, data, count, op); });
}

template <class T>
inline void copy_from(collective_group& g, proc_t p, T* out, std::size_t count) {
  receive_chunk<T>(g, p, count,
                   [&](const unsigned char* data) { std::memcpy(out, data, count * sizeof(T)); });
}

/// Up the tree rooted at 0: on return, processor 0's data holds the ordered reduction.
template <class T, class Op>
inline void reduce_up(collective_group& g, std::span<T> data, Op& op) {
  const tree_node n = physical_tree(g, 0);
  for (std::size_t at = 0; at < data.size() || (at == 0 && data.empty()); at += chunk_elements<T>) {
    const std::size_t count = std::min(chunk_elements<T>, data.size() - at);
    if (n.left >= 0) combine_from(g, n.left, data.data() + at, count, op);
    if (n.right >= 0) combine_from(g, n.right, data.data() + at, count, op);
    if (n.parent >= 0) mailbox_send(g, n.parent, data.data() + at, count * sizeof(T));
    if (data.empty()) break;
  }
}

/// Down the tree rooted at `root`: on return, everyone holds root's data.
template <class T>
inline void broadcast_down(collective_group& g, std::span<T> data, proc_t root) {
  const tree_node n = physical_tree(g, root);
  for (std::size_t at = 0; at < data.size() || (at == 0 && data.empty()); at += chunk_elements<T>) {
    const std::size_t count = std::min(chunk_elements<T>, data.size() - at);
    if (n.parent >= 0) copy_from(g, n.parent, data.data() + at, count);
    if (n.left >= 0) mailbox_send(g, n.left, data.data() + at, count * sizeof(T));
    if (n.right >= 0) mailbox_send(g, n.right, data.data() + at, count * sizeof(T));
    if (data.empty()) break;
  }
}

/// Processors that name different roots must be caught, not left to exchange
/// the wrong data or wait for each other. The tree rooted at 0 does not depend
/// on anyone's root, so every processor announces itself to its parent there (a
/// message signed with the root it believes in, carrying how many broadcasts in a
/// row so signed it covers), and every processor checks its children's
/// announcements: some edge of that tree joins two processors that disagree, and
/// its parent names them. The announcement comes before any data on its channel.
/// A one-chunk broadcast of the world owes its announcement instead
/// (owe_root_announcement): one message then covers up to owed_limit() broadcasts
/// (root_announcements.cpp, which also says when the debt is paid).
inline void announce_root(collective_group& g) {
  static constexpr std::uint32_t one = 1;
  const tree_node n = physical_tree(g, 0);
  if (n.parent >= 0) mailbox_send(g, n.parent, &one, sizeof one);
}
/// Add this broadcast to the announcements owed to `parent` (the parent in the tree rooted at
/// 0; -1: none).
void owe_root_announcement(collective_group& g, proc_t parent);
/// Check the announcement of `child` (side 0: the left child in the tree rooted at 0, 1: the
/// right) for this broadcast: the rest of its last one, or its next message.
void check_child_root(collective_group& g, proc_t child, int side);
/// Whether the announcement of `child` for the oldest broadcast not yet checked is here.
inline bool child_has_announced(const mailbox_state& m, proc_t child, int side) noexcept {
  return m.announced_ahead[side] != 0 || m.arrived(static_cast<std::size_t>(child));
}
inline void check_children_roots(collective_group& g) {
  const tree_node n = physical_tree(g, 0);
  if (n.left >= 0) check_child_root(g, n.left, 0);
  if (n.right >= 0) check_child_root(g, n.right, 1);
}
/// A child that announced more broadcasts than this processor made before another collective
/// is in a broadcast this one skipped: reported as a mismatch with this collective.
void check_no_broadcast_ahead(collective_group& g);

/// check_children_roots for a broadcast checked after it returned: a poll inside the check
/// must not start another (progress.cpp).
inline void check_children_roots_settling(collective_group& g) {
  g.mail.settling = true;
  check_children_roots(g);
  g.mail.settling = false;
}

/// The oldest broadcast whose children's announcements this processor left unchecked
/// (checked_broadcast): checked now, waiting for them if they have not all come.
[[gnu::noinline]] inline void settle_oldest_broadcast(collective_group& g) {
  mailbox_state& m = g.mail;
  collective_group previous = g;
  previous.signature = m.unchecked[m.unchecked_first].signature;
  previous.root = m.unchecked[m.unchecked_first].root;
  m.unchecked_first = (m.unchecked_first + 1) % mailbox_state::max_unchecked;
  --m.unchecked_count;
  check_children_roots_settling(previous);
}
/// Every check the broadcasts left, before anything else is received on the channels, and
/// the announcements owed, before anything else is sent: every collective group on them calls
/// this first (a broadcast of the world only when it must).
inline void settle_root_check(collective_group& g) {
  if (g.mail.owed_count != 0) [[unlikely]] send_owed_announcements(g.c, g.mail);
  while (g.mail.unchecked_count != 0) settle_oldest_broadcast(g);
}
/// settle_root_check for a collective that is no broadcast: a child's announcement of more
/// broadcasts is then a mismatch.
inline void settle_before_other_collective(collective_group& g) {
  settle_root_check(g);
  if ((g.mail.announced_ahead[0] | g.mail.announced_ahead[1]) != 0) [[unlikely]]
    check_no_broadcast_ahead(g);
}

/// A non-root's wait for this broadcast's data from `parent`. The announcements its children
/// owe it (`checks`: those of the broadcasts still unchecked, then this one's) are checked as
/// they arrive while it waits, so that a processor whose data never comes -- some processor
/// named another root -- still checks them: true when this broadcast's were.
inline bool wait_for_broadcast_data(collective_group& g, proc_t parent, const tree_node& checks) {
  if (g.mail.arrived(static_cast<std::size_t>(parent), 0)) [[likely]]
    return false;
  auto announcements_in = [&] {
    return (checks.left < 0 || child_has_announced(g.mail, checks.left, 0)) &&
           (checks.right < 0 || child_has_announced(g.mail, checks.right, 1));
  };
  for (bool checked = false;;) {
    bool check_now = false;
    wait_until(g.c, "a collective", [&] {
      if (g.mail.arrived(static_cast<std::size_t>(parent), 0)) return true;
      check_now = !checked && announcements_in();
      return check_now;
    });
    if (!check_now) return checked;
    if (g.mail.unchecked_count != 0) {
      settle_oldest_broadcast(g);
    } else {
      check_children_roots_settling(g);
      checked = true;
    }
  }
}

/// SPLITC_BROADCAST_CHECK=before_return: nobody leaves a broadcast before every processor is
/// known to name the same root. The announcements travel up the tree rooted at 0 as an
/// agreement -- a processor announces itself only once its children's announcements agree
/// with its own -- and only then does processor 0 tell the root (an empty message: the only
/// one on that channel in a broadcast, since nobody sends to the root), which sends the data
/// only then. A mismatch stops the agreement on its edge, whose parent reports it while every
/// processor still waits: none has returned. The price is the agreement's depth, twice
/// log2(P) messages, before the data leaves the root.
template <class T>
inline void agreed_broadcast(collective_group& g, std::span<T> data, proc_t root) {
  settle_root_check(g);
  check_children_roots(g);
  announce_root(g);
  if (root != 0) {
    static constexpr unsigned char nothing = 0;
    if (g.rank == 0) mailbox_send(g, root, &nothing, 0);
    if (g.rank == root) receive_chunk<unsigned char>(g, 0, 0, [](const unsigned char*) {});
  }
  broadcast_down(g, data, root);
}

/// A broadcast with the root check overlapped with the data. The check waits only for
/// announcements, which everyone sends (or owes, and pays before it could wait:
/// root_announcements.cpp), so it always completes.
///
/// In a one-chunk broadcast of the world a processor owes its own announcement
/// (owe_root_announcement) and does not wait for its children's before it sends on (which
/// made a loop of broadcasts go at a round trip per broadcast on every processor with
/// children): the root sends and leaves, a non-root forwards the data as it comes, checking
/// the announcements only if they come first; what
/// is left unchecked is checked at the start of its next other collective (settle_root_check;
/// finalize is one), at a poll once all have come (progress.cpp), or when unchecked_window()
/// broadcasts are pending (half the mailboxes' depth: 32 up to 8 processors) -- so
/// back-to-back broadcasts are not paced by the check, and a processor that named another
/// root is reported up to that many broadcasts later. A processor whose data would come
/// from a child whose announcements it checks (another root than 0) checks first, as the
/// channel's order requires; so do a team's (team.cpp) and a split-phase broadcast, and the
/// root of a longer one, whose sends could wait for room a disagreeing processor never frees.
template <class T>
inline void checked_broadcast(collective_group& g, std::span<T> data, proc_t root) {
  if (g.size == 1) return;
  if (g.c.broadcast_agreed) [[unlikely]] {
    g.signature ^= agreed_broadcast_mark;
    agreed_broadcast(g, data, root);
    return;
  }
  const bool one_chunk = data.size() <= chunk_elements<T>;
  if (g.split_phase) {
    announce_root(g);
    if (g.rank == root && one_chunk) {
      broadcast_down(g, data, root);
      check_children_roots(g);
    } else {
      check_children_roots(g);
      broadcast_down(g, data, root);
    }
    return;
  }
  const tree_node checks = physical_tree(g, 0), path = physical_tree(g, root);
  const bool data_behind_announcement =
      path.parent >= 0 && (path.parent == checks.left || path.parent == checks.right);
  if (!one_chunk || data_behind_announcement) {
    announce_root(g);
    settle_root_check(g);
    check_children_roots(g);
    broadcast_down(g, data, root);
    return;
  }
  owe_root_announcement(g, checks.parent);
  mailbox_state& m = g.mail;
  if (m.unchecked_count >= m.unchecked_window()) settle_oldest_broadcast(g);
  const bool checked = path.parent >= 0 && wait_for_broadcast_data(g, path.parent, checks);
  broadcast_down(g, data, root);
  if (!checked && (checks.left >= 0 || checks.right >= 0)) {
    m.unchecked[(m.unchecked_first + m.unchecked_count) % mailbox_state::max_unchecked] = {
        g.signature, root};
    ++m.unchecked_count;
  }
}

/// Exchange with `partner`: send `send_count` elements, receive `receive_count`;
/// `use(at, count, data)` takes each run received (elements at..at+count).
template <class T, class Use>
inline void exchange_chunks(collective_group& g, proc_t partner, const T* send, std::size_t send_count,
                            std::size_t receive_count, Use use) {
  // One mailbox message each way (the small vectors of the butterfly): no stream to step.
  if (send_count <= chunk_elements<T> && receive_count <= chunk_elements<T>) {
    if (send_count != 0 || receive_count == 0) mailbox_send(g, partner, send, send_count * sizeof(T));
    if (receive_count != 0 || send_count == 0)
      receive_chunk<T>(g, partner, receive_count, [&](const unsigned char* d) { use(0, receive_count, d); });
    return;
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(send);
  exchange_streams(g, partner, one_piece(bytes, send_count * sizeof(T)), partner,
                   receive_count * sizeof(T), sizeof(T),
                   [&](std::size_t at, const unsigned char* d, std::size_t len) {
                     use(at / sizeof(T), len / sizeof(T), d);
                   });
}

/// Binary-swap reduce-to-all (ACL seed §4): in phase i, partners whose
/// numbers differ in bit i each keep one half of their current range,
/// exchange the other half and combine, so every processor works in every
/// phase; then the pieces are gathered back by recursive doubling.
/// Processors beyond the largest power of two fold into a partner first and
/// get the result back at the end. Needs a commutative operator.
template <class T, class Op>
inline void binary_swap_reduce_to_all(collective_group& g, std::span<T> data, Op& op) {
  const proc_t me = g.rank, nprocs = g.size;
  proc_t pow2 = 1;
  while (pow2 * 2 <= nprocs) pow2 *= 2;
  auto combine_into = [&](T* acc) {
    return [&, acc](std::size_t at, std::size_t count, const unsigned char* d) {
      combine_elements(acc + at, d, count, op);
    };
  };
  auto copy_into = [&](T* out) {
    return [out](std::size_t at, std::size_t count, const unsigned char* d) {
      std::memcpy(out + at, d, count * sizeof(T));
    };
  };
  if (me >= pow2) {  // fold into me - pow2, then wait for the result
    exchange_chunks(g, me - pow2, data.data(), data.size(), 0, copy_into(data.data()));
    exchange_chunks(g, me - pow2, data.data(), 0, data.size(), copy_into(data.data()));
    return;
  }
  if (me + pow2 < nprocs)
    exchange_chunks(g, me + pow2, data.data(), 0, data.size(), combine_into(data.data()));
  // Reduce-scatter by recursive halving.
  std::size_t lo = 0, hi = data.size();
  std::vector<std::pair<std::size_t, std::size_t>> kept;
  for (proc_t bit = 1; bit < pow2; bit *= 2) {
    const proc_t partner = me ^ bit;
    const std::size_t mid = lo + (hi - lo) / 2;
    const bool keep_low = (me & bit) == 0;
    const std::size_t keep_lo = keep_low ? lo : mid, keep_hi = keep_low ? mid : hi;
    const std::size_t give_lo = keep_low ? mid : lo, give_hi = keep_low ? hi : mid;
    kept.emplace_back(lo, hi);
    exchange_chunks(g, partner, data.data() + give_lo, give_hi - give_lo, keep_hi - keep_lo,
                    combine_into(data.data() + keep_lo));
    lo = keep_lo;
    hi = keep_hi;
  }
  // Allgather by recursive doubling, undoing the halvings in reverse.
  for (proc_t bit = pow2 / 2; bit >= 1; bit /= 2) {
    const proc_t partner = me ^ bit;
    const auto [outer_lo, outer_hi] = kept.back();
    kept.pop_back();
    const std::size_t other_lo = lo == outer_lo ? hi : outer_lo;
    const std::size_t other_hi = lo == outer_lo ? outer_hi : lo;
    exchange_chunks(g, partner, data.data() + lo, hi - lo, other_hi - other_lo,
                    copy_into(data.data() + other_lo));
    lo = outer_lo;
    hi = outer_hi;
  }
  if (me + pow2 < nprocs)
    exchange_chunks(g, me + pow2, data.data(), data.size(), 0, copy_into(data.data()));
}

[[gnu::cold, noreturn]] void bad_root(collective_group& g, proc_t root, const char* what);

/// Inclusive (and, with `exclusive`, exclusive) scan by recursive doubling:
/// in round k every processor sends its partial result 2^k places up and
/// combines what comes from 2^k places down (received first, so processor
/// order is kept). Processor 0 never waits, so scans pipeline; a result is
/// ready after ceil(log2 P) one-way hops, with no down phase.
template <class T, class Op>
inline void scan_chunks(collective_group& g, std::span<T> data, Op& op, std::span<T> exclusive) {
  constexpr std::size_t step = chunk_elements<T>;
  const proc_t me = g.rank;
  for (std::size_t at = 0; at < data.size(); at += step) {
    const std::size_t count = std::min(step, data.size() - at);
    T* inclusive = data.data() + at;
    T* before = exclusive.empty() ? nullptr : exclusive.data() + at;
    bool have_before = false;
    for (proc_t distance = 1; distance < g.size; distance *= 2) {
      if (me + distance < g.size) mailbox_send(g, me + distance, inclusive, count * sizeof(T));
      if (me - distance < 0) continue;
      receive_chunk<T>(g, me - distance, count, [&](const unsigned char* d) {
        if (before != nullptr) {  // what came from below: earlier op before
          if (have_before) combine_elements(before, d, count, op, true);
          else std::memcpy(before, d, count * sizeof(T));
        }
        combine_elements(inclusive, d, count, op, true);
      });
      have_before = true;
    }
  }
}

/// Reduce-to-all by recursive doubling (butterfly): partners whose numbers
/// differ in bit k swap partial results and combine, lower-numbered first,
/// so after log2 P rounds everyone has the result without a down phase (one
/// one-way hop for 2 processors). Processors beyond the largest power of two
/// fold into a partner first, which reorders operands: only for commutative
/// operators unless P is a power of two.
template <class T, class Op>
inline void butterfly_reduce_to_all(collective_group& g, std::span<T> data, Op& op) {
  const proc_t me = g.rank;
  proc_t pow2 = 1;
  while (pow2 * 2 <= g.size) pow2 *= 2;
  T* acc = data.data();
  auto ignore = [](std::size_t, std::size_t, const unsigned char*) {};
  auto copy_into = [acc](std::size_t at, std::size_t count, const unsigned char* d) {
    std::memcpy(acc + at, d, count * sizeof(T));
  };
  if (me >= pow2) {
    exchange_chunks(g, me - pow2, acc, data.size(), 0, ignore);
    exchange_chunks(g, me - pow2, acc, 0, data.size(), copy_into);
    return;
  }
  auto combine = [&](bool partner_first) {
    return [&, partner_first](std::size_t at, std::size_t count, const unsigned char* d) {
      combine_elements(acc + at, d, count, op, partner_first);
    };
  };
  if (me + pow2 < g.size) exchange_chunks(g, me + pow2, acc, 0, data.size(), combine(false));
  // A round sends acc while it combines into it: in mailbox messages, each chunk leaves before
  // the partner's is combined into its place, but a staged stream whose partner lacked staging
  // space arrives whole while ours still goes chunk by chunk; then ours is sent from a copy.
  if (data.size_bytes() < mailbox_staged_threshold) {
    for (proc_t bit = 1; bit < pow2; bit *= 2)
      exchange_chunks(g, me ^ bit, acc, data.size(), data.size(), combine((me ^ bit) < me));
  } else {
    std::vector<T> sent(data.size());
    for (proc_t bit = 1; bit < pow2; bit *= 2) {
      std::copy(data.begin(), data.end(), sent.begin());
      exchange_chunks(g, me ^ bit, sent.data(), data.size(), data.size(), combine((me ^ bit) < me));
    }
  }
  if (me + pow2 < g.size) exchange_chunks(g, me + pow2, acc, data.size(), 0, ignore);
}

/// Dissemination barrier: in round k, signal the processor 2^k places up
/// (cyclically) and wait for the one 2^k places down; ceil(log2 P) one-way
/// hops, and waiting processors keep serving active messages.
inline void dissemination_barrier(collective_group& g) {
  const unsigned char nothing = 0;
  for (proc_t distance = 1; distance < g.size; distance *= 2) {
    mailbox_send(g, (g.rank + distance) % g.size, &nothing, 0);
    receive_chunk<unsigned char>(g, (g.rank - distance + g.size) % g.size, 0,
                                 [](const unsigned char*) {});
  }
}

/// Hierarchical barrier (groups of processors sharing memory, context::host_group; the
/// world's group only, whose ranks are processors): each processor tells its group's first,
/// which then runs the dissemination barrier with the other groups' first processors over the
/// network and releases its group. Inside a group the mailbox messages are copies into shared
/// memory; across groups there are ceil(log2 G) one-way hops for G groups instead of
/// ceil(log2 P).
inline void hierarchical_barrier(collective_group& g) {
  const context& c = g.c;
  const unsigned char nothing = 0;
  const proc_t leader = c.host_group.front();
  const auto ignore = [](const unsigned char*) {};
  if (g.rank != leader) {
    mailbox_send(g, leader, &nothing, 0);
    receive_chunk<unsigned char>(g, leader, 0, ignore);
    return;
  }
  for (std::size_t i = 1; i < c.host_group.size(); ++i)
    receive_chunk<unsigned char>(g, c.host_group[i], 0, ignore);
  const auto groups = static_cast<int>(c.group_leaders.size());
  for (int distance = 1; distance < groups; distance *= 2) {
    mailbox_send(g, c.group_leaders[static_cast<std::size_t>((c.leader_index + distance) % groups)],
                 &nothing, 0);
    receive_chunk<unsigned char>(
        g, c.group_leaders[static_cast<std::size_t>((c.leader_index - distance + groups) % groups)],
        0, ignore);
  }
  for (std::size_t i = 1; i < c.host_group.size(); ++i)
    mailbox_send(g, c.host_group[i], &nothing, 0);
}

}  // namespace detail

}  // namespace splitc
