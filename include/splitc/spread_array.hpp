// Spread arrays (Culler et al. 1993 §7; Luna 1994 §5.4): arrays whose elements are dealt
// out over all processors by Split-C's one rule. The dimensions to the left
// of the spreader `::` are linearized row-major and wrapped over the
// processors starting with processor zero; the dimensions to the right form a
// contiguous block on one processor. Spread object k (a block) therefore lives
// on processor k mod P at block-row k div P, at the same local address on
// every processor (the spread heap gives that address).
//
//   layout::cyclic             T A[n]::                          element i on i mod P
//   layout::block_cyclic       T A[m]::[b]                       blocked if m == P
//   layout::blocked_cyclic_2d  T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2]   (Figure 8)
//   layout::dims<S, L>         any declaration, S dims left and L right of `::`
//
// The index math is constexpr and takes the processor count explicitly, so it
// can be checked without a running job. spread_array<T, Layout> owns the
// storage: construction and destruction are collective. for_my_1d/for_my_2d
// iterate over what this processor owns, as ranges and as the seed's macros
// (define SPLITC_NO_SEED_MACROS to leave the macros out). See
// docs/spread_arrays.md.
#pragma once

#include <splitc/errors.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/global_ptr.hpp>
#include <splitc/runtime.hpp>
#include <splitc/spread_heap.hpp>
#include <splitc/spread_ptr.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <iterator>
#include <memory>
#include <ranges>
#include <span>
#include <type_traits>
#include <utility>

namespace splitc {

// ---- the one placement rule -------------------------------------------------

/// Where a logical element lives: its spread object (block) and its offset
/// inside that block, both in elements.
struct placement {
  std::size_t block = 0;
  std::size_t within = 0;
  friend constexpr bool operator==(const placement&, const placement&) = default;
};

/// Spread object k is on processor k mod P ...
constexpr proc_t block_owner(std::size_t block, proc_t nprocs) noexcept {
  return static_cast<proc_t>(block % static_cast<std::size_t>(nprocs));
}
/// ... at block-row k div P of that processor's part.
constexpr std::size_t block_row(std::size_t block, proc_t nprocs) noexcept {
  return block / static_cast<std::size_t>(nprocs);
}
/// How many of `blocks` spread objects processor p owns.
constexpr std::size_t blocks_on(std::size_t blocks, proc_t p, proc_t nprocs) noexcept {
  const auto q = static_cast<std::size_t>(p);
  return blocks > q ? (blocks - q - 1) / static_cast<std::size_t>(nprocs) + 1 : 0;
}

/// Row-major linear index of `idx` in a box of `extents` (C's rule).
template <std::size_t N>
constexpr std::size_t row_major(const std::array<std::size_t, N>& idx,
                                const std::array<std::size_t, N>& extents) noexcept {
  std::size_t linear = 0;
  for (std::size_t d = 0; d < N; ++d) linear = linear * extents[d] + idx[d];
  return linear;
}
/// The inverse of row_major.
template <std::size_t N>
constexpr std::array<std::size_t, N> row_major_coords(std::size_t linear,
                                                      const std::array<std::size_t, N>& extents) {
  std::array<std::size_t, N> idx{};
  for (std::size_t d = N; d-- > 0;) {
    idx[d] = linear % extents[d];
    linear /= extents[d];
  }
  return idx;
}

// ---- layouts ----------------------------------------------------------------

/// What a layout provides: a logical index space of `rank` dimensions, a
/// number of spread objects (blocks) of block_size() elements each, and the
/// map from a logical index to its block and offset. Block coordinates
/// (block_index) name a block; block_number/block_coords convert to and from
/// its linear spread index.
template <class L>
concept spread_layout = requires(const L& l, const typename L::index_type& i,
                                 const typename L::block_index& b, std::size_t k) {
  { L::rank } -> std::convertible_to<std::size_t>;
  { L::unit_blocks } -> std::convertible_to<bool>;  // block_size() is always 1
  { l.extents() } -> std::same_as<typename L::index_type>;
  { l.spread_count() } -> std::same_as<std::size_t>;
  { l.block_size() } -> std::same_as<std::size_t>;
  { l.valid() } -> std::same_as<bool>;
  { l.place(i) } -> std::same_as<placement>;
  { l.block_number(b) } -> std::same_as<std::size_t>;
  { l.block_coords(k) } -> std::same_as<typename L::block_index>;
};

namespace layout {

/// `T A[n]::` — element i on processor i mod P at row i div P.
struct cyclic {
  std::size_t n = 0;

