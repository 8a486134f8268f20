// Spread arrays under the launcher (run at several P): each layout is
// allocated collectively; every processor writes the elements it owns through
// local pointers, and after a barrier reads every element through spread and
// global pointers and checks it. for_my_1d/for_my_2d, as macros and as
// ranges, must visit exactly the owned elements. Some phases also write other
// processors' elements through A(i...) = v.
#include <splitc/splitc.hpp>
#include <splitc/spread_array.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

using splitc::proc_t;
using std::size_t;
using u64 = std::uint64_t;

proc_t P = 1;  // the same on every processor (set by main)
/// This processor (a function, not a static: statics may be shared by every processor).
proc_t me() { return splitc::myproc(); }
splitc::per_processor<int> failures;  // this processor's failed checks

/// Record a failed check, naming this processor (the first few are printed).
template <class... Args>
void check(bool ok, fmt::format_string<Args...> what, Args&&... args) {
  if (ok) return;
  if (++*failures <= 10)
    fmt::print(stderr, "spread_array: processor {} of {}: FAILED {}\n", me(), P,
               fmt::format(what, std::forward<Args>(args)...));
}
/// End the job (non-zero, processor named) if this phase failed here.
void end_phase(const char* phase) {
  if (*failures > 0)
    splitc::fatal_error(fmt::format("spread_array: {} check(s) failed in {}", *failures, phase));
}

u64 value(size_t i) { return u64(i) * 2654435761u + 7; }
u64 other_value(size_t i) { return ~value(i); }

struct cell {
  std::uint32_t x, y;
  double v;
  friend bool operator==(const cell&, const cell&) = default;
};
cell make_cell(size_t x, size_t y) {
  return {std::uint32_t(x), std::uint32_t(y), double(x) * 1000.0 + double(y) + 0.5};
}

// ---- T A[n]:: ----------------------------------------------------------------

void cyclic() {
  const size_t n = 5 * size_t(P) + 3;
  auto A = splitc::make_cyclic<u64>(n);
  for (u64 x : A.my_storage()) check(x == 0, "cyclic: a fresh element is {}, not 0", x);

  for (size_t i : A.my_indices()) *A.local_block(i) = value(i);
  splitc::barrier();

  auto walk = A.sptr();  // sptr++ walks the elements in order
  for (size_t i = 0; i < n; ++i, ++walk) {
    check(A.owner(i) == proc_t(i % P), "cyclic: owner({}) = {}", i, A.owner(i));
    const u64 direct = A(i), checked = A.at(i), by_sptr = A.sptr()[std::ptrdiff_t(i)];
    check(direct == value(i) && checked == value(i) && by_sptr == value(i),
          "cyclic: element {} reads {} / {} / {}, expected {}", i, direct, checked, by_sptr,
          value(i));
    check(walk == A.sptr(i), "cyclic: sptr()++ and sptr({}) differ", i);
    check(splitc::read(splitc::global_ptr<u64>(walk)) == value(i), "cyclic: *sptr at {}", i);
  }

  std::vector<size_t> expected, by_macro, by_range;
  for (size_t i = 0; i < n; ++i)
    if (A.owner(i) == me()) expected.push_back(i);
  for_my_1d(i, n) by_macro.push_back(i);
  for (size_t i : splitc::my_indices_1d(n)) by_range.push_back(i);
  check(by_macro == expected, "cyclic: for_my_1d visited {} indices, owns {}", by_macro.size(),
        expected.size());
  check(by_range == expected, "cyclic: my_indices_1d differs from the owned indices");
  check(A.my_storage().size() == expected.size(), "cyclic: my_storage has {} elements",
        A.my_storage().size());

  // Remote writes: each processor overwrites its right neighbour's elements.
  splitc::barrier();
  for (size_t i = 0; i < n; ++i)
    if (A.owner(i) == (me() + 1) % P) A(i) = other_value(i);
  splitc::barrier();
  for (size_t i : A.my_indices())
    check(*A.local_block(i) == other_value(i), "cyclic: remote write of element {} lost", i);

  // Moving hands the storage over; move-assigning releases the old one (collective).
  auto B = std::move(A);
  check(A.empty() && !B.empty(), "cyclic: move did not hand the storage over");
  const u64 last = B(n - 1);
  check(last == other_value(n - 1), "cyclic: moved-to array reads {}", last);
  B = splitc::make_cyclic<u64>(P);  // one element per processor
  check(B.my_storage().size() == 1, "cyclic: A[PROCS]:: has {} elements here",
        B.my_storage().size());
  auto none = splitc::make_cyclic<u64>(0);
  check(none.empty() && none.my_storage().empty(), "cyclic: an empty array holds storage");
  end_phase("cyclic");
}

