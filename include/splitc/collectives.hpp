// Global communication (seed §3.3): barrier, broadcast, reduce to one,
// reduce to all, and scans, for single values and vectors of any trivially
// copyable type with any associative operator.
//
// All processors must call the same collectives in the same order. They run
// on a static tree whose every subtree is a contiguous range of processors
// (the root of [lo, hi) is lo; its children root the two halves of
// [lo+1, hi)), so reductions and scans combine in processor order and a
// non-commutative operator gives the sequential answer. Messages travel
// through mailboxes with dataflow flow control (detail/mailbox.hpp):
// successive collectives pipeline rather than paying a barrier each, and a
// processor waiting in a collective keeps serving active messages.
//
// On a backend with native collectives (PORTING.md: has_native_barrier,
// has_native_reduce -- the CM-5's control network) barrier() and single-value
// reductions, scans and small broadcasts run on the layer's network instead,
// after an agreement check (detail/native_collectives.hpp).
//
// The scan hazard (seed §4.3.2): a collective returns when *this*
// processor's result is known, not when everyone's is. Code such as
//
//   buckets[i] = all_scan_add(buckets[i]);     // on every processor
//   ... read g_buckets[PROCS-1][i-1] on processor 0 ...
//
// may read a neighbour's element before that neighbour has stored its scan
// result. Put a barrier() between storing results and reading them remotely.
#pragma once

#include <splitc/detail/mailbox.hpp>
#include <splitc/detail/native_collectives.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/runtime.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace splitc {

/// The seed's operators, as function objects usable with every collective.
namespace ops {
struct add {
  template <class T> constexpr T operator()(T a, T b) const { return a + b; }
};
struct mult {
  template <class T> constexpr T operator()(T a, T b) const { return a * b; }
};
struct max {
  template <class T> constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};
struct min {
  template <class T> constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};
struct bit_or {
  template <class T> requires std::is_integral_v<T>
  constexpr T operator()(T a, T b) const { return a | b; }
};
struct bit_xor {
  template <class T> requires std::is_integral_v<T>
  constexpr T operator()(T a, T b) const { return a ^ b; }
};
struct bit_and {
  template <class T> requires std::is_integral_v<T>
  constexpr T operator()(T a, T b) const { return a & b; }
};
// Logical forms (the Libsplit-C report, Luna 1994 §3, calls its or, xor and
// and reductions "logical"; its C names, like the CM-5 control network, are
// bitwise: see docs/decisions.md). Each operand counts as true when non-zero
// and every result is 1 or 0, also on one processor and for processor 0 of
// a scan: the collectives first turn each processor's values into truth
// values (`truth`), then combine.
struct logical_or {
  template <class T> requires std::is_arithmetic_v<T>
  static constexpr T truth(T a) { return static_cast<T>(a != T{}); }
  template <class T> requires std::is_arithmetic_v<T>
  constexpr T operator()(T a, T b) const { return static_cast<T>(a != T{} || b != T{}); }
};
struct logical_xor {
  template <class T> requires std::is_arithmetic_v<T>
  static constexpr T truth(T a) { return static_cast<T>(a != T{}); }
  template <class T> requires std::is_arithmetic_v<T>
  constexpr T operator()(T a, T b) const { return static_cast<T>((a != T{}) != (b != T{})); }
};
struct logical_and {
  template <class T> requires std::is_arithmetic_v<T>
  static constexpr T truth(T a) { return static_cast<T>(a != T{}); }
  template <class T> requires std::is_arithmetic_v<T>
  constexpr T operator()(T a, T b) const { return static_cast<T>(a != T{} && b != T{}); }
};
}  // namespace ops

/// Operators whose operands may be combined in any order; large vector
/// reductions with them use the binary-swap algorithm. Specialize it for
/// your own commutative operators.
template <class Op>
inline constexpr bool is_commutative = false;
template <> inline constexpr bool is_commutative<ops::add> = true;
template <> inline constexpr bool is_commutative<ops::mult> = true;
template <> inline constexpr bool is_commutative<ops::max> = true;
template <> inline constexpr bool is_commutative<ops::min> = true;
template <> inline constexpr bool is_commutative<ops::bit_or> = true;
template <> inline constexpr bool is_commutative<ops::bit_xor> = true;
template <> inline constexpr bool is_commutative<ops::bit_and> = true;
template <> inline constexpr bool is_commutative<ops::logical_or> = true;
template <> inline constexpr bool is_commutative<ops::logical_xor> = true;
template <> inline constexpr bool is_commutative<ops::logical_and> = true;