  static constexpr std::size_t rank = 1;
  static constexpr bool unit_blocks = true;
  using index_type = std::array<std::size_t, 1>;
  using block_index = std::size_t;

  constexpr index_type extents() const noexcept { return {n}; }
  constexpr std::size_t spread_count() const noexcept { return n; }
  constexpr std::size_t block_size() const noexcept { return 1; }
  constexpr bool valid() const noexcept { return true; }
  constexpr placement place(const index_type& i) const noexcept { return {i[0], 0}; }
  constexpr std::size_t block_number(block_index b) const noexcept { return b; }
  constexpr block_index block_coords(std::size_t k) const noexcept { return k; }
};

/// `T A[m]::[b]` — m blocks of b elements; element x is in block x div b,
/// block j on processor j mod P at block-row j div P. Blocked when m == P,
/// block-cyclic when m > P.
struct block_cyclic {
  std::size_t m = 0;
  std::size_t b = 1;

  static constexpr std::size_t rank = 1;
  static constexpr bool unit_blocks = false;
  using index_type = std::array<std::size_t, 1>;
  using block_index = std::size_t;

  constexpr index_type extents() const noexcept { return {m * b}; }
  constexpr std::size_t spread_count() const noexcept { return m; }
  constexpr std::size_t block_size() const noexcept { return b; }
  constexpr bool valid() const noexcept { return b > 0; }
  constexpr placement place(const index_type& x) const noexcept { return {x[0] / b, x[0] % b}; }
  constexpr std::size_t block_number(block_index j) const noexcept { return j; }
  constexpr block_index block_coords(std::size_t k) const noexcept { return k; }
};

/// The blocked layout: one block of b elements per processor (m == P).
constexpr block_cyclic blocked(std::size_t b, proc_t nprocs) noexcept {
  return {static_cast<std::size_t>(nprocs), b};
}

/// `T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2]` — an n x m matrix of b1 x b2
/// blocks. Block (bi, bj) of the (n/b1) x (m/b2) block grid has spread index
/// (bi div r, bj div c, bi mod r, bj mod c). With r*c a multiple of PROCS
/// the r x c dimensions act as a processor grid: blocked-cyclic both ways.
struct blocked_cyclic_2d {
  std::size_t n = 0, m = 0;    // matrix extents, in elements
  std::size_t r = 1, c = 1;    // the processor-grid dimensions
  std::size_t b1 = 1, b2 = 1;  // block extents

  static constexpr std::size_t rank = 2;
  static constexpr bool unit_blocks = false;
  using index_type = std::array<std::size_t, 2>;
  using block_index = std::array<std::size_t, 2>;  // (bi, bj) in the block grid

  /// The four spread extents of the declaration.
  constexpr std::array<std::size_t, 4> spread_extents() const noexcept {
    return {n / (r * b1), m / (c * b2), r, c};
  }
  constexpr std::array<std::size_t, 4> spread_coords(const block_index& bij) const noexcept {
    return {bij[0] / r, bij[1] / c, bij[0] % r, bij[1] % c};
  }

