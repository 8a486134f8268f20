// Global communication (seed §3.3): barrier, broadcast, reduce to one,
// reduce to all, and scans, for single values and vectors of any trivially
// copyable type with any associative operator -- over all processors, or over
// the members of a team (team.hpp: every call below has a form whose first
// argument is the team; ranks then take the place of processor numbers).
// Gathers, scatters, all-to-all and reduce-scatter are in exchanges.hpp.
//
// All members must call the same collectives in the same order. Reductions
// and scans combine in rank order, so a non-commutative operator gives the
// sequential answer (detail/collective_algorithms.hpp); successive collectives
// pipeline rather than paying a barrier each, and a processor waiting in a
// collective keeps serving active messages. A member calling another
// collective, with another type, count or root, is reported by name.
//
// On a backend with native collectives (PORTING.md: has_native_barrier,
// has_native_reduce -- the CM-5's control network) barrier() and single-value
// reductions, scans and small broadcasts of the world run on the layer's
// network instead, after an agreement check (detail/native_collectives.hpp);
// the control network serves the whole partition only, so teams use the mailboxes.
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

#include <splitc/detail/collective_algorithms.hpp>
#include <splitc/detail/erased_reduction.hpp>
#include <splitc/detail/native_collectives.hpp>
#include <splitc/detail/split_phase.hpp>
#include <splitc/runtime.hpp>
#include <splitc/team.hpp>

#include <functional>
#include <span>
#include <type_traits>

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

template <std::size_t N, std::size_t A>
inline constexpr bool is_commutative<detail::erased_operator<N, A, true>> = true;

namespace detail {

/// The world's channels for one collective call. The checks earlier broadcasts left are made
/// first, and the announcements they owe sent, unless a broadcast asks to leave them to
/// checked_broadcast (`broadcast`).
inline collective_group world_group(const char* what, std::uint64_t signature,
                                    bool broadcast = false) {
  context& c = blocking_context(what);
  // Split-phase collectives on the world's channels come first (in issue order).
  if (c.split_phase_in_flight != 0) [[unlikely]] finish_split_phase(c, c.mail);
  collective_group g{c, c.mail, nullptr, c.myproc, c.procs, signature, -1, true};
  if (!broadcast) settle_before_other_collective(g);
  return g;
}

template <class T>
inline void broadcast_on(collective_group& g, std::span<T> data, proc_t root, const char* what) {
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(g.size)) [[unlikely]]
    bad_root(g, root, what);
  if (g.native &&
      native_try_broadcast(g.c, g.signature, data.data(), data.size_bytes(), data.size(), root))
    return;
  sign_broadcast(g, root);
  checked_broadcast(
      g, std::span<unsigned char>(reinterpret_cast<unsigned char*>(data.data()), data.size_bytes()),
      root);
  broadcast_finished(g);
}

/// The operator on cells that stands for Op on T (detail/erased_reduction.hpp).
template <class T, class Op>
inline auto erased(Op& op) {
  return erase_operator<T, Op, is_commutative<Op>>(op);
}

template <class T, class Op>
inline void reduce_to_all_algorithm(collective_group& g, std::span<T> data, Op& op);

// The algorithms once per element size, alignment and commutativity. Inline: called out of
// line they made a 4-byte reduce to one 2-2.5x slower (docs/architecture.md).
template <std::size_t N, std::size_t A, bool C>
inline void reduce_up_cells(collective_group& g, std::span<erased_cell<N, A>> data,
                            erased_operator<N, A, C> op) {
  reduce_up(g, data, op);
}
template <std::size_t N, std::size_t A, bool C>
inline void reduce_to_all_cells(collective_group& g, std::span<erased_cell<N, A>> data,
                                erased_operator<N, A, C> op) {
  reduce_to_all_algorithm(g, data, op);
}
template <std::size_t N, std::size_t A, bool C>
inline void scan_cells(collective_group& g, std::span<erased_cell<N, A>> data,
                       erased_operator<N, A, C> op, std::span<erased_cell<N, A>> before) {
  scan_chunks(g, data, op, before);
}

