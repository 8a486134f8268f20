// EM3D in splitc: Culler et al. 1993, §2–6, Programs 2, 3, 4, 5, 5a and 5b,
// on the paper's synthetic graph, reporting µs per edge as its Figure 4.
//
// The graph is bipartite: every processor owns `--nodes` E nodes and as many
// H nodes; every node depends on `--degree` nodes of the other kind, each on
// another processor with probability `--remote` (the x axis of Figure 4) and
// otherwise on this one, chosen at random, with a random weight. A step
// computes every E node from its H neighbours (E -= sum of H * w) and then
// every H node from its E neighbours. Values live in the spread heap
// (`double E[PROCS]::[n]`), so a global pointer to any node is (owner, the
// same address on every processor).
//
//   2   every edge holds a global pointer; each remote value is read each time
//       (Program 2: the sequential kernel with `global` added, and a barrier).
//   3   ghost nodes: each remote node a processor depends on gets one local
//       copy, read once per step (Program 3); the kernel touches local
//       memory only.
//   4   as 3, with the ghost copies fetched by split-phase get and one sync()
//       (Program 4).
//   5   the owners push: each node's value is stored (:-) into the ghost copies
//       on the processors that need it, then all_store_sync() (Program 5).
//   5a  as 5, but each processor waits with store_sync(bytes it expects) for
//       its own ghosts only (Program 5a; a counter per half step, so a fast
//       neighbour's next half step is never taken for this one).
//   5b  as 5a, with one bulk_store per destination processor of the values
//       packed in the order of its ghosts (Program 5b).
//
// Every version is checked against a sequential computation of the whole graph
// (each processor regenerates every processor's part from the seed, which is
// also how the owners learn who needs their nodes: the program's setup needs
// no communication), node by node.
//
//   splitc-run -n P em3d [--nodes 5000] [--degree 20] [--remote 0.2] [--iters 50]
//                        [--version 2|3|4|5|5a|5b|all|list] [--seed S] [--reps 3]
//   splitc-run -n P em3d --figure4       # all versions, remote fraction 0 .. 0.5
#include "../common/example_util.hpp"

#include <splitc/splitc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