  constexpr index_type extents() const noexcept { return {n, m}; }
  constexpr std::size_t spread_count() const noexcept { return (n / b1) * (m / b2); }
  constexpr std::size_t block_size() const noexcept { return b1 * b2; }
  constexpr bool valid() const noexcept {
    return r > 0 && c > 0 && b1 > 0 && b2 > 0 && n % (r * b1) == 0 && m % (c * b2) == 0;
  }
  constexpr placement place(const index_type& xy) const noexcept {
    return {block_number({xy[0] / b1, xy[1] / b2}), (xy[0] % b1) * b2 + xy[1] % b2};
  }
  constexpr std::size_t block_number(const block_index& bij) const noexcept {
    return row_major(spread_coords(bij), spread_extents());
  }
  constexpr block_index block_coords(std::size_t k) const noexcept {
    const auto s = row_major_coords(k, spread_extents());
    return {s[0] * r + s[2], s[1] * c + s[3]};
  }
};

/// The literal declaration `T A[s0]...[s(S-1)]::[l0]...[l(L-1)]`: indices
/// are the S spread ones followed by the L local ones.
template <std::size_t S, std::size_t L = 0>
  requires(S > 0)
struct dims {
  std::array<std::size_t, S> spread{};
  std::array<std::size_t, L> local{};

  static constexpr std::size_t rank = S + L;
  static constexpr bool unit_blocks = L == 0;
  using index_type = std::array<std::size_t, S + L>;
  using block_index = std::conditional_t<S == 1, std::size_t, std::array<std::size_t, S>>;

  constexpr index_type extents() const noexcept {
    index_type e{};
    for (std::size_t d = 0; d < S; ++d) e[d] = spread[d];
    for (std::size_t d = 0; d < L; ++d) e[S + d] = local[d];
    return e;
  }
  constexpr std::size_t spread_count() const noexcept { return product(spread); }
  constexpr std::size_t block_size() const noexcept { return product(local); }
  constexpr bool valid() const noexcept { return true; }
  constexpr placement place(const index_type& idx) const noexcept {
    std::array<std::size_t, S> s{};
    std::array<std::size_t, L> l{};
    for (std::size_t d = 0; d < S; ++d) s[d] = idx[d];
    for (std::size_t d = 0; d < L; ++d) l[d] = idx[S + d];
    return {row_major(s, spread), row_major(l, local)};
  }
  constexpr std::size_t block_number(const block_index& b) const noexcept {
    if constexpr (S == 1) return b;
    else return row_major(b, spread);
  }
  constexpr block_index block_coords(std::size_t k) const noexcept {
    if constexpr (S == 1) return k;
    else return row_major_coords(k, spread);
  }

 private:
  template <std::size_t N>
  static constexpr std::size_t product(const std::array<std::size_t, N>& a) noexcept {
    std::size_t p = 1;
    for (auto e : a) p *= e;
    return p;
  }
};

}  // namespace layout

/// Whether every index of `idx` is inside the layout's extents.
template <spread_layout L>
constexpr bool in_bounds(const L& l, const typename L::index_type& idx) noexcept {
  const auto e = l.extents();
  for (std::size_t d = 0; d < L::rank; ++d)
    if (idx[d] >= e[d]) return false;
  return true;
}
/// The processor that owns element `idx`.
template <spread_layout L>
constexpr proc_t element_owner(const L& l, const typename L::index_type& idx, proc_t nprocs) {
  return block_owner(l.place(idx).block, nprocs);
}
/// Element `idx`'s offset, in elements, from the array's base on its owner.
template <spread_layout L>
constexpr std::size_t element_offset(const L& l, const typename L::index_type& idx,
                                     proc_t nprocs) {
  const placement at = l.place(idx);
  return block_row(at.block, nprocs) * l.block_size() + at.within;
}

// ---- for_my iteration -------------------------------------------------------

/// The indices 0 <= x < n that processor `me` owns when they are dealt out
/// over `nprocs` processors in runs of `run` (run 1 is the cyclic rule
/// x = me, me+P, me+2P, ...; run b is the block-cyclic rule), increasing.
class my_1d_range {
 public:
  class iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using value_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    constexpr iterator(std::size_t x, std::size_t n, std::size_t run, std::size_t skip)
        : x_(x), run_end_(x + run), n_(n), run_(run), skip_(skip) {}
    constexpr std::size_t operator*() const noexcept { return x_; }
    constexpr iterator& operator++() noexcept {
      if (++x_ == run_end_) {  // jump over the other processors' runs
        x_ += skip_;
        run_end_ = x_ + run_;
      }
      return *this;
    }
    constexpr iterator operator++(int) noexcept {
      auto old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.x_ == b.x_;
    }
    friend constexpr bool operator==(const iterator& a, std::default_sentinel_t) noexcept {
      return a.x_ >= a.n_;
    }

