// The C interface (splitc.h), part 4: teams and their collectives, each an instance of the
// C++ templates of team.hpp, collectives.hpp and exchanges.hpp (the reductions and scans through
// c_reductions.hpp: one instance per element size). A splitc_team_t owns a
// splitc::team; the world's handle is one shared object (the world team holds no state).
#include <splitc.h>

#include <splitc/exchanges.hpp>
#include <splitc/grid_teams.hpp>
#include <splitc/split_phase_collectives.hpp>
#include <splitc/port/fail.hpp>

#include "c_reductions.hpp"

#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

struct splitc_team {
  splitc::team team;
};

namespace {

namespace ops = splitc::ops;
using splitc::team;

splitc_team world_handle{team::world()};

const team& of(splitc_team_t t, const char* what) {
  if (t == nullptr) [[unlikely]]
    splitc::port::fail("{}: the team is NULL (what splitc_team_split gives a member that names "
                       "SPLITC_TEAM_NO_COLOR)",
                       what);
  return t->team;
}

splitc_team_t handle(team&& t) {
  if (!t.valid()) return nullptr;
  return new splitc_team{std::move(t)};
}

splitc::counter& cpp(splitc_counter_t* c, const char* what) {
  if (c == nullptr) [[unlikely]] splitc::port::fail("{}: the counter is NULL", what);
  return *reinterpret_cast<splitc::counter*>(c);
}

std::size_t bytes_of(int n, const char* what) {
  if (n < 0) [[unlikely]] splitc::port::fail("{}: negative length {}", what, n);
  return static_cast<std::size_t>(n);
}

std::vector<std::size_t> counts_of(const team& t, const int* counts, const char* what) {
  if (counts == nullptr) [[unlikely]] splitc::port::fail("{}: the counts are NULL", what);
  std::vector<std::size_t> v(static_cast<std::size_t>(t.size()));
  for (std::size_t r = 0; r < v.size(); ++r) v[r] = bytes_of(counts[r], what);
  return v;
}

/// What an exclusive scan gives rank 0: the operator's identity.
template <class T, class Op>
T identity() {
  if constexpr (std::is_same_v<Op, ops::mult>) return T(1);
  else if constexpr (std::is_same_v<Op, ops::max>) return std::numeric_limits<T>::lowest();
  else if constexpr (std::is_same_v<Op, ops::min>) return std::numeric_limits<T>::max();
  else if constexpr (std::is_same_v<Op, ops::bit_and>) return static_cast<T>(~T(0));
  else return T(0);
}

std::size_t sum(const std::vector<std::size_t>& v) {
  std::size_t s = 0;
  for (auto n : v) s += n;
  return s;
}

namespace cr = splitc::c_reductions;
using kind = splitc::detail::collective_kind;

/// The group of a blocking reduction or scan named `name` in C: the C++ call's (`what`), with
/// its typed signature.
template <kind K, class T, class Op>
splitc::detail::collective_group blocking(splitc_team_t t, const char* name, const char* what) {
  return of(t, name).group(what, cr::signature<K, T, Op>);
}
/// The same for its split-phase form.
template <kind K, class T, class Op>
splitc::detail::collective_group split(splitc_team_t t, const char* name, const char* what) {
  return cr::split_group<K, T, Op>(of(t, name), what);
}

using bytes = std::span<unsigned char>;
using const_bytes = std::span<const unsigned char>;
const_bytes in(const void* p, std::size_t n) { return {static_cast<const unsigned char*>(p), n}; }
bytes out(void* p, std::size_t n) { return {static_cast<unsigned char*>(p), n}; }

/// The vector collectives of C, blocking (no `done`) or split-phase (`done`, the C++ forms'
/// counter): the int counts read and checked at the call (gatherv's and scatterv's at the root
/// only); the split-phase C++ forms copy them, so the program may reuse its arrays at once.
template <class... Done>
void gatherv_c(const char* what, splitc_team_t t, const void* mine, int n, void* all,
               const int* counts, int root, Done&... done) {
  const team& tm = of(t, what);
  std::vector<std::size_t> c;
  if (tm.rank() == root) c = counts_of(tm, counts, what);
  splitc::gatherv(tm, in(mine, bytes_of(n, what)), out(all, sum(c)),
                  std::span<const std::size_t>(c), root, done...);
}
template <class... Done>
void scatterv_c(const char* what, splitc_team_t t, const void* all, const int* counts, void* mine,
                int n, int root, Done&... done) {
  const team& tm = of(t, what);
  std::vector<std::size_t> c;
  if (tm.rank() == root) c = counts_of(tm, counts, what);
  splitc::scatterv(tm, in(all, sum(c)), std::span<const std::size_t>(c),
                   out(mine, bytes_of(n, what)), root, done...);
}
template <class... Done>
void all_gatherv_c(const char* what, splitc_team_t t, const void* mine, int n, void* all,
                   const int* counts, Done&... done) {
  const team& tm = of(t, what);
  const auto c = counts_of(tm, counts, what);
  splitc::all_gatherv(tm, in(mine, bytes_of(n, what)), out(all, sum(c)),
                      std::span<const std::size_t>(c), done...);
}
template <class... Done>
void all_to_allv_c(const char* what, splitc_team_t t, const void* send, const int* send_counts,
                   void* receive, const int* receive_counts, Done&... done) {
  const team& tm = of(t, what);
  const auto s = counts_of(tm, send_counts, what);
  const auto r = counts_of(tm, receive_counts, what);
  splitc::all_to_allv(tm, in(send, sum(s)), std::span<const std::size_t>(s), out(receive, sum(r)),
                      std::span<const std::size_t>(r), done...);
}

}  // namespace