/// Vectors at least this large (bytes) are reduced by binary swap when the
/// operator is commutative.
inline constexpr std::size_t binary_swap_threshold = 16 * 1024;

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
inline tree_node physical_tree(const context& c, proc_t root) noexcept {
  const proc_t v = (c.myproc - root + c.procs) % c.procs;
  tree_node n = range_tree(v, c.procs);
  auto phys = [&](proc_t x) { return x < 0 ? x : (x + root) % c.procs; };
  return {phys(n.parent), phys(n.left), phys(n.right)};
}

[[gnu::cold, noreturn]] void collective_mismatch(context& c, proc_t from, std::size_t got,
                                                 std::size_t expected);
/// `got` is the signature processor `from` sent; a broadcast's names its root.
[[gnu::cold, noreturn]] void collective_kind_mismatch(context& c, proc_t from, std::uint64_t got);

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
  exclusive_scan
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

/// Signs the messages of one collective call.
class signature_scope {
 public:
  signature_scope(context& c, std::uint64_t signature) : c_(c), saved_(c.collective_signature) {
    c.collective_signature = signature;
  }
  ~signature_scope() { c_.collective_signature = saved_; }
  signature_scope(const signature_scope&) = delete;
  signature_scope& operator=(const signature_scope&) = delete;

 private:
  context& c_;
  std::uint64_t saved_;
};

/// Operators with a `truth` (the logical ones) see every value as 1 or 0
/// before anything is combined.
template <class T, class Op>
inline void prepare_operands(std::span<T> data, const Op&) {
  if constexpr (requires(T v) { Op::truth(v); })
    for (T& v : data) v = Op::truth(v);
}

/// Signs the messages of one broadcast: its signature and its root.
class broadcast_scope {
 public:
  broadcast_scope(context& c, std::uint64_t signature, proc_t root)
      : sign_(c, signature ^ root_mix(root)), c_(c), signature_(signature),
        saved_(c.collective_root) {
    c.collective_root = root;
  }
  ~broadcast_scope() {
    c_.last_broadcast_signature = signature_;
    c_.last_broadcast_root = c_.collective_root;
    c_.collective_root = saved_;
  }
  broadcast_scope(const broadcast_scope&) = delete;
  broadcast_scope& operator=(const broadcast_scope&) = delete;

 private:
  signature_scope sign_;
  context& c_;
  std::uint64_t signature_;  ///< without the root
  proc_t saved_;
};

/// Elements of T per mailbox message.
template <class T>
constexpr std::size_t chunk_elements = mailbox_payload_bytes / sizeof(T);

/// Receive one chunk of `count` elements from p and hand it to `use`.
template <class T, class Use>
inline void receive_chunk(context& c, proc_t p, std::size_t count, Use use) {
  std::size_t len = 0;
  std::uint64_t signature = 0;
  const unsigned char* data = mailbox_receive(c, p, &len, &signature);
  if (signature != c.collective_signature) [[unlikely]] collective_kind_mismatch(c, p, signature);
  if (len != count * sizeof(T)) [[unlikely]] collective_mismatch(c, p, len, count * sizeof(T));
  use(data);
  mailbox_release(c, p);
}

/// Combine each element of a chunk from p into acc (acc = acc op incoming).
template <class T, class Op>
inline void combine_from(context& c, proc_t p, T* acc, std::size_t count, Op& op) {
  receive_chunk<T>(c, p, count, [&](const unsigned char* data) {
    for (std::size_t i = 0; i < count; ++i) {
      T in;
      std::memcpy(&in, data + i * sizeof(T), sizeof(T));
      acc[i] = op(acc[i], in);
    }
  });
}