namespace {

using examples::now;

constexpr int E = 0, H = 1;  // kinds; a node of kind X depends on nodes of kind 1 - X

struct params {
  std::size_t n = 5000;
  std::size_t degree = 20;
  double remote = 0.2;
  int iters = 50;
  std::uint64_t seed = 1993;
};

struct target {
  int proc;
  std::uint32_t index;
  friend bool operator<(const target& a, const target& b) {
    return a.proc != b.proc ? a.proc < b.proc : a.index < b.index;
  }
  friend bool operator==(const target& a, const target& b) = default;
};

/// One processor's part of the graph: for each kind, its nodes' initial
/// values and, node by node, `degree` edges (target of the other kind, weight).
struct part {
  std::vector<double> init[2];
  std::vector<target> to[2];
  std::vector<double> weight[2];
};

part generate(const params& prm, int p, int procs) {
  part g;
  for (int x = 0; x < 2; ++x) {
    examples::rng r(prm.seed, static_cast<std::uint64_t>(p) * 2 + static_cast<std::uint64_t>(x));
    g.init[x].resize(prm.n);
    g.to[x].resize(prm.n * prm.degree);
    g.weight[x].resize(prm.n * prm.degree);
    for (std::size_t i = 0; i < prm.n; ++i) {
      g.init[x][i] = r.unit() - 0.5;
      for (std::size_t e = 0; e < prm.degree; ++e) {
        const bool far = procs > 1 && r.unit() < prm.remote;
        const int q =
            far ? static_cast<int>((static_cast<std::uint64_t>(p) + 1 + r.below(procs - 1)) % procs)
                : p;
        g.to[x][i * prm.degree + e] = {q, static_cast<std::uint32_t>(r.below(prm.n))};
        g.weight[x][i * prm.degree + e] =
            (r.unit() - 0.5) * (0.2 / static_cast<double>(prm.degree));
      }
    }
  }
  return g;
}

/// The distinct remote nodes of kind 1-x that part g's kind-x nodes depend on,
/// in (owner, index) order: its ghost nodes of kind 1-x.
std::vector<target> ghost_list(const part& g, int x, int p) {
  std::vector<target> t;
  for (const target& e : g.to[x])
    if (e.proc != p) t.push_back(e);
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

using node_values = std::vector<std::vector<double>>;  // [processor][node]

/// The sequential computation of the whole graph: v[x][p][i] after `iters` steps.
void reference(const params& prm, const std::vector<part>& all, node_values v[2]) {
  const std::size_t procs = all.size();
  for (int x = 0; x < 2; ++x) v[x].clear();
  for (int x = 0; x < 2; ++x)
    for (std::size_t p = 0; p < procs; ++p) v[x].push_back(all[p].init[x]);
  for (int it = 0; it < prm.iters; ++it)
    for (int x : {E, H}) {
      const int y = 1 - x;
      for (std::size_t p = 0; p < procs; ++p)
        for (std::size_t i = 0; i < prm.n; ++i) {
          double value = v[x][p][i];
          for (std::size_t e = 0; e < prm.degree; ++e) {
            const target& t = all[p].to[x][i * prm.degree + e];
            value = value - v[y][static_cast<std::size_t>(t.proc)][t.index] *
                                all[p].weight[x][i * prm.degree + e];
          }
          v[x][p][i] = value;
        }
    }
}

/// Where one of my node values must be stored: ghost `slot` on processor `proc`.
struct store_entry {
  int proc;
  std::uint32_t slot;
  std::uint32_t node;  // my node index
};

/// This processor's graph in every representation the versions use.
struct graph {
  params prm;
  int me = 0, procs = 1;
  std::vector<part> all;  // every processor's part (regenerated here)
  part mine;

  // Node values, spread: V[PROCS]::[n] for each kind; the same address everywhere.
  splitc::block_cyclic_array<double> values[2];
  double* val[2] = {nullptr, nullptr};

  // Ghost copies of remote nodes of each kind, spread with room for the largest count.
  splitc::block_cyclic_array<double> ghosts[2];
  double* ghost[2] = {nullptr, nullptr};
  std::vector<target> ghost_of[2];                    // what my ghosts copy
  std::vector<splitc::global_ptr<double>> actual[2];  // Program 3's actual_node

  // Edges of my kind-x nodes: Program 2's global pointers, and local pointers
  // (into my values or my ghosts) for the others.
  std::vector<splitc::global_ptr<double>> gedge[2];
  std::vector<double*> ledge[2];

  // The owners' side (Programs 5, 5a, 5b): for my nodes of kind y, who needs them.
  std::vector<store_entry> stores[2];
  struct bulk_dest {
    int proc;
    std::uint32_t first_slot;          // where my section of its ghosts starts
    std::vector<std::uint32_t> nodes;  // my nodes, in the order of that section
  };
  std::vector<bulk_dest> bulk[2];
  std::int64_t expected_bytes[2] = {0, 0};  // bytes stored into my kind-y ghosts per half step
  bool store_sync_is_safe = true;           // see check_store_sync_protocol

  // Per-half-step store counters at the same address on every processor (5a, 5b).
  splitc::spread_ptr<void> counter_space;
  splitc::counter* received[2] = {nullptr, nullptr};
  splitc::counter sent[2];

  double remote_fraction = 0;  // of my edges
};

/// Program 5a's protocol is sound when, for every pair of processors a and b,
/// a's stores to b in one half step imply b's stores to a in the half step
/// before (so a fast processor cannot overwrite ghosts still being read):
/// b has E ghosts of a  =>  a has H ghosts of b, and vice versa.
bool check_store_sync_protocol(const std::vector<std::vector<std::vector<bool>>>& has) {
  const std::size_t procs = has[0].size();
  for (std::size_t a = 0; a < procs; ++a)
    for (std::size_t b = 0; b < procs; ++b) {
      if (a == b) continue;
      if (has[E][b][a] && !has[H][a][b]) return false;
      if (has[H][b][a] && !has[E][a][b]) return false;
    }
  return true;
}

/// Collective: build everything for the current parameters.
void build(graph& g, const params& prm) {
  g.prm = prm;
  g.me = splitc::myproc();
  g.procs = splitc::procs();
  const auto P = static_cast<std::size_t>(g.procs);
  g.all.clear();
  for (int p = 0; p < g.procs; ++p) g.all.push_back(generate(prm, p, g.procs));
  g.mine = g.all[static_cast<std::size_t>(g.me)];

  // Ghost lists of every processor (for the owners' store lists) and the largest count.
  std::vector<std::vector<target>> lists[2];
  std::vector<std::vector<std::vector<bool>>> has(
      2, std::vector<std::vector<bool>>(P, std::vector<bool>(P, false)));
  std::size_t most[2] = {1, 1};
  for (int x = 0; x < 2; ++x) {
    const int y = 1 - x;  // kind-x nodes depend on kind-y ghosts
    for (int p = 0; p < g.procs; ++p) {
      lists[y].push_back(ghost_list(g.all[static_cast<std::size_t>(p)], x, p));
      most[y] = std::max(most[y], lists[y].back().size());
      for (const target& t : lists[y].back())
        has[y][static_cast<std::size_t>(p)][static_cast<std::size_t>(t.proc)] = true;
    }
  }
  g.store_sync_is_safe = check_store_sync_protocol(has);

  for (int k = 0; k < 2; ++k) {
    g.values[k] = splitc::make_blocked<double>(prm.n);
    g.val[k] = g.values[k].my_storage().data();
    g.ghosts[k] = splitc::make_blocked<double>(most[k]);
    g.ghost[k] = g.ghosts[k].my_storage().data();
  }

  std::size_t remote_edges = 0;
  for (int x = 0; x < 2; ++x) {
    const int y = 1 - x;
    const auto& gl = lists[y][static_cast<std::size_t>(g.me)];
    g.ghost_of[y] = gl;
    g.actual[y].clear();
    for (const target& t : gl) g.actual[y].emplace_back(t.proc, g.val[y] + t.index);
    g.gedge[x].clear();
    g.ledge[x].clear();
    for (const target& t : g.mine.to[x]) {
      g.gedge[x].emplace_back(t.proc, g.val[y] + t.index);
      if (t.proc == g.me) {
        g.ledge[x].push_back(g.val[y] + t.index);
      } else {
        ++remote_edges;
        const auto slot = std::lower_bound(gl.begin(), gl.end(), t) - gl.begin();
        g.ledge[x].push_back(g.ghost[y] + slot);
      }
    }
    // Owners' side: who holds ghosts of my kind-y nodes, and where.
    g.stores[y].clear();
    g.bulk[y].clear();
    for (int p = 0; p < g.procs; ++p) {
      if (p == g.me) continue;
      const auto& theirs = lists[y][static_cast<std::size_t>(p)];
      const auto lo = std::lower_bound(theirs.begin(), theirs.end(), target{g.me, 0});
      const auto hi = std::lower_bound(theirs.begin(), theirs.end(), target{g.me + 1, 0});
      if (lo == hi) continue;
      graph::bulk_dest d{p, static_cast<std::uint32_t>(lo - theirs.begin()), {}};
      for (auto it = lo; it != hi; ++it) {
        g.stores[y].push_back({p, static_cast<std::uint32_t>(it - theirs.begin()), it->index});
        d.nodes.push_back(it->index);
      }
      g.bulk[y].push_back(std::move(d));
    }
    g.expected_bytes[y] = static_cast<std::int64_t>(gl.size() * sizeof(double));
  }
  g.remote_fraction =
      static_cast<double>(remote_edges) / static_cast<double>(2 * prm.n * prm.degree);

  if (!g.counter_space) {
    g.counter_space = splitc::all_spread_malloc(P, 64);
    auto* space = static_cast<unsigned char*>(g.counter_space.local());
    g.received[0] = new (space) splitc::counter();
    g.received[1] = new (space + 8) splitc::counter();
  }
}

/// Collective: every node back to its initial value, counters to zero.
void reset(graph& g) {
  for (int k = 0; k < 2; ++k) {
    std::copy(g.mine.init[k].begin(), g.mine.init[k].end(), g.val[k]);
    const auto gs = g.ghosts[k].my_storage();
    std::fill(gs.begin(), gs.end(), 0.0);
    g.received[k]->add_shared(-g.received[k]->value());
    g.sent[k].add_local(-g.sent[k].value());
  }
  splitc::barrier();
}

// ---- the kernels ---------------------------------------------------------------------

/// Program 2's inner loop: every dependency through a global pointer.
void compute_global(graph& g, int x) {
  const std::size_t d = g.prm.degree;
  const double* w = g.mine.weight[x].data();
  const splitc::global_ptr<double>* gp = g.gedge[x].data();
  double* v = g.val[x];
  for (std::size_t i = 0; i < g.prm.n; ++i) {
    double value = v[i];
    for (std::size_t e = 0; e < d; ++e) value = value - splitc::read(gp[i * d + e]) * w[i * d + e];
    v[i] = value;
  }
}

/// Programs 3–5's inner loop: local pointers only (the sequential kernel).
void compute_local(graph& g, int x) {
  const std::size_t d = g.prm.degree;
  const double* w = g.mine.weight[x].data();
  double* const* lp = g.ledge[x].data();
  double* v = g.val[x];
  for (std::size_t i = 0; i < g.prm.n; ++i) {
    double value = v[i];
    for (std::size_t e = 0; e < d; ++e) value = value - *lp[i * d + e] * w[i * d + e];
    v[i] = value;
  }
}

/// One half step of version `ver`: compute the kind-x nodes.
void half_step(graph& g, const std::string& ver, int x, std::vector<double>& pack) {
  const int y = 1 - x;
  if (ver == "2") {
    compute_global(g, x);
    splitc::barrier();
  } else if (ver == "3") {
    double* gh = g.ghost[y];
    const auto& src = g.actual[y];
    for (std::size_t s = 0; s < src.size(); ++s) gh[s] = splitc::read(src[s]);
    compute_local(g, x);
    splitc::barrier();
  } else if (ver == "4") {
    double* gh = g.ghost[y];
    const auto& src = g.actual[y];
    for (std::size_t s = 0; s < src.size(); ++s) splitc::get(gh + s, src[s]);
    splitc::sync();
    compute_local(g, x);
    splitc::barrier();
  } else if (ver == "5") {
    const double* v = g.val[y];
    double* gbase = g.ghost[y];
    for (const store_entry& s : g.stores[y])
      splitc::store(splitc::toglobal(s.proc, gbase + s.slot), v[s.node]);
    splitc::all_store_sync();
    compute_local(g, x);
  } else if (ver == "5a") {
    const double* v = g.val[y];
    double* gbase = g.ghost[y];
    for (const store_entry& s : g.stores[y])
      splitc::store(splitc::toglobal(s.proc, gbase + s.slot), v[s.node], *g.received[y], g.sent[y]);
    splitc::store_sync(g.expected_bytes[y], *g.received[y], g.sent[y]);
    compute_local(g, x);
    if (!g.store_sync_is_safe) splitc::barrier();
  } else {  // 5b
    const double* v = g.val[y];
    double* gbase = g.ghost[y];
    std::size_t at = 0;
    for (const auto& d : g.bulk[y]) {
      double* buf = pack.data() + at;  // kept until the next half step of this kind
      for (std::size_t k = 0; k < d.nodes.size(); ++k) buf[k] = v[d.nodes[k]];
      splitc::bulk_store(splitc::toglobal(d.proc, gbase + d.first_slot), buf,
                         d.nodes.size() * sizeof(double), *g.received[y], g.sent[y]);
      at += d.nodes.size();
    }
    splitc::store_sync(g.expected_bytes[y], *g.received[y], g.sent[y]);
    compute_local(g, x);
    if (!g.store_sync_is_safe) splitc::barrier();
  }
}

struct outcome {
  double seconds = 0;
  double us_per_edge = 0;
  double max_error = 0;
  bool ok = false;
};

outcome run_version(graph& g, const std::string& ver, const node_values ref[2]) {
  reset(g);
  std::vector<double> pack[2];
  for (int k = 0; k < 2; ++k) pack[k].resize(g.stores[k].size() + 1);
  const double t0 = now();
  for (int it = 0; it < g.prm.iters; ++it) {
    half_step(g, ver, E, pack[H]);
    half_step(g, ver, H, pack[E]);
  }
  const double mine = now() - t0;
  splitc::barrier();  // every value final before checking
  outcome o;
  o.seconds = splitc::reduce_to_all(mine, splitc::ops::max{});
  o.us_per_edge =
      o.seconds * 1e6 /
      (static_cast<double>(g.prm.iters) * 2.0 * static_cast<double>(g.prm.n * g.prm.degree));
  double err = 0;
  for (int k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < g.prm.n; ++i) {
      const double want = ref[k][static_cast<std::size_t>(g.me)][i];
      const double diff = std::fabs(g.val[k][i] - want) / std::max(1.0, std::fabs(want));
      if (!(diff <= err)) err = diff;  // NaN counts as an error
    }
  o.max_error = splitc::reduce_to_all(err, splitc::ops::max{});
  o.ok = o.max_error <= 1e-12;
  return o;
}

std::vector<std::string> parse_versions(const std::string& s) {
  const std::vector<std::string> all{"2", "3", "4", "5", "5a", "5b"};
  if (s == "all") return all;
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string v;
  while (std::getline(in, v, ','))
    if (std::find(all.begin(), all.end(), v) != all.end())
      out.push_back(v);
    else
      examples::options::die("unknown version '" + v + "' (2, 3, 4, 5, 5a, 5b, all)");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), procs = splitc::procs();
  examples::options opt(argc, argv);
  params prm;
  prm.n = static_cast<std::size_t>(opt.integer("--nodes", 5000));
  prm.degree = static_cast<std::size_t>(opt.integer("--degree", 20));
  prm.remote = opt.real("--remote", 0.2);
  prm.iters = static_cast<int>(opt.integer("--iters", 50));
  prm.seed = static_cast<std::uint64_t>(opt.integer("--seed", 1993));
  const bool figure4 = opt.flag("--figure4");
  const auto versions = parse_versions(opt.text("--version", "all"));
  const int reps = static_cast<int>(opt.integer("--reps", 3));
  const bool bind = opt.flag("--bind");
  opt.finish();
  if (prm.n < 1 || prm.degree < 1 || prm.iters < 1 || reps < 1 || prm.remote < 0 || prm.remote > 1)
    examples::options::die("need --nodes, --degree, --iters >= 1 and 0 <= --remote <= 1");
  if (bind) examples::bind_to_cpu(me);

  std::vector<double> fractions;
  if (figure4)
    fractions = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5};
  else
    fractions = {prm.remote};

