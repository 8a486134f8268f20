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

template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gather(const team& t, std::span<const T> mine, std::span<T> all, proc_t root,
                   counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::gather, T>(t, "gather"), done,
      [mine, all, root](detail::collective_group& g) {
        const auto counts = detail::equal_counts(g, mine.size());
        detail::gather_on(g, mine, all, std::span<const std::size_t>(counts), root, "gather");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                    std::span<const std::size_t> counts, proc_t root, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::gather, T>(t, "gatherv"), done,
      [mine, all, c = detail::copy_counts(counts), root](detail::collective_group& g) {
        detail::gather_on(g, mine, all, std::span<const std::size_t>(c), root, "gatherv");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatter(const team& t, std::span<const T> all, std::span<T> mine, proc_t root,
                    counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::scatter, T>(t, "scatter"), done,
      [all, mine, root](detail::collective_group& g) {
        const auto counts = detail::equal_counts(g, mine.size());
        detail::scatter_on(g, all, std::span<const std::size_t>(counts), mine, root, "scatter");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void scatterv(const team& t, std::span<const T> all, std::span<const std::size_t> counts,
                     std::span<T> mine, proc_t root, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::scatter, T>(t, "scatterv"), done,
      [all, c = detail::copy_counts(counts), mine, root](detail::collective_group& g) {
        detail::scatter_on(g, all, std::span<const std::size_t>(c), mine, root, "scatterv");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gather(const team& t, std::span<const T> mine, std::span<T> all, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::all_gather, T>(t, "all_gather"), done,
      [mine, all](detail::collective_group& g) {
        const auto counts = detail::equal_counts(g, mine.size());
        detail::all_gather_on(g, mine, all, std::span<const std::size_t>(counts), "all_gather");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_gatherv(const team& t, std::span<const T> mine, std::span<T> all,
                        std::span<const std::size_t> counts, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::all_gather, T>(t, "all_gatherv"), done,
      [mine, all, c = detail::copy_counts(counts)](detail::collective_group& g) {
        detail::all_gather_on(g, mine, all, std::span<const std::size_t>(c), "all_gatherv");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_all(const team& t, std::span<const T> send, std::span<T> receive, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::all_to_all, T>(t, "all_to_all"), done,
      [send, receive](detail::collective_group& g) {
        const auto counts = detail::equal_counts(
            g, detail::block_count(g, "all_to_all", "the data sent", send.size()));
        detail::all_to_all_on(g, send, std::span<const std::size_t>(counts), receive,
                              std::span<const std::size_t>(counts), "all_to_all");
      });
}
template <class T>
  requires std::is_trivially_copyable_v<T>
inline void all_to_allv(const team& t, std::span<const T> send,
                        std::span<const std::size_t> send_counts, std::span<T> receive,
                        std::span<const std::size_t> receive_counts, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::all_to_all, T>(t, "all_to_allv"), done,
      [send, s = detail::copy_counts(send_counts), receive,
       r = detail::copy_counts(receive_counts)](detail::collective_group& g) {
        detail::all_to_all_on(g, send, std::span<const std::size_t>(s), receive,
                              std::span<const std::size_t>(r), "all_to_allv");
      });
}
template <collective_element T, class Op>
inline void reduce_scatter(const team& t, std::span<const T> in, std::span<T> out, Op op,
                           counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatter"), done,
      [in, out, op](detail::collective_group& g) mutable {
        const auto counts =
            detail::equal_counts(g, detail::block_count(g, "reduce_scatter", "the data", in.size()));
        detail::reduce_scatter_on(g, in, out, std::span<const std::size_t>(counts), op);
      });
}
template <collective_element T, class Op>
inline void reduce_scatterv(const team& t, std::span<const T> in, std::span<T> out,
                            std::span<const std::size_t> counts, Op op, counter& done) {
  detail::start_split_phase(
      detail::split_group<detail::collective_kind::reduce_scatter, T, Op>(t, "reduce_scatterv"), done,
      [in, out, c = detail::copy_counts(counts), op](detail::collective_group& g) mutable {
        detail::check_reduce_scatterv(g, c, in.size());
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
