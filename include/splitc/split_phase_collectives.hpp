// Every collective in a split-phase form: the same arguments, then a counter. The call starts
// the collective and returns; sync(ctr) waits for it and is_sync(ctr) tests it (the counter
// counts the collectives in flight on it, as it counts gets and puts). Until then the program
// must leave the buffers alone (the data is read and written while the collective runs).
// Collectives progress whenever this processor polls or waits: splitc::poll(), is_sync, sync,
// any blocking call. Ordering (detail/split_phase.hpp): per team, in issue order, the same on
// every member; any number in flight on the same or different teams.
//
//   splitc::counter done;
//   splitc::reduce_to_all(row, std::span<double>(v), splitc::ops::add{}, done);
//   ... compute, calling splitc::poll() now and then ...
//   splitc::sync(done);
#pragma once

#include <splitc/exchanges.hpp>
#include <splitc/global_memory.hpp>

#include <vector>

namespace splitc {

namespace detail {
template <collective_kind Kind, class T = void, class Op = void>
inline collective_group split_group(const team& t, const char* what) {
  return t.group(what, collective_signature<Kind, T, Op>, true);
}
inline std::vector<std::size_t> copy_counts(std::span<const std::size_t> counts) {
  return {counts.begin(), counts.end()};
}
}  // namespace detail

inline void barrier(const team& t, counter& done) {
  detail::start_split_phase(detail::split_group<detail::collective_kind::barrier>(t, "barrier"), done,
                            [](detail::collective_group& g) { detail::barrier_on(g); });
}

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void broadcast(const team& t, std::span<T> data, proc_t root, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::broadcast, T>(t, "broadcast"), done,
      [data, root](detail::collective_group& g) { detail::broadcast_on(g, data, root, "broadcast"); });
}

template <collective_element T, class Op>
inline void reduce_to_one(const team& t, std::span<T> data, Op op, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::reduce_to_one, T, Op>(t, "reduce_to_one"), done,
      [data, op](detail::collective_group& g) mutable { detail::reduce_to_one_on(g, data, op); });
}

template <collective_element T, class Op>
inline void reduce_to_all(const team& t, std::span<T> data, Op op, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::reduce_to_all, T, Op>(t, "reduce_to_all"), done,
      [data, op](detail::collective_group& g) mutable { detail::reduce_to_all_on(g, data, op); });
}

template <collective_element T, class Op>
inline void scan(const team& t, std::span<T> data, Op op, counter& done) {
  detail::start_split_phase(detail::split_group<detail::collective_kind::scan, T, Op>(t, "scan"),
                            done, [data, op](detail::collective_group& g) mutable {
                              detail::scan_on(g, data, op);
                            });
}

template <collective_element T, class Op>
inline void exclusive_scan(const team& t, std::span<T> data, Op op, T identity, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::exclusive_scan, T, Op>(t, "exclusive_scan"), done,
      [data, op, identity](detail::collective_group& g) mutable {
        std::vector<T> before(data.size(), identity);
        detail::exclusive_scan_on(g, data, op, std::span<T>(before));
        if (g.rank == 0) std::fill(before.begin(), before.end(), identity);
        std::copy(before.begin(), before.end(), data.begin());
      });
}