template <class T>
inline void copy_from(context& c, proc_t p, T* out, std::size_t count) {
  receive_chunk<T>(c, p, count,
                   [&](const unsigned char* data) { std::memcpy(out, data, count * sizeof(T)); });
}

/// Up the tree rooted at 0: on return, processor 0's data holds the ordered reduction.
template <class T, class Op>
inline void reduce_up(context& c, std::span<T> data, Op& op) {
  const tree_node n = physical_tree(c, 0);
  for (std::size_t at = 0; at < data.size() || (at == 0 && data.empty()); at += chunk_elements<T>) {
    const std::size_t count = std::min(chunk_elements<T>, data.size() - at);
    if (n.left >= 0) combine_from(c, n.left, data.data() + at, count, op);
    if (n.right >= 0) combine_from(c, n.right, data.data() + at, count, op);
    if (n.parent >= 0) mailbox_send(c, n.parent, data.data() + at, count * sizeof(T));
    if (data.empty()) break;
  }
}

/// Down the tree rooted at `root`: on return, everyone holds root's data.
template <class T>
inline void broadcast_down(context& c, std::span<T> data, proc_t root) {
  const tree_node n = physical_tree(c, root);
  for (std::size_t at = 0; at < data.size() || (at == 0 && data.empty()); at += chunk_elements<T>) {
    const std::size_t count = std::min(chunk_elements<T>, data.size() - at);
    if (n.parent >= 0) copy_from(c, n.parent, data.data() + at, count);
    if (n.left >= 0) mailbox_send(c, n.left, data.data() + at, count * sizeof(T));
    if (n.right >= 0) mailbox_send(c, n.right, data.data() + at, count * sizeof(T));
    if (data.empty()) break;
  }
}

/// Processors that name different roots must be caught, not left to exchange
/// the wrong data or wait for each other. The tree rooted at 0 does not depend
/// on anyone's root, so every processor first announces itself to its parent
/// there (an empty message signed with the root it believes in), and every
/// processor checks its children's announcements: some edge of that tree
/// joins two processors that disagree, and its parent names them. The
/// announcement is the first message a processor sends in a broadcast, so on
/// every channel it comes before any data.
inline void announce_root(context& c) {
  static constexpr unsigned char nothing = 0;
  const tree_node n = physical_tree(c, 0);
  if (n.parent >= 0) mailbox_send(c, n.parent, &nothing, 0);
}
inline void check_children_roots(context& c) {
  const tree_node n = physical_tree(c, 0);
  if (n.left >= 0) receive_chunk<unsigned char>(c, n.left, 0, [](const unsigned char*) {});
  if (n.right >= 0) receive_chunk<unsigned char>(c, n.right, 0, [](const unsigned char*) {});
}

/// A broadcast with the root check overlapped with the data: announcements
/// travel while the root sends. The check waits only for announcements, which
/// everyone sends first, so it always completes. The root sends a one-chunk
/// broadcast before checking (the check then costs no latency); a longer one
/// after, because its sends could wait for room that a disagreeing processor
/// never frees.
template <class T>
inline void checked_broadcast(context& c, std::span<T> data, proc_t root) {
  if (c.procs == 1) return;
  announce_root(c);
  if (c.myproc == root && data.size() <= chunk_elements<T>) {
    broadcast_down(c, data, root);
    check_children_roots(c);
    return;
  }
  check_children_roots(c);
  broadcast_down(c, data, root);
}

/// Exchange data[lo, hi) with `partner`: send ours, receive theirs, in chunks.
template <class T, class Use>
inline void exchange_chunks(context& c, proc_t partner, const T* send, std::size_t send_count,
                            std::size_t receive_count, Use use) {
  constexpr std::size_t step = chunk_elements<T>;
  const std::size_t rounds = std::max((send_count + step - 1) / step, (receive_count + step - 1) / step);
  for (std::size_t r = 0; r < rounds; ++r) {
    const std::size_t at = r * step;
    if (at < send_count)
      mailbox_send(c, partner, send + at, std::min(step, send_count - at) * sizeof(T));
    if (at < receive_count) {
      const std::size_t count = std::min(step, receive_count - at);
      receive_chunk<T>(c, partner, count, [&](const unsigned char* d) { use(at, count, d); });
    }
  }
}