// ---- T A[m]::[b] and T A[PROCS]::[b] ----------------------------------------------

void block_cyclic(size_t m, size_t b) {
  auto A = splitc::make_block_cyclic<u64>(m, b);
  for (size_t j : A.my_blocks()) {
    u64* block = A.local_block(j);
    for (size_t k = 0; k < b; ++k) block[k] = value(j * b + k);
  }
  splitc::barrier();

  for (size_t x = 0; x < m * b; ++x) {
    const size_t j = x / b;
    check(A.owner(x) == proc_t(j % P), "[{}]::[{}]: owner({}) = {}", m, b, x, A.owner(x));
    const u64 got = A(x), via_block = A.block_ptr(j)[std::ptrdiff_t(x % b)];
    check(got == value(x) && via_block == value(x), "[{}]::[{}]: element {} reads {} / {}", m, b,
          x, got, via_block);
  }

  std::vector<size_t> owned_blocks, owned_elements, by_macro, by_blocks, by_indices;
  for (size_t j = 0; j < m; ++j)
    if (A.block_owner(j) == me()) owned_blocks.push_back(j);
  for (size_t x = 0; x < m * b; ++x)
    if (A.owner(x) == me()) owned_elements.push_back(x);
  for_my_1d(j, m) by_macro.push_back(j);  // the seed's loop over the local blocks
  for (size_t j : A.my_blocks()) by_blocks.push_back(j);
  for (size_t x : A.my_indices()) by_indices.push_back(x);
  check(by_macro == owned_blocks, "[{}]::[{}]: for_my_1d over blocks", m, b);
  check(by_blocks == owned_blocks, "[{}]::[{}]: my_blocks", m, b);
  check(by_indices == owned_elements, "[{}]::[{}]: my_indices", m, b);
  end_phase("block_cyclic");
}

void blocked() {
  const size_t b = 4;
  auto A = splitc::make_blocked<u64>(b);
  const auto mine = A.my_storage();  // one block: elements me()*b .. me()*b+b-1
  for (size_t k = 0; k < mine.size(); ++k) mine[k] = value(size_t(me()) * b + k);
  splitc::barrier();
  for (size_t x = 0; x < size_t(P) * b; ++x) {
    check(A.owner(x) == proc_t(x / b), "blocked: owner({}) = {}", x, A.owner(x));
    const u64 got = A(x);
    check(got == value(x), "blocked: element {} reads {}", x, got);
  }
  end_phase("blocked");
}

// ---- M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2] ------------------------------------------

void blocked_cyclic_2d(size_t r, size_t c, size_t b1, size_t b2) {
  const size_t n = 2 * r * b1, m = 3 * c * b2;
  auto M = splitc::make_blocked_cyclic_2d<cell>(n, m, r, c, b1, b2);
  std::vector<std::array<size_t, 2>> by_blocks;
  for (auto [bi, bj] : M.my_blocks()) {
    cell* block = M.local_block({bi, bj});
    for (size_t u = 0; u < b1; ++u)
      for (size_t v = 0; v < b2; ++v) block[u * b2 + v] = make_cell(bi * b1 + u, bj * b2 + v);
    by_blocks.push_back({bi, bj});
  }
  splitc::barrier();

  const bool grid = r * c == size_t(P);
  for (size_t x = 0; x < n; ++x)
    for (size_t y = 0; y < m; ++y) {
      const cell got = M(x, y);
      check(got == make_cell(x, y), "2d r={} c={}: element ({}, {}) reads ({}, {})", r, c, x, y,
            got.x, got.y);
      if (grid)
        check(M.owner(x, y) == proc_t(((x / b1) % r) * c + (y / b2) % c),
              "2d grid {}x{}: owner({}, {}) = {}", r, c, x, y, M.owner(x, y));
    }

  std::vector<std::array<size_t, 2>> owned;
  for (size_t bi = 0; bi < n / b1; ++bi)
    for (size_t bj = 0; bj < m / b2; ++bj)
      if (M.block_owner({bi, bj}) == me()) owned.push_back({bi, bj});
  std::sort(by_blocks.begin(), by_blocks.end());
  check(by_blocks == owned, "2d r={} c={}: my_blocks visited {} blocks, owns {}", r, c,
        by_blocks.size(), owned.size());
  end_phase("blocked_cyclic_2d");
}