// The forms that move each member's own data check this member's arguments at the call
// (exchanges.hpp), before they return: a size that cannot fit is reported from the caller's
// stack, before anything is in flight. Counts are copied: the caller's may go once it returns.

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gather(const team& t, std::span<const T> mine, std::span<T> all, proc_t root,
                   counter& done) {
  auto g = detail::split_group<detail::collective_kind::gather, T>(t, "gather");
  detail::check_gather(g, std::span<const T>(all),
                       std::span<const std::size_t>(detail::equal_counts(g, mine.size())), root,
                       "gather");
  detail::start_split_phase(g, done, [mine, all, root](detail::collective_group& g) {
    const auto counts = detail::equal_counts(g, mine.size());
    detail::gather_on(g, mine, all, std::span<const std::size_t>(counts), root);
  });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                    std::span<const std::size_t> counts, proc_t root, counter& done) {
  auto g = detail::split_group<detail::collective_kind::gather, T>(t, "gatherv");
  detail::check_gather(g, std::span<const T>(all), counts, root, "gatherv");
  detail::start_split_phase(
      g, done, [mine, all, c = detail::copy_counts(counts), root](detail::collective_group& g) {
        detail::gather_on(g, mine, all, std::span<const std::size_t>(c), root);
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatter(const team& t, std::span<const T> all, std::span<T> mine, proc_t root,
                    counter& done) {
  auto g = detail::split_group<detail::collective_kind::scatter, T>(t, "scatter");
  detail::check_scatter(g, all, std::span<const std::size_t>(detail::equal_counts(g, mine.size())),
                        root, "scatter");
  detail::start_split_phase(g, done, [all, mine, root](detail::collective_group& g) {
    const auto counts = detail::equal_counts(g, mine.size());
    detail::scatter_on(g, all, std::span<const std::size_t>(counts), mine, root);
  });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatterv(const team& t, std::span<const T> all, std::span<const std::size_t> counts,
                     std::span<T> mine, proc_t root, counter& done) {
  auto g = detail::split_group<detail::collective_kind::scatter, T>(t, "scatterv");
  detail::check_scatter(g, all, counts, root, "scatterv");
  detail::start_split_phase(
      g, done, [all, c = detail::copy_counts(counts), mine, root](detail::collective_group& g) {
        detail::scatter_on(g, all, std::span<const std::size_t>(c), mine, root);
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gather(const team& t, std::span<const T> mine, std::span<T> all, counter& done) {
  auto g = detail::split_group<detail::collective_kind::all_gather, T>(t, "all_gather");
  detail::check_all_gather(g, mine, all,
                           std::span<const std::size_t>(detail::equal_counts(g, mine.size())),
                           "all_gather");
  detail::start_split_phase(g, done, [mine, all](detail::collective_group& g) {
    const auto counts = detail::equal_counts(g, mine.size());
    detail::all_gather_on(g, mine, all, std::span<const std::size_t>(counts));
  });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                        std::span<const std::size_t> counts, counter& done) {
  auto g = detail::split_group<detail::collective_kind::all_gather, T>(t, "all_gatherv");
  detail::check_all_gather(g, mine, all, counts, "all_gatherv");
  detail::start_split_phase(g, done,
                            [mine, all, c = detail::copy_counts(counts)](detail::collective_group& g) {
                              detail::all_gather_on(g, mine, all, std::span<const std::size_t>(c));
                            });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_all(const team& t, std::span<const T> send, std::span<T> receive, counter& done) {
  auto g = detail::split_group<detail::collective_kind::all_to_all, T>(t, "all_to_all");
  const std::size_t block = detail::block_count(g, "all_to_all", "the data sent", send.size());
  {
    const auto counts = detail::equal_counts(g, block);
    const std::span<const std::size_t> c(counts);
    detail::check_all_to_all(g, send, c, receive, c, "all_to_all");
  }
  detail::start_split_phase(g, done, [send, receive, block](detail::collective_group& g) {
    const auto counts = detail::equal_counts(g, block);
    const std::span<const std::size_t> c(counts);
    detail::all_to_all_on(g, send, c, receive, c);
  });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_allv(const team& t, std::span<const T> send,
                        std::span<const std::size_t> send_counts, std::span<T> receive,
                        std::span<const std::size_t> receive_counts, counter& done) {
  auto g = detail::split_group<detail::collective_kind::all_to_all, T>(t, "all_to_allv");
  detail::check_all_to_all(g, send, send_counts, receive, receive_counts, "all_to_allv");
  detail::start_split_phase(g, done,
                            [send, s = detail::copy_counts(send_counts), receive,
                             r = detail::copy_counts(receive_counts)](detail::collective_group& g) {
                              detail::all_to_all_on(g, send, std::span<const std::size_t>(s),
                                                    receive, std::span<const std::size_t>(r));
                            });
}
template <collective_element T, class Op>
inline void reduce_scatter(const team& t, std::span<const T> in, std::span<T> out, Op op,
                           counter& done) {
  auto g = detail::split_group<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatter");
  const std::size_t block = detail::block_count(g, "reduce_scatter", "the data", in.size());
  detail::check_reduce_scatter(g, in, out,
                               std::span<const std::size_t>(detail::equal_counts(g, block)),
                               "reduce_scatter");
  detail::start_split_phase(g, done, [in, out, op, block](detail::collective_group& g) mutable {
    const auto counts = detail::equal_counts(g, block);
    detail::reduce_scatter_on(g, in, out, std::span<const std::size_t>(counts), op);
  });
}
template <collective_element T, class Op>
inline void reduce_scatterv(const team& t, std::span<const T> in, std::span<T> out,
                            std::span<const std::size_t> counts, Op op, counter& done) {
  auto g = detail::split_group<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatterv");
  detail::check_reduce_scatter(g, in, out, counts, "reduce_scatterv");
  detail::start_split_phase(
      g, done, [in, out, c = detail::copy_counts(counts), op](detail::collective_group& g) mutable {
        detail::reduce_scatter_on(g, in, out, std::span<const std::size_t>(c), op);
      });
}

// ---- the same over all processors ------------------------------------------------------

inline void barrier(counter& done) { barrier(team::world(), done); }
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void broadcast(std::span<T> data, proc_t root, counter& done) {
  broadcast(team::world(), data, root, done);
}
template <collective_element T, class Op>
inline void reduce_to_one(std::span<T> data, Op op, counter& done) {
  reduce_to_one(team::world(), data, op, done);
}
template <collective_element T, class Op>
inline void reduce_to_all(std::span<T> data, Op op, counter& done) {
  reduce_to_all(team::world(), data, op, done);
}
template <collective_element T, class Op>
inline void scan(std::span<T> data, Op op, counter& done) {
  scan(team::world(), data, op, done);
}
template <collective_element T, class Op>
inline void exclusive_scan(std::span<T> data, Op op, T identity, counter& done) {
  exclusive_scan(team::world(), data, op, identity, done);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gather(std::span<const T> mine, std::span<T> all, counter& done) {
  all_gather(team::world(), mine, all, done);
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_all(std::span<const T> send, std::span<T> receive, counter& done) {
  all_to_all(team::world(), send, receive, done);
}
template <collective_element T, class Op>
inline void reduce_scatter(std::span<const T> in, std::span<T> out, Op op, counter& done) {
  reduce_scatter(team::world(), in, out, op, done);
}

}  // namespace splitc