extern "C" {

splitc_team_t splitc_team_world(void) { return &world_handle; }
splitc_team_t splitc_team_split(splitc_team_t parent, int color, int key) {
  return handle(of(parent, "splitc_team_split").split(color, key));
}
splitc_team_t splitc_team_split_by_host(splitc_team_t parent) {
  return handle(of(parent, "splitc_team_split_by_host").split_by_host());
}
splitc_team_t splitc_team_grid_row(int r, int c) {
  splitc::layout::blocked_cyclic_2d l{};
  l.r = bytes_of(r, "splitc_team_grid_row"), l.c = bytes_of(c, "splitc_team_grid_row");
  return handle(splitc::grid_row_team(l));
}
splitc_team_t splitc_team_grid_column(int r, int c) {
  splitc::layout::blocked_cyclic_2d l{};
  l.r = bytes_of(r, "splitc_team_grid_column"), l.c = bytes_of(c, "splitc_team_grid_column");
  return handle(splitc::grid_column_team(l));
}
void splitc_team_free(splitc_team_t t) {
  if (t == nullptr || t == &world_handle) return;
  t->team.destroy();
  delete t;
}
int splitc_team_size(splitc_team_t t) { return t == nullptr ? 0 : t->team.size(); }
int splitc_team_rank(splitc_team_t t) { return t == nullptr ? -1 : t->team.rank(); }
int splitc_team_proc(splitc_team_t t, int rank) { return of(t, "splitc_team_proc").proc(rank); }
int splitc_team_rank_of(splitc_team_t t, int proc) { return t == nullptr ? -1 : t->team.rank_of(proc); }

void team_barrier(splitc_team_t t) { splitc::barrier(of(t, "team_barrier")); }
void team_bcast(splitc_team_t t, void* data, int n, int root) {
  splitc::broadcast(of(t, "team_bcast"), out(data, bytes_of(n, "team_bcast")), root);
}
void team_gather(splitc_team_t t, const void* mine, void* all, int n, int root) {
  const team& tm = of(t, "team_gather");
  const std::size_t b = bytes_of(n, "team_gather");
  const bool at_root = tm.rank() == root;
  splitc::gather(tm, in(mine, b), out(all, at_root ? b * static_cast<std::size_t>(tm.size()) : 0), root);
}
void team_scatter(splitc_team_t t, const void* all, void* mine, int n, int root) {
  const team& tm = of(t, "team_scatter");
  const std::size_t b = bytes_of(n, "team_scatter");
  const bool at_root = tm.rank() == root;
  splitc::scatter(tm, in(all, at_root ? b * static_cast<std::size_t>(tm.size()) : 0), out(mine, b), root);
}
void team_all_gather(splitc_team_t t, const void* mine, void* all, int n) {
  const team& tm = of(t, "team_all_gather");
  const std::size_t b = bytes_of(n, "team_all_gather");
  splitc::all_gather(tm, in(mine, b), out(all, b * static_cast<std::size_t>(tm.size())));
}
void team_all_to_all(splitc_team_t t, const void* send, void* receive, int n) {
  const team& tm = of(t, "team_all_to_all");
  const std::size_t b = bytes_of(n, "team_all_to_all") * static_cast<std::size_t>(tm.size());
  splitc::all_to_all(tm, in(send, b), out(receive, b));
}
void team_gatherv(splitc_team_t t, const void* mine, int n, void* all, const int* counts, int root) {
  gatherv_c("team_gatherv", t, mine, n, all, counts, root);
}
void team_scatterv(splitc_team_t t, const void* all, const int* counts, void* mine, int n, int root) {
  scatterv_c("team_scatterv", t, all, counts, mine, n, root);
}
void team_all_gatherv(splitc_team_t t, const void* mine, int n, void* all, const int* counts) {
  all_gatherv_c("team_all_gatherv", t, mine, n, all, counts);
}
void team_all_to_allv(splitc_team_t t, const void* send, const int* send_counts, void* receive,
                      const int* receive_counts) {
  all_to_allv_c("team_all_to_allv", t, send, send_counts, receive, receive_counts);
}

void team_barrier_ctr(splitc_team_t t, splitc_counter_t* ctr) {
  splitc::barrier(of(t, "team_barrier_ctr"), cpp(ctr, "team_barrier_ctr"));
}
void team_bcast_ctr(splitc_team_t t, void* data, int n, int root, splitc_counter_t* ctr) {
  splitc::broadcast(of(t, "team_bcast_ctr"), out(data, bytes_of(n, "team_bcast_ctr")), root,
                    cpp(ctr, "team_bcast_ctr"));
}
void team_gather_ctr(splitc_team_t t, const void* mine, void* all, int n, int root,
                     splitc_counter_t* ctr) {
  const team& tm = of(t, "team_gather_ctr");
  const std::size_t b = bytes_of(n, "team_gather_ctr");
  splitc::gather(tm, in(mine, b),
                 out(all, tm.rank() == root ? b * static_cast<std::size_t>(tm.size()) : 0), root,
                 cpp(ctr, "team_gather_ctr"));
}
void team_scatter_ctr(splitc_team_t t, const void* all, void* mine, int n, int root,
                      splitc_counter_t* ctr) {
  const team& tm = of(t, "team_scatter_ctr");
  const std::size_t b = bytes_of(n, "team_scatter_ctr");
  splitc::scatter(tm, in(all, tm.rank() == root ? b * static_cast<std::size_t>(tm.size()) : 0),
                  out(mine, b), root, cpp(ctr, "team_scatter_ctr"));
}
void team_all_gather_ctr(splitc_team_t t, const void* mine, void* all, int n, splitc_counter_t* ctr) {
  const team& tm = of(t, "team_all_gather_ctr");
  const std::size_t b = bytes_of(n, "team_all_gather_ctr");
  splitc::all_gather(tm, in(mine, b), out(all, b * static_cast<std::size_t>(tm.size())),
                     cpp(ctr, "team_all_gather_ctr"));
}
void team_all_to_all_ctr(splitc_team_t t, const void* send, void* receive, int n,
                         splitc_counter_t* ctr) {
  const team& tm = of(t, "team_all_to_all_ctr");
  const std::size_t b = bytes_of(n, "team_all_to_all_ctr") * static_cast<std::size_t>(tm.size());
  splitc::all_to_all(tm, in(send, b), out(receive, b), cpp(ctr, "team_all_to_all_ctr"));
}
void team_gatherv_ctr(splitc_team_t t, const void* mine, int n, void* all, const int* counts,
                      int root, splitc_counter_t* ctr) {
  gatherv_c("team_gatherv_ctr", t, mine, n, all, counts, root, cpp(ctr, "team_gatherv_ctr"));
}
void team_scatterv_ctr(splitc_team_t t, const void* all, const int* counts, void* mine, int n,
                       int root, splitc_counter_t* ctr) {
  scatterv_c("team_scatterv_ctr", t, all, counts, mine, n, root, cpp(ctr, "team_scatterv_ctr"));
}
void team_all_gatherv_ctr(splitc_team_t t, const void* mine, int n, void* all, const int* counts,
                          splitc_counter_t* ctr) {
  all_gatherv_c("team_all_gatherv_ctr", t, mine, n, all, counts, cpp(ctr, "team_all_gatherv_ctr"));
}
void team_all_to_allv_ctr(splitc_team_t t, const void* send, const int* send_counts,
                          void* receive, const int* receive_counts, splitc_counter_t* ctr) {
  all_to_allv_c("team_all_to_allv_ctr", t, send, send_counts, receive, receive_counts,
                cpp(ctr, "team_all_to_allv_ctr"));
}

// The reductions and scans: one instance of each algorithm per element size (c_reductions.hpp).
#define SPLITC_TEAM_CTR_DEFINE_(NAME, T, OP)                                                      \
  void team_reduce_to_one_##NAME##_v_ctr(splitc_team_t t, T* data, int n, splitc_counter_t* c) {  \
    const char* what = "team_reduce_to_one_" #NAME "_v_ctr";                                      \
    cr::start_reduce_to_one(split<kind::reduce_to_one, T, OP>(t, what, "reduce_to_one"),          \
                            cr::cells(data, bytes_of(n, what)), cr::erased<T, OP>(), cpp(c, what)); \
  }                                                                                               \
  void team_reduce_to_all_##NAME##_v_ctr(splitc_team_t t, T* data, int n, splitc_counter_t* c) {  \
    const char* what = "team_reduce_to_all_" #NAME "_v_ctr";                                      \
    cr::start_reduce_to_all(split<kind::reduce_to_all, T, OP>(t, what, "reduce_to_all"),          \
                            cr::cells(data, bytes_of(n, what)), cr::erased<T, OP>(), cpp(c, what)); \
  }                                                                                               \
  void team_scan_##NAME##_v_ctr(splitc_team_t t, T* data, int n, splitc_counter_t* c) {           \
    const char* what = "team_scan_" #NAME "_v_ctr";                                               \
    cr::start_scan(split<kind::scan, T, OP>(t, what, "scan"), cr::cells(data, bytes_of(n, what)), \
                   cr::erased<T, OP>(), cpp(c, what));                                            \
  }                                                                                               \
  void team_exclusive_scan_##NAME##_v_ctr(splitc_team_t t, T* data, int n, splitc_counter_t* c) { \
    const char* what = "team_exclusive_scan_" #NAME "_v_ctr";                                     \
    cr::start_exclusive_scan(split<kind::exclusive_scan, T, OP>(t, what, "exclusive_scan"),       \
                             cr::cells(data, bytes_of(n, what)), cr::erased<T, OP>(),             \
                             cr::cell_of(identity<T, OP>()), cpp(c, what));                       \
  }                                                                                               \
  void team_reduce_scatter_##NAME##_ctr(splitc_team_t t, const T* in, T* out, int n,              \
                                        splitc_counter_t* c) {                                    \
    const char* what = "team_reduce_scatter_" #NAME "_ctr";                                       \
    const team& tm = of(t, what);                                                                 \
    const std::size_t count = bytes_of(n, what);                                                  \
    cr::start_reduce_scatter(                                                                     \
        cr::split_group<kind::reduce_scatter, T, OP>(tm, "reduce_scatter"),                       \
        cr::cells(in, count * static_cast<std::size_t>(tm.size())), cr::cells(out, count),        \
        cr::erased<T, OP>(), cpp(c, what));                                                       \
  }                                                                                               \
  void team_reduce_scatterv_##NAME##_ctr(splitc_team_t t, const T* in, T* out, const int* counts, \
                                         splitc_counter_t* c) {                                   \
    const char* what = "team_reduce_scatterv_" #NAME "_ctr";                                      \
    const team& tm = of(t, what);                                                                 \
    cr::reduce_scatterv<T, OP>(tm, in, out, counts_of(tm, counts, what), cpp(c, what));           \
  }