template <class T, class Op>
inline void reduce_to_one_on(collective_group& g, std::span<T> data, Op& op) {
  prepare_operands(data, op);
  if (g.native &&
      native_try<native_collective::reduce_to_all, T, Op>(g.c, g.signature, data, data.data()))
    return;
  if constexpr (runs_erased<T, Op>) reduce_up_cells(g, as_cells(data), erased<T>(op));
  else reduce_up(g, data, op);
}

template <class T, class Op>
inline void reduce_to_all_on(collective_group& g, std::span<T> data, Op& op) {
  prepare_operands(data, op);
  if (g.size == 1) return;
  if (g.native &&
      native_try<native_collective::reduce_to_all, T, Op>(g.c, g.signature, data, data.data()))
    return;
  if constexpr (runs_erased<T, Op>) reduce_to_all_cells(g, as_cells(data), erased<T>(op));
  else reduce_to_all_algorithm(g, data, op);
}

template <class T, class Op>
inline void scan_on(collective_group& g, std::span<T> data, Op& op) {
  prepare_operands(data, op);
  if (g.native &&
      native_try<native_collective::scan, T, Op>(g.c, g.signature, data, data.data()))
    return;
  if constexpr (runs_erased<T, Op>)
    scan_cells(g, as_cells(data), erased<T>(op), std::span<cell_for<T>>{});
  else scan_chunks(g, data, op, std::span<T>{});
}

/// Exclusive scan into `before` (rank 0's left as it is).
template <class T, class Op>
inline void exclusive_scan_on(collective_group& g, std::span<T> data, Op& op, std::span<T> before) {
  prepare_operands(data, op);
  if (g.native && data.size() == 1 &&
      native_try<native_collective::exclusive_scan, T, Op>(g.c, g.signature, data, before.data()))
    return;
  if constexpr (runs_erased<T, Op>)
    scan_cells(g, as_cells(data), erased<T>(op), as_cells(before));
  else scan_chunks(g, data, op, before);
}

void barrier_on(collective_group& g);  // src/runtime.cpp

}  // namespace detail

/// Elements of the reductions and scans must fit one mailbox message.
template <class T>
concept collective_element =
    std::is_trivially_copyable_v<T> && sizeof(T) <= detail::mailbox_payload_bytes;

/// Wait until every member of the team has arrived.
void barrier(const team& t);

