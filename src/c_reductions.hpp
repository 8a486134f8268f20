// The C interface's reductions and scans (c_collectives.cpp, c_teams.cpp) on one instance of
// each algorithm per element size. A C name such as team_reduce_to_all_dadd_v stands for a
// type and an operator: it makes its collective's group with the typed signature (members
// calling different names are still told apart, as in C++), tries the layer's own reduction
// with the real type (the CM-5's control network, world only), and otherwise runs the generic
// algorithm on cells of the type's size and alignment, with an operator that combines a whole
// run of them through one function of the real type: the C++ calls' cells and operators
// (detail/erased_reduction.hpp), here pointing to one object of each stateless operator. So
// the 29 typed names of a collective compile its algorithms twice, for 4- and 8-byte elements,
// instead of 29 times (issue 37: c_teams.cpp was a third of the core's compile on every
// backend), with the same algorithm, the same order of combining and so the same results as
// the C++ calls.
#pragma once

#include <splitc/exchanges.hpp>
#include <splitc/split_phase_collectives.hpp>

#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

namespace splitc::c_reductions {

/// An element of T's size and alignment (detail/erased_reduction.hpp).
template <class T>
using cell = detail::cell_for<T>;

/// The one object of each of the C interface's operators (they have no state) that the
/// operators on cells point to.
template <class Op>
inline Op operator_object{};

/// The operator on cells that stands for Op on T: every operator of the C interface is
/// commutative.
template <class T, class Op>
detail::erased_operator<sizeof(T), alignof(T), true> erased() {
  static_assert(is_commutative<Op>);
  return detail::erase_operator<T, Op, true>(operator_object<Op>);
}
template <class T>
std::span<cell<T>> cells(T* data, std::size_t n) {
  return detail::as_cells(std::span<T>(data, n));
}
template <class T>
std::span<const cell<T>> cells(const T* data, std::size_t n) {
  return detail::as_cells(std::span<const T>(data, n));
}
template <class T>
cell<T> cell_of(T value) {
  cell<T> c;
  std::memcpy(c.bytes, &value, sizeof(T));
  return c;
}

template <detail::collective_kind Kind, class T, class Op>
inline constexpr std::uint64_t signature = detail::collective_signature<Kind, T, Op>;

/// The layer's own reduction, tried with the real type as the C++ calls try it (collectives.hpp);
/// when it does not serve, the generic algorithm runs on the mailboxes.
template <native_collective What, class T, class Op>
bool native(detail::collective_group& g, std::span<T> in, T* out) {
  if (!g.native) return false;
  if (detail::native_try<What, T, Op>(g.c, g.signature, in, out)) return true;
  g.native = false;
  return false;
}

// ---- blocking, on a group made by the caller (world_group or team::group) ------------------

// The algorithms once per element size and alignment, out of line: the typed names only call
// them. (Named apart from detail's inline *_cells, which argument-dependent lookup also finds.)
template <std::size_t N, std::size_t A>
using sized_operator = detail::erased_operator<N, A, true>;

template <std::size_t N, std::size_t A>
[[gnu::noinline]] void reduce_to_one_sized(detail::collective_group& g,
                                           std::span<detail::erased_cell<N, A>> data,
                                           sized_operator<N, A> op) {
  detail::reduce_to_one_on(g, data, op);
}
template <std::size_t N, std::size_t A>
[[gnu::noinline]] void reduce_to_all_sized(detail::collective_group& g,
                                           std::span<detail::erased_cell<N, A>> data,
                                           sized_operator<N, A> op) {
  detail::reduce_to_all_on(g, data, op);
}
template <std::size_t N, std::size_t A>
[[gnu::noinline]] void scan_sized(detail::collective_group& g,
                                  std::span<detail::erased_cell<N, A>> data,
                                  sized_operator<N, A> op) {
  detail::scan_on(g, data, op);
}

template <class T, class Op>
void reduce_to_one(detail::collective_group g, T* data, std::size_t n) {
  if (native<native_collective::reduce_to_all, T, Op>(g, std::span<T>(data, n), data)) return;
  reduce_to_one_sized(g, cells(data, n), erased<T, Op>());
}

template <class T, class Op>
void reduce_to_all(detail::collective_group g, T* data, std::size_t n) {
  if (g.size == 1) return;
  if (native<native_collective::reduce_to_all, T, Op>(g, std::span<T>(data, n), data)) return;
  reduce_to_all_sized(g, cells(data, n), erased<T, Op>());
}

template <class T, class Op>
void scan(detail::collective_group g, T* data, std::size_t n) {
  if (native<native_collective::scan, T, Op>(g, std::span<T>(data, n), data)) return;
  scan_sized(g, cells(data, n), erased<T, Op>());
}

template <std::size_t N, std::size_t A>
[[gnu::noinline]] void exclusive_scan_sized(detail::collective_group& g,
                                            std::span<detail::erased_cell<N, A>> data,
                                            sized_operator<N, A> op,
                                            detail::erased_cell<N, A> identity) {
  std::vector<detail::erased_cell<N, A>> before(data.size(), identity);
  detail::exclusive_scan_on(g, data, op, std::span<detail::erased_cell<N, A>>(before));
  if (g.rank == 0) std::fill(before.begin(), before.end(), identity);
  std::copy(before.begin(), before.end(), data.begin());
}

/// rank i gets a0 op ... op a(i-1); rank 0 gets `identity`.
template <class T, class Op>
void exclusive_scan(detail::collective_group g, T* data, std::size_t n, T identity) {
  if (n == 1) {
    T before = identity;
    if (native<native_collective::exclusive_scan, T, Op>(g, std::span<T>(data, 1), &before)) {
      *data = g.rank > 0 ? before : identity;
      return;
    }
  }
  exclusive_scan_sized(g, cells(data, n), erased<T, Op>(), cell_of(identity));
}

template <class T, class Op>
void reduce_scatter(const team& t, const T* in, T* out, std::size_t count) {
  auto g = t.group("reduce_scatter", signature<detail::collective_kind::reduce_scatter, T, Op>);
  const std::size_t total = count * static_cast<std::size_t>(g.size);
  const auto counts = detail::equal_counts(g, count);
  auto op = erased<T, Op>();
  detail::reduce_scatter_on(g, cells(in, total), cells(out, count),
                            std::span<const std::size_t>(counts), op);
}

// ---- split-phase, completing on a counter ----------------------------------------------

template <std::size_t N, std::size_t A>
void start_reduce_to_one(const detail::collective_group& g,
                         std::span<detail::erased_cell<N, A>> data, sized_operator<N, A> op,
                         counter& done) {
  detail::start_split_phase(g, done, [data, op](detail::collective_group& g) mutable {
    detail::reduce_to_one_on(g, data, op);
  });
}
template <std::size_t N, std::size_t A>
void start_reduce_to_all(const detail::collective_group& g,
                         std::span<detail::erased_cell<N, A>> data, sized_operator<N, A> op,
                         counter& done) {
  detail::start_split_phase(g, done, [data, op](detail::collective_group& g) mutable {
    detail::reduce_to_all_on(g, data, op);
  });
}
template <std::size_t N, std::size_t A>
void start_scan(const detail::collective_group& g, std::span<detail::erased_cell<N, A>> data,
                sized_operator<N, A> op, counter& done) {
  detail::start_split_phase(g, done, [data, op](detail::collective_group& g) mutable {
    detail::scan_on(g, data, op);
  });
}
template <std::size_t N, std::size_t A>
void start_exclusive_scan(const detail::collective_group& g,
                          std::span<detail::erased_cell<N, A>> data, sized_operator<N, A> op,
                          detail::erased_cell<N, A> identity, counter& done) {
  detail::start_split_phase(g, done, [data, op, identity](detail::collective_group& g) {
    exclusive_scan_sized(g, data, op, identity);
  });
}
template <std::size_t N, std::size_t A>
void start_reduce_scatter(const detail::collective_group& g,
                          std::span<const detail::erased_cell<N, A>> in,
                          std::span<detail::erased_cell<N, A>> out, sized_operator<N, A> op,
                          counter& done) {
  detail::start_split_phase(g, done, [in, out, op](detail::collective_group& g) mutable {
    const auto counts = detail::equal_counts(g, out.size());  // in: out.size() per member
    detail::reduce_scatter_on(g, in, out, std::span<const std::size_t>(counts), op);
  });
}

template <detail::collective_kind Kind, class T, class Op>
detail::collective_group split_group(const team& t, const char* what) {
  return t.group(what, signature<Kind, T, Op>, true);
}

/// Reduce-scatter with blocks of counts[r] elements (`in` holds their sum, `out` this
/// member's), blocking, or split-phase with `done` (the counts kept by the collective).
template <class T, class Op, class... Done>
void reduce_scatterv(const team& t, const T* in, T* out, std::vector<std::size_t> counts,
                     Done&... done) {
  std::size_t total = 0;
  for (auto n : counts) total += n;
  auto block = cells(out, counts[static_cast<std::size_t>(t.rank())]);
  auto run = [data = cells(in, total), block, c = std::move(counts),
              op = erased<T, Op>()](detail::collective_group& g) mutable {
    detail::reduce_scatter_on(g, data, block, std::span<const std::size_t>(c), op);
  };
  if constexpr (sizeof...(Done) == 0) {
    auto g = t.group("reduce_scatterv", signature<detail::collective_kind::reduce_scatter, T, Op>);
    run(g);
  } else {
    detail::start_split_phase(split_group<detail::collective_kind::reduce_scatter, T, Op>(
                                  t, "reduce_scatterv"),
                              done..., std::move(run));
  }
}

}  // namespace splitc::c_reductions