#define SPLITC_TEAM_DEFINE_(NAME, T, OP)                                                          \
  T team_reduce_to_one_##NAME(splitc_team_t t, T val) {                                          \
    cr::reduce_to_one<T, OP>(                                                                     \
        blocking<kind::reduce_to_one, T, OP>(t, "team_reduce_to_one_" #NAME, "reduce_to_one"), &val, 1); \
    return val;                                                                                   \
  }                                                                                               \
  T team_reduce_to_all_##NAME(splitc_team_t t, T val) {                                          \
    cr::reduce_to_all<T, OP>(                                                                     \
        blocking<kind::reduce_to_all, T, OP>(t, "team_reduce_to_all_" #NAME, "reduce_to_all"), &val, 1); \
    return val;                                                                                   \
  }                                                                                               \
  T team_scan_##NAME(splitc_team_t t, T val) {                                                   \
    cr::scan<T, OP>(blocking<kind::scan, T, OP>(t, "team_scan_" #NAME, "scan"), &val, 1);        \
    return val;                                                                                   \
  }                                                                                               \
  T team_exclusive_scan_##NAME(splitc_team_t t, T val) {                                         \
    cr::exclusive_scan<T, OP>(blocking<kind::exclusive_scan, T, OP>(                              \
                                  t, "team_exclusive_scan_" #NAME, "exclusive_scan"),             \
                              &val, 1, identity<T, OP>());                                        \
    return val;                                                                                   \
  }                                                                                               \
  void team_reduce_to_one_##NAME##_v(splitc_team_t t, T* data, int n) {                          \
    const char* what = "team_reduce_to_one_" #NAME "_v";                                          \
    cr::reduce_to_one<T, OP>(blocking<kind::reduce_to_one, T, OP>(t, what, "reduce_to_one"), data, \
                             bytes_of(n, what));                                                  \
  }                                                                                               \
  void team_reduce_to_all_##NAME##_v(splitc_team_t t, T* data, int n) {                          \
    const char* what = "team_reduce_to_all_" #NAME "_v";                                          \
    cr::reduce_to_all<T, OP>(blocking<kind::reduce_to_all, T, OP>(t, what, "reduce_to_all"), data, \
                             bytes_of(n, what));                                                  \
  }                                                                                               \
  void team_scan_##NAME##_v(splitc_team_t t, T* data, int n) {                                   \
    const char* what = "team_scan_" #NAME "_v";                                                   \
    cr::scan<T, OP>(blocking<kind::scan, T, OP>(t, what, "scan"), data, bytes_of(n, what));       \
  }                                                                                               \
  void team_exclusive_scan_##NAME##_v(splitc_team_t t, T* data, int n) {                         \
    const char* what = "team_exclusive_scan_" #NAME "_v";                                         \
    cr::exclusive_scan<T, OP>(blocking<kind::exclusive_scan, T, OP>(t, what, "exclusive_scan"),   \
                              data, bytes_of(n, what), identity<T, OP>());                        \
  }                                                                                               \
  void team_reduce_scatter_##NAME(splitc_team_t t, const T* in, T* out, int n) {                 \
    const char* what = "team_reduce_scatter_" #NAME;                                              \
    cr::reduce_scatter<T, OP>(of(t, what), in, out, bytes_of(n, what));                           \
  }                                                                                               \
  void team_reduce_scatterv_##NAME(splitc_team_t t, const T* in, T* out, const int* counts) {    \
    const char* what = "team_reduce_scatterv_" #NAME;                                             \
    const team& tm = of(t, what);                                                                 \
    cr::reduce_scatterv<T, OP>(tm, in, out, counts_of(tm, counts, what));                         \
  }