/// Binary-swap reduce-to-all (ACL seed §4): in phase i, partners whose
/// numbers differ in bit i each keep one half of their current range,
/// exchange the other half and combine, so every processor works in every
/// phase; then the pieces are gathered back by recursive doubling.
/// Processors beyond the largest power of two fold into a partner first and
/// get the result back at the end. Needs a commutative operator.
template <class T, class Op>
inline void binary_swap_reduce_to_all(context& c, std::span<T> data, Op& op) {
  const proc_t me = c.myproc, nprocs = c.procs;
  proc_t pow2 = 1;
  while (pow2 * 2 <= nprocs) pow2 *= 2;
  auto combine_into = [&](T* acc) {
    return [&, acc](std::size_t at, std::size_t count, const unsigned char* d) {
      for (std::size_t i = 0; i < count; ++i) {
        T in;
        std::memcpy(&in, d + i * sizeof(T), sizeof(T));
        acc[at + i] = op(acc[at + i], in);
      }
    };
  };
  auto copy_into = [&](T* out) {
    return [out](std::size_t at, std::size_t count, const unsigned char* d) {
      std::memcpy(out + at, d, count * sizeof(T));
    };
  };
  if (me >= pow2) {  // fold into me - pow2, then wait for the result
    exchange_chunks(c, me - pow2, data.data(), data.size(), 0, copy_into(data.data()));
    exchange_chunks(c, me - pow2, data.data(), 0, data.size(), copy_into(data.data()));
    return;
  }
  if (me + pow2 < nprocs)
    exchange_chunks(c, me + pow2, data.data(), 0, data.size(), combine_into(data.data()));
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
    exchange_chunks(c, partner, data.data() + give_lo, give_hi - give_lo, keep_hi - keep_lo,
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
    exchange_chunks(c, partner, data.data() + lo, hi - lo, other_hi - other_lo,
                    copy_into(data.data() + other_lo));
    lo = outer_lo;
    hi = outer_hi;
  }
  if (me + pow2 < nprocs)
    exchange_chunks(c, me + pow2, data.data(), data.size(), 0, copy_into(data.data()));
}

[[gnu::cold, noreturn]] void bad_root(context& c, proc_t root);

inline context& collective_context(const char* what) { return blocking_context(what); }