   private:
    std::size_t x_ = 0, run_end_ = 0, n_ = 0, run_ = 1, skip_ = 0;
  };

  my_1d_range() = default;
  constexpr my_1d_range(std::size_t n, proc_t me, proc_t nprocs, std::size_t run = 1)
      : n_(n),
        run_(run),
        first_(static_cast<std::size_t>(me) * run),
        skip_((static_cast<std::size_t>(nprocs) - 1) * run) {}
  constexpr iterator begin() const noexcept { return {first_, n_, run_, skip_}; }
  constexpr std::default_sentinel_t end() const noexcept { return {}; }

 private:
  std::size_t n_ = 0, run_ = 1, first_ = 0, skip_ = 0;
};

/// The (i, j) of an n x m index space, linearized row-major and dealt out
/// cyclically, that processor `me` owns, in increasing linear order.
class my_2d_range {
 public:
  class iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using value_type = std::array<std::size_t, 2>;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    constexpr iterator(std::size_t linear, std::size_t n, std::size_t m, std::size_t nprocs)
        : linear_(linear),
          end_(n * m),
          m_(m),
          step_(nprocs),
          i_(m ? linear / m : 0),
          j_(m ? linear % m : 0),
          di_(m ? nprocs / m : 0),
          dj_(m ? nprocs % m : 0) {}
    constexpr value_type operator*() const noexcept { return {i_, j_}; }
    constexpr iterator& operator++() noexcept {  // add P to (i, j) without dividing
      linear_ += step_;
      i_ += di_;
      j_ += dj_;
      if (j_ >= m_) {
        j_ -= m_;
        ++i_;
      }
      return *this;
    }
    constexpr iterator operator++(int) noexcept {
      auto old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.linear_ == b.linear_;
    }
    friend constexpr bool operator==(const iterator& a, std::default_sentinel_t) noexcept {
      return a.linear_ >= a.end_;
    }

   private:
    std::size_t linear_ = 0, end_ = 0, m_ = 0, step_ = 1;
    std::size_t i_ = 0, j_ = 0, di_ = 0, dj_ = 0;
  };

  my_2d_range() = default;
  constexpr my_2d_range(std::size_t n, std::size_t m, proc_t me, proc_t nprocs)
      : n_(n),
        m_(m),
        me_(static_cast<std::size_t>(me)),
        nprocs_(static_cast<std::size_t>(nprocs)) {}
  constexpr iterator begin() const noexcept { return {me_, n_, m_, nprocs_}; }
  constexpr std::default_sentinel_t end() const noexcept { return {}; }

 private:
  std::size_t n_ = 0, m_ = 0, me_ = 0, nprocs_ = 1;
};

/// The blocks processor `me` owns (numbers me, me+P, ...), as the layout's
/// block coordinates, in storage order.
template <spread_layout Layout>
class my_blocks_range {
 public:
  class iterator {
   public:
    using iterator_concept = std::forward_iterator_tag;
    using value_type = typename Layout::block_index;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    constexpr iterator(my_1d_range::iterator k, const Layout& l) : k_(k), layout_(l) {}
    constexpr value_type operator*() const noexcept { return layout_.block_coords(*k_); }
    constexpr iterator& operator++() noexcept {
      ++k_;
      return *this;
    }
    constexpr iterator operator++(int) noexcept {
      auto old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.k_ == b.k_;
    }
    friend constexpr bool operator==(const iterator& a, std::default_sentinel_t s) noexcept {
      return a.k_ == s;
    }