SPLITC_TEAM_DEFINE_(add, int, ops::add)
SPLITC_TEAM_DEFINE_(uadd, unsigned, ops::add)
SPLITC_TEAM_DEFINE_(fadd, float, ops::add)
SPLITC_TEAM_DEFINE_(dadd, double, ops::add)
SPLITC_TEAM_DEFINE_(lladd, long long, ops::add)
SPLITC_TEAM_DEFINE_(mult, int, ops::mult)
SPLITC_TEAM_DEFINE_(umult, unsigned, ops::mult)
SPLITC_TEAM_DEFINE_(fmult, float, ops::mult)
SPLITC_TEAM_DEFINE_(dmult, double, ops::mult)
SPLITC_TEAM_DEFINE_(llmult, long long, ops::mult)
SPLITC_TEAM_DEFINE_(max, int, ops::max)
SPLITC_TEAM_DEFINE_(umax, unsigned, ops::max)
SPLITC_TEAM_DEFINE_(fmax, float, ops::max)
SPLITC_TEAM_DEFINE_(dmax, double, ops::max)
SPLITC_TEAM_DEFINE_(llmax, long long, ops::max)
SPLITC_TEAM_DEFINE_(min, int, ops::min)
SPLITC_TEAM_DEFINE_(umin, unsigned, ops::min)
SPLITC_TEAM_DEFINE_(fmin, float, ops::min)
SPLITC_TEAM_DEFINE_(dmin, double, ops::min)
SPLITC_TEAM_DEFINE_(llmin, long long, ops::min)
SPLITC_TEAM_DEFINE_(or, int, ops::bit_or)
SPLITC_TEAM_DEFINE_(uor, unsigned, ops::bit_or)
SPLITC_TEAM_DEFINE_(llor, long long, ops::bit_or)
SPLITC_TEAM_DEFINE_(xor, int, ops::bit_xor)
SPLITC_TEAM_DEFINE_(uxor, unsigned, ops::bit_xor)
SPLITC_TEAM_DEFINE_(llxor, long long, ops::bit_xor)
SPLITC_TEAM_DEFINE_(and, int, ops::bit_and)
SPLITC_TEAM_DEFINE_(uand, unsigned, ops::bit_and)
SPLITC_TEAM_DEFINE_(lland, long long, ops::bit_and)

