// The C++ reference for tests/splitcc/programs/em3d.sc (test splitcc.compare.em3d.*): the
// same EM3D graph (`nodes` E and H nodes per processor, `degree` edges per E node, the same
// formulas for the H values, the edges and their weights) computed the same four ways on
// splitc's C++ API: reading H values through global pointers (Program 2), ghost copies
// fetched with split-phase gets (Program 4), pushed by their owners with stores (Program 5)
// and with one bulk store per edge index (Program 5b). The H values and the ghost copies live
// in spread arrays. After each version processor 0 prints the same "result" lines as the
// Split-C program: per processor, its E values' count, sum and hash.
#include "digest.hpp"

#include <splitc/splitc.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

constexpr std::size_t nodes = 16, degree = 5;

double h_initial(int proc, std::size_t j) { return 1.0 + proc * 100 + static_cast<double>(j); }
double weight(std::size_t i) { return 0.5 + static_cast<double>(i); }
/// Edge i of E node j on processor p reads H node (j + i) mod nodes on processor p + i + 1.
int edge_proc(int p, std::size_t i) { return (p + static_cast<int>(i) + 1) % splitc::procs(); }
std::size_t edge_node(std::size_t j, std::size_t i) { return (j + i) % nodes; }
/// The processor whose edges i read this processor's H nodes (edge_proc's inverse).
int reader_of(int p, std::size_t i) {
  const int procs = splitc::procs();
  return ((p - static_cast<int>(i) - 1) % procs + procs) % procs;
}

struct graph {
  splitc::block_cyclic_array<double> h = splitc::make_blocked<double>(nodes);  // H[PROCS]::[nodes]
  std::array<std::array<splitc::global_ptr<double>, degree>, nodes> from{};  // the E nodes' edges
  std::array<double, nodes> e{};                                            // my E values

  graph() {
    const int me = splitc::myproc();
    for (std::size_t j = 0; j < nodes; ++j) h.my_storage()[j] = h_initial(me, j);
    for (std::size_t j = 0; j < nodes; ++j)
      for (std::size_t i = 0; i < degree; ++i)
        from[j][i] = h.gptr(static_cast<std::size_t>(edge_proc(me, i)) * nodes + edge_node(j, i));
    splitc::barrier();  // every H value is set before anyone reads it
  }
  void reset() { e.fill(10.0); }
  /// E node j from the values of its H neighbours, in edge order.
  template <class Value>
  void compute(Value value_of) {
    for (std::size_t j = 0; j < nodes; ++j)
      for (std::size_t i = 0; i < degree; ++i) e[j] = e[j] - value_of(j, i) * weight(i);
  }
};

void by_global_pointers(graph& g) {  // Program 2
  g.compute([&](std::size_t j, std::size_t i) { return splitc::read(g.from[j][i]); });
  splitc::barrier();
}

void by_split_phase_gets(graph& g) {  // Program 4
  std::array<std::array<double, degree>, nodes> ghost{};
  for (std::size_t j = 0; j < nodes; ++j)
    for (std::size_t i = 0; i < degree; ++i) splitc::get(&ghost[j][i], g.from[j][i]);
  splitc::sync();
  g.compute([&](std::size_t j, std::size_t i) { return ghost[j][i]; });
  splitc::barrier();
}

void by_stores(graph& g) {  // Program 5: ghost slot j * degree + i of each processor
  auto ghosts = splitc::make_blocked<double>(nodes * degree);
  const int me = splitc::myproc();
  const auto h = g.h.my_storage();
  for (std::size_t j = 0; j < nodes; ++j)
    for (std::size_t i = 0; i < degree; ++i) {
      const auto p = static_cast<std::size_t>(reader_of(me, i));
      splitc::store(ghosts.gptr(p * nodes * degree + j * degree + i), h[edge_node(j, i)]);
    }
  splitc::store_sync(static_cast<std::int64_t>(nodes * degree * sizeof(double)));
  const auto mine = ghosts.my_storage();
  g.compute([&](std::size_t j, std::size_t i) { return mine[j * degree + i]; });
  splitc::barrier();
}

void by_bulk_stores(graph& g) {  // Program 5b: one block of `nodes` values per edge index
  auto ghosts = splitc::make_blocked<double>(degree * nodes);
  const int me = splitc::myproc();
  const auto h = g.h.my_storage();
  std::array<std::array<double, nodes>, degree> out{};
  for (std::size_t i = 0; i < degree; ++i) {
    for (std::size_t j = 0; j < nodes; ++j) out[i][j] = h[edge_node(j, i)];
    const auto p = static_cast<std::size_t>(reader_of(me, i));
    splitc::bulk_store(ghosts.gptr(p * degree * nodes + i * nodes), out[i].data(), sizeof out[i]);
  }
  splitc::store_sync(static_cast<std::int64_t>(degree * nodes * sizeof(double)));
  const auto mine = ghosts.my_storage();
  g.compute([&](std::size_t j, std::size_t i) { return mine[i * nodes + j]; });
  splitc::barrier();
}

struct digest {
  int count;
  double sum;
  std::uint64_t hash;
};

void print_result(const graph& g, const char* tag) {
  digest d{static_cast<int>(nodes), 0.0, reference::hash_start};
  for (double v : g.e) {
    d.sum += v;
    d.hash = reference::hash_word(d.hash, v);
  }
  reference::print_results(d, [&](int p, const digest& x) {
    std::printf("result em3d %s proc %d nodes %d sum %.17g hash %016llx\n", tag, p, x.count, x.sum,
                static_cast<unsigned long long>(x.hash));
  });
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  {
    graph g;
    const struct {
      void (*compute)(graph&);
      const char* tag;
    } versions[] = {{by_global_pointers, "global"},
                    {by_split_phase_gets, "split-phase"},
                    {by_stores, "store"},
                    {by_bulk_stores, "bulk-store"}};
    for (const auto& v : versions) {
      g.reset();
      v.compute(g);
      print_result(g, v.tag);
    }
  }  // the spread array is freed (collectively) before finalize
  splitc::finalize();
  return 0;
}