   private:
    my_1d_range::iterator k_{};
    Layout layout_{};  // a copy: layouts are a few extents
  };

  my_blocks_range() = default;
  constexpr my_blocks_range(const Layout& l, proc_t me, proc_t nprocs)
      : layout_(l), numbers_(l.spread_count(), me, nprocs) {}
  constexpr iterator begin() const noexcept { return {numbers_.begin(), layout_}; }
  constexpr std::default_sentinel_t end() const noexcept { return {}; }

 private:
  Layout layout_{};
  my_1d_range numbers_{};
};

/// for_my_1d as a range: the i in [0, n) owned here under the cyclic layout.
constexpr my_1d_range my_indices_1d(std::size_t n, proc_t me, proc_t nprocs) noexcept {
  return {n, me, nprocs};
}
inline my_1d_range my_indices_1d(std::size_t n) { return {n, myproc(), procs()}; }
/// for_my_2d as a range: the (i, j) of n x m owned here.
constexpr my_2d_range my_indices_2d(std::size_t n, std::size_t m, proc_t me,
                                    proc_t nprocs) noexcept {
  return {n, m, me, nprocs};
}
inline my_2d_range my_indices_2d(std::size_t n, std::size_t m) {
  return {n, m, myproc(), procs()};
}

// ---- the array ----------------------------------------------------------------

/// A spread array of T in layout `Layout`, in the spread heap.
///
/// Construction and destruction (and release(), and move-assigning over a
/// live array) are collective: every processor must make the same calls, with
/// the same layout, in the same order, and before finalize(). The constructor
/// value-initializes this processor's elements and ends with a barrier, so
/// any processor may touch any element once it returns; destruction waits
/// (a barrier inside all_spread_free) until every processor is done with it.
/// Allocation failure is a fatal error of the job.
template <class T, spread_layout Layout>
  requires(transferable<T> && std::default_initializable<T> && alignof(T) <= 64)
class spread_array {
 public:
  using value_type = T;
  using layout_type = Layout;
  using index_type = typename Layout::index_type;
  using block_index = typename Layout::block_index;