SPLITC_TEAM_CTR_DEFINE_(add, int, ops::add)
SPLITC_TEAM_CTR_DEFINE_(uadd, unsigned, ops::add)
SPLITC_TEAM_CTR_DEFINE_(fadd, float, ops::add)
SPLITC_TEAM_CTR_DEFINE_(dadd, double, ops::add)
SPLITC_TEAM_CTR_DEFINE_(lladd, long long, ops::add)
SPLITC_TEAM_CTR_DEFINE_(mult, int, ops::mult)
SPLITC_TEAM_CTR_DEFINE_(umult, unsigned, ops::mult)
SPLITC_TEAM_CTR_DEFINE_(fmult, float, ops::mult)
SPLITC_TEAM_CTR_DEFINE_(dmult, double, ops::mult)
SPLITC_TEAM_CTR_DEFINE_(llmult, long long, ops::mult)
SPLITC_TEAM_CTR_DEFINE_(max, int, ops::max)
SPLITC_TEAM_CTR_DEFINE_(umax, unsigned, ops::max)
SPLITC_TEAM_CTR_DEFINE_(fmax, float, ops::max)
SPLITC_TEAM_CTR_DEFINE_(dmax, double, ops::max)
SPLITC_TEAM_CTR_DEFINE_(llmax, long long, ops::max)
SPLITC_TEAM_CTR_DEFINE_(min, int, ops::min)
SPLITC_TEAM_CTR_DEFINE_(umin, unsigned, ops::min)
SPLITC_TEAM_CTR_DEFINE_(fmin, float, ops::min)
SPLITC_TEAM_CTR_DEFINE_(dmin, double, ops::min)
SPLITC_TEAM_CTR_DEFINE_(llmin, long long, ops::min)
SPLITC_TEAM_CTR_DEFINE_(or, int, ops::bit_or)
SPLITC_TEAM_CTR_DEFINE_(uor, unsigned, ops::bit_or)
SPLITC_TEAM_CTR_DEFINE_(llor, long long, ops::bit_or)
SPLITC_TEAM_CTR_DEFINE_(xor, int, ops::bit_xor)
SPLITC_TEAM_CTR_DEFINE_(uxor, unsigned, ops::bit_xor)
SPLITC_TEAM_CTR_DEFINE_(llxor, long long, ops::bit_xor)
SPLITC_TEAM_CTR_DEFINE_(and, int, ops::bit_and)
SPLITC_TEAM_CTR_DEFINE_(uand, unsigned, ops::bit_and)
SPLITC_TEAM_CTR_DEFINE_(lland, long long, ops::bit_and)

}  // extern "C"