  if (me == 0) {
    std::printf(
        "em3d (splitc, backend %s): P=%d, %zu E + %zu H nodes per processor, degree %zu, %d steps, "
        "best of %d, load %.2f\n",
        splitc::backend_name(), procs, prm.n, prm.n, prm.degree, prm.iters, reps,
        examples::load_average());
    std::printf(
        "microseconds per edge (seed 003 figure 4); each version checked against a sequential "
        "run\n");
    std::printf("%8s %9s %8s", "remote", "measured", "ghosts");
    for (const auto& v : versions) std::printf(" %10s", ("prog " + v).c_str());
    std::printf("\n");
  }
  graph g;
  bool ok = true;
  for (double f : fractions) {
    prm.remote = f;
    build(g, prm);
    node_values ref[2];
    reference(prm, g.all, ref);
    const double measured = splitc::reduce_to_all(g.remote_fraction, splitc::ops::add{}) / procs;
    const double ghosts = static_cast<double>(splitc::reduce_to_all(
                              g.ghost_of[E].size() + g.ghost_of[H].size(), splitc::ops::add{})) /
                          procs;
    std::vector<outcome> res;
    for (const auto& v : versions) {
      outcome best;
      for (int rep = 0; rep < reps; ++rep) {  // best time; every repetition is checked
        const outcome o = run_version(g, v, ref);
        if (rep == 0 || o.seconds < best.seconds) best = o;
        if (!o.ok) best.ok = false, best.max_error = std::max(best.max_error, o.max_error);
      }
      res.push_back(best);
    }
    if (me == 0) {
      std::printf("%7.0f%% %8.1f%% %8.0f", f * 100, measured * 100, ghosts);
      for (const auto& o : res) std::printf(" %10.4f", o.us_per_edge);
      std::printf("\n");
      for (std::size_t k = 0; k < res.size(); ++k)
        if (!res[k].ok)
          std::printf(
              "  version %s WRONG: largest relative difference from the sequential run %.3g\n",
              versions[k].c_str(), res[k].max_error);
      if (!g.store_sync_is_safe)
        std::printf(
            "  (this graph's stores are one-sided between some processors: 5a and 5b add a "
            "barrier)\n");
      std::fflush(stdout);
    }
    for (const auto& o : res) ok = ok && o.ok;
  }
  if (me == 0) {
    std::printf("  verified: every node of every version equals the sequential computation: %s\n",
                ok ? "ok" : "WRONG");
    std::printf(ok ? "PASS em3d\n" : "FAIL em3d\n");
  }
  // Spread arrays and the counters are freed collectively here.
  splitc::all_spread_free(g.counter_space);
  for (int k = 0; k < 2; ++k) {
    g.values[k].release();
    g.ghosts[k].release();
  }
  splitc::finalize();
  return ok ? 0 : 1;
}