/// Inclusive (and, with `exclusive`, exclusive) scan by recursive doubling:
/// in round k every processor sends its partial result 2^k places up and
/// combines what comes from 2^k places down (received first, so processor
/// order is kept). Processor 0 never waits, so scans pipeline; a result is
/// ready after ceil(log2 P) one-way hops, with no down phase.
template <class T, class Op>
inline void scan_chunks(context& c, std::span<T> data, Op& op, std::span<T> exclusive) {
  constexpr std::size_t step = chunk_elements<T>;
  const proc_t me = c.myproc;
  for (std::size_t at = 0; at < data.size(); at += step) {
    const std::size_t count = std::min(step, data.size() - at);
    T* inclusive = data.data() + at;
    T* before = exclusive.empty() ? nullptr : exclusive.data() + at;
    bool have_before = false;
    for (proc_t distance = 1; distance < c.procs; distance *= 2) {
      if (me + distance < c.procs) mailbox_send(c, me + distance, inclusive, count * sizeof(T));
      if (me - distance < 0) continue;
      receive_chunk<T>(c, me - distance, count, [&](const unsigned char* d) {
        for (std::size_t i = 0; i < count; ++i) {
          T earlier;
          std::memcpy(&earlier, d + i * sizeof(T), sizeof(T));
          if (before != nullptr) before[i] = have_before ? op(earlier, before[i]) : earlier;
          inclusive[i] = op(earlier, inclusive[i]);
        }
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
inline void butterfly_reduce_to_all(context& c, std::span<T> data, Op& op) {
  const proc_t me = c.myproc;
  proc_t pow2 = 1;
  while (pow2 * 2 <= c.procs) pow2 *= 2;
  T* acc = data.data();
  auto ignore = [](std::size_t, std::size_t, const unsigned char*) {};
  auto copy_into = [acc](std::size_t at, std::size_t count, const unsigned char* d) {
    std::memcpy(acc + at, d, count * sizeof(T));
  };
  if (me >= pow2) {
    exchange_chunks(c, me - pow2, acc, data.size(), 0, ignore);
    exchange_chunks(c, me - pow2, acc, 0, data.size(), copy_into);
    return;
  }
  auto combine = [&](bool partner_first) {
    return [&, partner_first](std::size_t at, std::size_t count, const unsigned char* d) {
      for (std::size_t i = 0; i < count; ++i) {
        T other;
        std::memcpy(&other, d + i * sizeof(T), sizeof(T));
        acc[at + i] = partner_first ? op(other, acc[at + i]) : op(acc[at + i], other);
      }
    };
  };
  if (me + pow2 < c.procs) exchange_chunks(c, me + pow2, acc, 0, data.size(), combine(false));
  for (proc_t bit = 1; bit < pow2; bit *= 2) {
    const proc_t partner = me ^ bit;
    exchange_chunks(c, partner, acc, data.size(), data.size(), combine(partner < me));
  }
  if (me + pow2 < c.procs) exchange_chunks(c, me + pow2, acc, data.size(), 0, ignore);
}

/// Dissemination barrier: in round k, signal the processor 2^k places up
/// (cyclically) and wait for the one 2^k places down; ceil(log2 P) one-way
/// hops, and waiting processors keep serving active messages.
inline void dissemination_barrier(context& c) {
  const unsigned char nothing = 0;
  for (proc_t distance = 1; distance < c.procs; distance *= 2) {
    mailbox_send(c, (c.myproc + distance) % c.procs, &nothing, 0);
    receive_chunk<unsigned char>(c, (c.myproc - distance + c.procs) % c.procs, 0,
                                 [](const unsigned char*) {});
  }
}

/// Hierarchical barrier (groups of processors sharing memory, context::host_group): each
/// processor tells its group's first, which then runs the dissemination barrier with the other
/// groups' first processors over the network and releases its group. Inside a group the
/// mailbox messages are copies into shared memory; across groups there are ceil(log2 G)
/// one-way hops for G groups instead of ceil(log2 P).
inline void hierarchical_barrier(context& c) {
  const unsigned char nothing = 0;
  const proc_t leader = c.host_group.front();
  const auto ignore = [](const unsigned char*) {};
  if (c.myproc != leader) {
    mailbox_send(c, leader, &nothing, 0);
    receive_chunk<unsigned char>(c, leader, 0, ignore);
    return;
  }
  for (std::size_t i = 1; i < c.host_group.size(); ++i)
    receive_chunk<unsigned char>(c, c.host_group[i], 0, ignore);
  const auto groups = static_cast<int>(c.group_leaders.size());
  for (int distance = 1; distance < groups; distance *= 2) {
    mailbox_send(c, c.group_leaders[static_cast<std::size_t>((c.leader_index + distance) % groups)],
                 &nothing, 0);
    receive_chunk<unsigned char>(
        c, c.group_leaders[static_cast<std::size_t>((c.leader_index - distance + groups) % groups)],
        0, ignore);
  }
  for (std::size_t i = 1; i < c.host_group.size(); ++i)
    mailbox_send(c, c.host_group[i], &nothing, 0);
}

}  // namespace detail

/// Elements of the reductions and scans must fit one mailbox message.
template <class T>
concept collective_element =
    std::is_trivially_copyable_v<T> && sizeof(T) <= detail::mailbox_payload_bytes;

/// Broadcast `data` from `root` to every processor (in place). Any trivially
/// copyable type; it travels as bytes.
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void broadcast(std::span<T> data, proc_t root = 0) {
  auto& c = detail::collective_context("broadcast");
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(c.procs)) [[unlikely]]
    detail::bad_root(c, root);
  const detail::broadcast_scope sign(
      c, detail::collective_signature<detail::collective_kind::broadcast, T, void>, root);
  if (detail::native_try_broadcast(c, detail::collective_signature<detail::collective_kind::broadcast, T, void>,
                                   data.data(), data.size_bytes(), data.size(), root))
    return;
  detail::checked_broadcast(
      c, std::span<unsigned char>(reinterpret_cast<unsigned char*>(data.data()), data.size_bytes()),
      root);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline T broadcast(T value, proc_t root = 0) {
  broadcast(std::span<T>(&value, 1), root);
  return value;
}

/// Reduce every processor's elements with `op` in processor order; the
/// result is valid on processor 0 (elsewhere the span holds partial results).
template <collective_element T, class Op>
inline void reduce_to_one(std::span<T> data, Op op) {
  auto& c = detail::collective_context("reduce_to_one");
  constexpr auto signature = detail::collective_signature<detail::collective_kind::reduce_to_one, T, Op>;
  const detail::signature_scope sign(c, signature);
  detail::prepare_operands(data, op);
  if (detail::native_try<native_collective::reduce_to_all, T, Op>(c, signature, data, data.data()))
    return;
  detail::reduce_up(c, data, op);
}
template <collective_element T, class Op>
inline T reduce_to_one(T value, Op op) {
  reduce_to_one(std::span<T>(&value, 1), op);
  return value;
}

/// Reduce and give every processor the result.
template <collective_element T, class Op>
inline void reduce_to_all(std::span<T> data, Op op) {
  auto& c = detail::collective_context("reduce_to_all");
  constexpr auto signature = detail::collective_signature<detail::collective_kind::reduce_to_all, T, Op>;
  const detail::signature_scope sign(c, signature);
  detail::prepare_operands(data, op);
  if (c.procs == 1) return;
  if (detail::native_try<native_collective::reduce_to_all, T, Op>(c, signature, data, data.data()))
    return;
  const bool power_of_two = (c.procs & (c.procs - 1)) == 0;
  if constexpr (is_commutative<Op>) {
    if (data.size_bytes() >= binary_swap_threshold) {
      detail::binary_swap_reduce_to_all(c, data, op);
      return;
    }
  }
  if (data.size_bytes() < binary_swap_threshold && (is_commutative<Op> || power_of_two)) {
    detail::butterfly_reduce_to_all(c, data, op);
    return;
  }
  detail::reduce_up(c, data, op);
  detail::broadcast_down(c, data, 0);
}
template <collective_element T, class Op>
inline T reduce_to_all(T value, Op op) {
  reduce_to_all(std::span<T>(&value, 1), op);
  return value;
}

/// Inclusive scan: processor i gets a0 op ... op ai (element-wise for spans).
template <collective_element T, class Op>
inline void scan(std::span<T> data, Op op) {
  auto& c = detail::collective_context("scan");
  constexpr auto signature = detail::collective_signature<detail::collective_kind::scan, T, Op>;
  const detail::signature_scope sign(c, signature);
  detail::prepare_operands(data, op);
  if (detail::native_try<native_collective::scan, T, Op>(c, signature, data, data.data())) return;
  detail::scan_chunks(c, data, op, std::span<T>{});
}
template <collective_element T, class Op>
inline T scan(T value, Op op) {
  scan(std::span<T>(&value, 1), op);
  return value;
}

/// Exclusive scan: processor i gets a0 op ... op a(i-1); processor 0 gets `identity`.
template <collective_element T, class Op>
inline T exclusive_scan(T value, Op op, T identity) {
  auto& c = detail::collective_context("exclusive_scan");
  constexpr auto signature = detail::collective_signature<detail::collective_kind::exclusive_scan, T, Op>;
  const detail::signature_scope sign(c, signature);
  detail::prepare_operands(std::span<T>(&value, 1), op);
  T before = identity;
  if (detail::native_try<native_collective::exclusive_scan, T, Op>(c, signature, std::span<T>(&value, 1),
                                                                   &before))
    return c.myproc > 0 ? before : identity;
  detail::scan_chunks(c, std::span<T>(&value, 1), op, std::span<T>(&before, 1));
  return c.myproc > 0 ? before : identity;
}

}  // namespace splitc