  /// An array that holds nothing (not collective).
  spread_array() = default;
  /// Collective: allocate and value-initialize.
  explicit spread_array(const Layout& layout)
      : layout_(layout), me_(myproc()), nprocs_(procs()) {
    if (!layout_.valid()) fatal_error("spread_array: the layout's extents are inconsistent");
    if (layout_.spread_count() == 0 || layout_.block_size() == 0) return;
    const auto p = all_spread_malloc(layout_.spread_count(), layout_.block_size() * sizeof(T));
    if (!p)
      detail::fail("spread_array: no room in the spread heap for {} blocks of {} bytes",
                   layout_.spread_count(), layout_.block_size() * sizeof(T));
    base_ = static_cast<T*>(p.local());
    const auto mine = my_storage();
    std::uninitialized_value_construct(mine.begin(), mine.end());
    barrier();
  }
  spread_array(const spread_array&) = delete;
  spread_array& operator=(const spread_array&) = delete;
  spread_array(spread_array&& other) noexcept { take(other); }
  /// Collective when this array holds storage (it is released first).
  spread_array& operator=(spread_array&& other) {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  /// Collective when the array holds storage.
  ~spread_array() { release(); }

  /// Collective: free the storage now; the array then holds nothing.
  void release() {
    if (base_ == nullptr) return;
    all_spread_free(spread_ptr<T>(0, base_));
    base_ = nullptr;
  }

  const Layout& layout() const noexcept { return layout_; }
  bool empty() const noexcept { return base_ == nullptr; }
  /// Number of elements, and of spread objects (blocks).
  std::size_t size() const noexcept { return layout_.spread_count() * layout_.block_size(); }
  std::size_t block_count() const noexcept { return layout_.spread_count(); }
  std::size_t block_size() const noexcept { return layout_.block_size(); }

  // -- elements, by logical index (Layout::rank indices) --

  proc_t owner(const index_type& idx) const noexcept {
    return element_owner(layout_, idx, nprocs_);
  }
  global_ptr<T> gptr(const index_type& idx) const noexcept {
    return {owner(idx), base_ + element_offset(layout_, idx, nprocs_)};
  }
  /// The element: converting reads it, assigning writes it. Unchecked.
  global_ref<T> operator()(const index_type& idx) const noexcept {
    return global_ref<T>(gptr(idx));
  }
  /// As operator(), but an index out of range is a fatal error.
  global_ref<T> at(const index_type& idx) const {
    if (!in_bounds(layout_, idx)) fatal_error("spread_array::at: index out of range");
    return (*this)(idx);
  }
  template <class... I>
    requires(sizeof...(I) == Layout::rank && (std::integral<I> && ...))
  proc_t owner(I... i) const noexcept {
    return owner(index_type{static_cast<std::size_t>(i)...});
  }
  template <class... I>
    requires(sizeof...(I) == Layout::rank && (std::integral<I> && ...))
  global_ptr<T> gptr(I... i) const noexcept {
    return gptr(index_type{static_cast<std::size_t>(i)...});
  }
  template <class... I>
    requires(sizeof...(I) == Layout::rank && (std::integral<I> && ...))
  global_ref<T> operator()(I... i) const noexcept {
    return (*this)(index_type{static_cast<std::size_t>(i)...});
  }
  template <class... I>
    requires(sizeof...(I) == Layout::rank && (std::integral<I> && ...))
  global_ref<T> at(I... i) const {
    return at(index_type{static_cast<std::size_t>(i)...});
  }

  /// Split-C spread-pointer view, for layouts of one element per block: the
  /// array's start, and element idx; `sptr() + k` is element k in linear order.
  spread_ptr<T> sptr() const noexcept
    requires Layout::unit_blocks
  {
    return {0, base_};
  }
  template <class... I>
    requires(Layout::unit_blocks && sizeof...(I) == Layout::rank && (std::integral<I> && ...))
  spread_ptr<T> sptr(I... i) const noexcept {
    const auto g = gptr(index_type{static_cast<std::size_t>(i)...});
    return {g.proc(), g.address()};
  }

  // -- blocks (spread objects), by block coordinates --

  proc_t block_owner(const block_index& b) const noexcept {
    return splitc::block_owner(layout_.block_number(b), nprocs_);
  }
  /// The block's first element; the rest follow it in row-major order.
  global_ptr<T> block_ptr(const block_index& b) const noexcept {
    const std::size_t k = layout_.block_number(b);
    return {splitc::block_owner(k, nprocs_), base_ + block_row(k, nprocs_) * block_size()};
  }
  /// A block this processor owns, as a plain pointer; a fatal error otherwise.
  T* local_block(const block_index& b) const {
    const auto g = block_ptr(b);
    if (g.proc() != me_) [[unlikely]]
      detail::fail("spread_array::local_block: block {} is on processor {}",
                   layout_.block_number(b), g.proc());
    return g.local();
  }
  /// All of this processor's blocks: contiguous, in increasing block order.
  std::span<T> my_storage() const noexcept {
    if (base_ == nullptr) return {};
    return {base_, blocks_on(block_count(), me_, nprocs_) * block_size()};
  }
  /// Coordinates of the blocks this processor owns, in storage order.
  my_blocks_range<Layout> my_blocks() const noexcept { return {layout_, me_, nprocs_}; }
  /// One-dimensional layouts: the element indices this processor owns, increasing.
  my_1d_range my_indices() const noexcept
    requires(Layout::rank == 1)
  {
    return {size(), me_, nprocs_, block_size()};
  }

 private:
  void take(spread_array& other) noexcept {
    layout_ = other.layout_;
    me_ = other.me_;
    nprocs_ = other.nprocs_;
    base_ = std::exchange(other.base_, nullptr);
  }

  Layout layout_{};
  proc_t me_ = 0;
  proc_t nprocs_ = 1;
  T* base_ = nullptr;  // this processor's copy: the same address everywhere (sim: offset)
};

// ---- the named layouts, allocated (each call is collective) ---------------------

template <class T>
using cyclic_array = spread_array<T, layout::cyclic>;
template <class T>
using block_cyclic_array = spread_array<T, layout::block_cyclic>;
template <class T>
using blocked_cyclic_2d_array = spread_array<T, layout::blocked_cyclic_2d>;

/// `T A[n]::`
template <class T>
cyclic_array<T> make_cyclic(std::size_t n) {
  return cyclic_array<T>(layout::cyclic{n});
}
/// `T A[m]::[b]`
template <class T>
block_cyclic_array<T> make_block_cyclic(std::size_t m, std::size_t b) {
  return block_cyclic_array<T>(layout::block_cyclic{m, b});
}
/// `T A[PROCS]::[b]`
template <class T>
block_cyclic_array<T> make_blocked(std::size_t b) {
  return block_cyclic_array<T>(layout::blocked(b, procs()));
}
/// `T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2]`
template <class T>
blocked_cyclic_2d_array<T> make_blocked_cyclic_2d(std::size_t n, std::size_t m, std::size_t r,
                                                  std::size_t c, std::size_t b1,
                                                  std::size_t b2) {
  return blocked_cyclic_2d_array<T>(layout::blocked_cyclic_2d{n, m, r, c, b1, b2});
}
/// `T A[s0]...::[l0]...`: make_spread_array<T>({s0, s1}, {l0, l1}), or
/// make_spread_array<T>({s0, s1}) with no local dimensions.
template <class T, std::size_t S, std::size_t L = 0>
spread_array<T, layout::dims<S, L>> make_spread_array(
    const std::array<std::size_t, S>& spread, const std::array<std::size_t, L>& local = {}) {
  return spread_array<T, layout::dims<S, L>>(layout::dims<S, L>{spread, local});
}
template <class T, std::size_t S, std::size_t L>
spread_array<T, layout::dims<S, L>> make_spread_array(const std::size_t (&spread)[S],
                                                      const std::size_t (&local)[L]) {
  return make_spread_array<T>(std::to_array(spread), std::to_array(local));
}
template <class T, std::size_t S>
spread_array<T, layout::dims<S>> make_spread_array(const std::size_t (&spread)[S]) {
  return make_spread_array<T>(std::to_array(spread));
}

}  // namespace splitc