// ---- T C[n][m]::[b][b] (Program 7) and T Y[n][m]:: ------------------------------------

double h(size_t i, size_t j, size_t u, size_t v) {
  return double(((i * 100 + j) * 10 + u) * 10 + v);
}

void blocks_2d() {
  const size_t n = 3, m = size_t(P) + 1, b = 2;
  auto C = splitc::make_spread_array<double>({n, m}, {b, b});
  std::vector<std::array<size_t, 2>> by_macro, by_range, by_blocks, owned;
  for_my_2d(i, j, n, m) {  // owner computes
    double* lc = C.local_block({i, j});
    for (size_t u = 0; u < b; ++u)
      for (size_t v = 0; v < b; ++v) lc[u * b + v] = h(i, j, u, v);
    by_macro.push_back({i, j});
  }
  for (auto [i, j] : splitc::my_indices_2d(n, m)) by_range.push_back({i, j});
  for (auto ij : C.my_blocks()) by_blocks.push_back(ij);
  splitc::barrier();

  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      if (C.block_owner({i, j}) == me()) owned.push_back({i, j});
      for (size_t u = 0; u < b; ++u)
        for (size_t v = 0; v < b; ++v) {
          const double got = C(i, j, u, v);
          const double via_block = C.block_ptr({i, j})[std::ptrdiff_t(u * b + v)];
          check(got == h(i, j, u, v) && via_block == got, "C[{}][{}][{}][{}] reads {} / {}", i, j,
                u, v, got, via_block);
        }
    }
  check(by_macro == owned, "for_my_2d visited {} blocks, owns {}", by_macro.size(), owned.size());
  check(by_range == owned, "my_indices_2d differs from the owned blocks");
  check(by_blocks == owned, "my_blocks differs from the owned blocks");

  // Y[n][m]:: — spread-pointer indexing, and every processor writing remotely.
  auto Y = splitc::make_spread_array<u64>({n, m});
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      check(Y.sptr(i, j) == Y.sptr() + std::ptrdiff_t(i * m + j), "Y.sptr({}, {})", i, j);
      if ((i + j) % size_t(P) == size_t(me())) Y(i, j) = value(i * m + j);
    }
  splitc::barrier();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < m; ++j) {
      const u64 got = Y(i, j);
      check(got == value(i * m + j), "Y[{}][{}] reads {}", i, j, got);
    }
  end_phase("blocks_2d");
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  P = splitc::procs();

  cyclic();
  block_cyclic(2 * size_t(P) + 1, 3);  // block-cyclic
  block_cyclic(size_t(P), 5);          // blocked
  block_cyclic(1, 2);                  // fewer blocks than processors
  blocked();
  size_t r = 1;  // the most square r x c grid of P processors
  for (size_t d = 1; d * d <= size_t(P); ++d)
    if (P % d == 0) r = d;
  blocked_cyclic_2d(r, size_t(P) / r, 2, 3);
  blocked_cyclic_2d(3, 2, 1, 2);  // r*c not a multiple of P in general
  blocks_2d();

  splitc::barrier();
  const bool lead = me() == 0;
  splitc::finalize();
  if (lead) std::puts("PASS spread_array");
  return 0;
}