/// Broadcast `data` from `root` to every processor (in place). Any trivially
/// copyable type; it travels as bytes.
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void broadcast(std::span<T> data, proc_t root = 0) {
  auto g = detail::world_group(
      "broadcast", detail::collective_signature<detail::collective_kind::broadcast, T, void>, true);
  detail::broadcast_on(g, data, root, "broadcast");
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void broadcast(const team& t, std::span<T> data, proc_t root = 0) {
  auto g = t.group("broadcast", detail::collective_signature<detail::collective_kind::broadcast, T, void>,
                   false, true);
  detail::broadcast_on(g, data, root, "broadcast");
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline T broadcast(T value, proc_t root = 0) {
  broadcast(std::span<T>(&value, 1), root);
  return value;
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline T broadcast(const team& t, T value, proc_t root = 0) {
  broadcast(t, std::span<T>(&value, 1), root);
  return value;
}

/// Reduce every member's elements with `op` in rank order; the result is
/// valid on rank 0 (elsewhere the span holds partial results).
template <collective_element T, class Op>
inline void reduce_to_one(std::span<T> data, Op op) {
  auto g = detail::world_group(
      "reduce_to_one", detail::collective_signature<detail::collective_kind::reduce_to_one, T, Op>);
  detail::reduce_to_one_on(g, data, op);
}
template <collective_element T, class Op>
inline void reduce_to_one(const team& t, std::span<T> data, Op op) {
  auto g = t.group("reduce_to_one",
                   detail::collective_signature<detail::collective_kind::reduce_to_one, T, Op>);
  detail::reduce_to_one_on(g, data, op);
}
template <collective_element T, class Op>
inline T reduce_to_one(T value, Op op) {
  reduce_to_one(std::span<T>(&value, 1), op);
  return value;
}
template <collective_element T, class Op>
inline T reduce_to_one(const team& t, T value, Op op) {
  reduce_to_one(t, std::span<T>(&value, 1), op);
  return value;
}

namespace detail {
template <class T, class Op>
inline void reduce_to_all_algorithm(collective_group& g, std::span<T> data, Op& op) {
  const bool power_of_two = (g.size & (g.size - 1)) == 0;
  if constexpr (is_commutative<Op>) {
    if (data.size_bytes() >= binary_swap_threshold) {
      binary_swap_reduce_to_all(g, data, op);
      return;
    }
  }
  if (data.size_bytes() < binary_swap_threshold && (is_commutative<Op> || power_of_two)) {
    butterfly_reduce_to_all(g, data, op);
    return;
  }
  reduce_up(g, data, op);
  broadcast_down(g, data, 0);
}
}  // namespace detail

/// Reduce and give every member the result.
template <collective_element T, class Op>
inline void reduce_to_all(std::span<T> data, Op op) {
  auto g = detail::world_group(
      "reduce_to_all", detail::collective_signature<detail::collective_kind::reduce_to_all, T, Op>);
  detail::reduce_to_all_on(g, data, op);
}
template <collective_element T, class Op>
inline void reduce_to_all(const team& t, std::span<T> data, Op op) {
  auto g = t.group("reduce_to_all",
                   detail::collective_signature<detail::collective_kind::reduce_to_all, T, Op>);
  detail::reduce_to_all_on(g, data, op);
}
template <collective_element T, class Op>
inline T reduce_to_all(T value, Op op) {
  reduce_to_all(std::span<T>(&value, 1), op);
  return value;
}
template <collective_element T, class Op>
inline T reduce_to_all(const team& t, T value, Op op) {
  reduce_to_all(t, std::span<T>(&value, 1), op);
  return value;
}

/// Inclusive scan: rank i gets a0 op ... op ai (element-wise for spans).
template <collective_element T, class Op>
inline void scan(std::span<T> data, Op op) {
  auto g = detail::world_group("scan", detail::collective_signature<detail::collective_kind::scan, T, Op>);
  detail::scan_on(g, data, op);
}
template <collective_element T, class Op>
inline void scan(const team& t, std::span<T> data, Op op) {
  auto g = t.group("scan", detail::collective_signature<detail::collective_kind::scan, T, Op>);
  detail::scan_on(g, data, op);
}
template <collective_element T, class Op>
inline T scan(T value, Op op) {
  scan(std::span<T>(&value, 1), op);
  return value;
}
template <collective_element T, class Op>
inline T scan(const team& t, T value, Op op) {
  scan(t, std::span<T>(&value, 1), op);
  return value;
}

/// Exclusive scan: rank i gets a0 op ... op a(i-1) in `data`; rank 0 gets `identity`.
template <collective_element T, class Op>
inline void exclusive_scan(const team& t, std::span<T> data, Op op, T identity) {
  auto g = t.group("exclusive_scan",
                   detail::collective_signature<detail::collective_kind::exclusive_scan, T, Op>);
  std::vector<T> before(data.size(), identity);
  detail::exclusive_scan_on(g, data, op, std::span<T>(before));
  if (g.rank == 0) std::fill(before.begin(), before.end(), identity);
  std::copy(before.begin(), before.end(), data.begin());
}
template <collective_element T, class Op>
inline void exclusive_scan(std::span<T> data, Op op, T identity) {
  exclusive_scan(team::world(), data, op, identity);
}
template <collective_element T, class Op>
inline T exclusive_scan(T value, Op op, T identity) {
  auto g = detail::world_group(
      "exclusive_scan", detail::collective_signature<detail::collective_kind::exclusive_scan, T, Op>);
  T before = identity;
  detail::exclusive_scan_on(g, std::span<T>(&value, 1), op, std::span<T>(&before, 1));
  return g.rank > 0 ? before : identity;
}
template <collective_element T, class Op>
inline T exclusive_scan(const team& t, T value, Op op, T identity) {
  exclusive_scan(t, std::span<T>(&value, 1), op, identity);
  return value;
}

}  // namespace splitc