// The for_my ranges are views whose iterators outlive them (declared rather
// than derived from view_interface, which older clang cannot compile).
namespace std::ranges {
template <>
inline constexpr bool enable_view<splitc::my_1d_range> = true;
template <>
inline constexpr bool enable_view<splitc::my_2d_range> = true;
template <class L>
inline constexpr bool enable_view<splitc::my_blocks_range<L>> = true;
template <>
inline constexpr bool enable_borrowed_range<splitc::my_1d_range> = true;
template <>
inline constexpr bool enable_borrowed_range<splitc::my_2d_range> = true;
template <class L>
inline constexpr bool enable_borrowed_range<splitc::my_blocks_range<L>> = true;
}  // namespace std::ranges

// ---- the seed's loop macros ---------------------------------------------------
//
// for_my_1d(i, n)       { ... }  i = MYPROC, MYPROC+PROCS, ... below n
// for_my_2d(i, j, n, m) { ... }  the (i, j) of the n x m spread index space
//                                (row-major, cyclic) that MYPROC owns
// Each declares its loop variables (const std::size_t); break and continue
// work as in any loop. A definition made earlier (say by the C interface) wins.
#ifndef SPLITC_NO_SEED_MACROS
#ifndef for_my_1d
#define for_my_1d(i, n) for (const std::size_t i : ::splitc::my_indices_1d(n))
#endif
#ifndef for_my_2d
#define for_my_2d(i, j, n, m) for (const auto [i, j] : ::splitc::my_indices_2d((n), (m)))
#endif
#endif
