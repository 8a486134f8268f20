// Strided transfers (strided.hpp): the region checked and simplified, then moved with
// plain copies when its target is this processor's or mapped here, else as the vector
// transfer of its contiguous runs (one message per medium_limit bytes, or the layer's own
// transfers for long runs: detail/vector_transfer.hpp).
#include <splitc/strided.hpp>

#include <splitc/bulk.hpp>
#include <splitc/detail/vector_transfer.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <fmt/ranges.h>
#include <numeric>
#include <vector>

namespace splitc::detail {
namespace {

/// A region in simplified form: runs of `run` contiguous bytes on both sides, counted and
/// strided per remaining dimension (each with a count above one).
struct region {
  std::size_t run = 0;
  std::size_t dims = 0;
  std::array<std::size_t, max_strided_dims> count{};
  std::array<std::ptrdiff_t, max_strided_dims> remote{}, local{};
  std::size_t runs() const noexcept {
    return std::accumulate(count.begin(), count.begin() + dims, std::size_t{1},
                           std::multiplies<>());
  }
};

std::size_t magnitude(std::ptrdiff_t s) noexcept {
  return s < 0 ? static_cast<std::size_t>(-(s + 1)) + 1 : static_cast<std::size_t>(s);
}

/// The lowest and one past the highest byte a side of the region touches, from its base.
std::pair<std::ptrdiff_t, std::ptrdiff_t> extent(const region& r,
                                                 const std::array<std::ptrdiff_t, max_strided_dims>& s) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (std::size_t k = 0; k < r.dims; ++k) {
    const std::ptrdiff_t far = s[k] * static_cast<std::ptrdiff_t>(r.count[k] - 1);
    (far < 0 ? lo : hi) += far;
  }
  return {lo, hi + static_cast<std::ptrdiff_t>(r.run)};
}

/// f(remote offset, local offset) for each run, dimension 0 fastest.
template <class F>
void for_each_run(const region& r, F f) {
  std::array<std::size_t, max_strided_dims> i{};
  std::ptrdiff_t ro = 0, lo = 0;
  for (;;) {
    f(ro, lo);
    std::size_t k = 0;
    for (; k < r.dims; ++k) {
      ro += r.remote[k];
      lo += r.local[k];
      if (++i[k] < r.count[k]) break;
      ro -= r.remote[k] * static_cast<std::ptrdiff_t>(r.count[k]);
      lo -= r.local[k] * static_cast<std::ptrdiff_t>(r.count[k]);
      i[k] = 0;
    }
    if (k == r.dims) return;
  }
}

/// Whether two runs of the written side overlap: first the rule that proves most layouts
/// disjoint (each stride, smallest first, clears everything below it), then, for layouts
/// that interleave dimensions, every run's offset sorted.
bool overlaps(const region& r, bool remote_side) {
  const auto& s = remote_side ? r.remote : r.local;
  std::array<std::size_t, max_strided_dims> by_size{};  // dimensions, smallest stride first
  for (std::size_t k = 0; k < r.dims; ++k) {
    std::size_t j = k;
    for (; j > 0 && magnitude(s[by_size[j - 1]]) > magnitude(s[k]); --j) by_size[j] = by_size[j - 1];
    by_size[j] = k;
  }
  std::size_t span = r.run;
  bool nested = true;
  for (std::size_t j = 0; j < r.dims && nested; ++j) {
    const std::size_t k = by_size[j];
    if (magnitude(s[k]) < span) nested = false;
    else span += magnitude(s[k]) * (r.count[k] - 1);
  }
  if (nested) return false;
  std::vector<std::ptrdiff_t> at;
  at.reserve(r.runs());
  for_each_run(r, [&](std::ptrdiff_t ro, std::ptrdiff_t lo) { at.push_back(remote_side ? ro : lo); });
  std::sort(at.begin(), at.end());
  for (std::size_t k = 1; k < at.size(); ++k)
    if (static_cast<std::size_t>(at[k] - at[k - 1]) < r.run) return true;
  return false;
}

/// The region checked (dimensions, strides, length, the written side disjoint) and
/// simplified; false when it moves nothing.
bool make_region(context& c, region& r, std::span<const std::ptrdiff_t> remote_strides,
                 std::span<const std::ptrdiff_t> local_strides, strided_shape shape,
                 bool remote_written, const char* op) {
  const std::size_t dims = shape.counts.size();
  if (dims > max_strided_dims)
    fail("{}: {} dimensions; a strided region has at most {}", op, dims, max_strided_dims);
  if (remote_strides.size() != dims || local_strides.size() != dims)
    fail("{}: {} counts but {} destination and {} source strides; each side needs one stride "
         "per dimension", op, dims, remote_written ? remote_strides.size() : local_strides.size(),
         remote_written ? local_strides.size() : remote_strides.size());
  std::size_t total = shape.elem_size;
  for (std::size_t k = 0; k < dims; ++k) {
    const std::size_t n = shape.counts[k];
    if (n != 0 && total > max_bulk_length / n) bad_length(c, max_bulk_length + 1, op);
    total *= n;
  }
  if (total > max_bulk_length) bad_length(c, total, op);
  if (total == 0) return false;
  r.run = shape.elem_size;
  r.dims = 0;
  for (std::size_t k = 0; k < dims; ++k) {
    if (shape.counts[k] == 1) continue;
    r.count[r.dims] = shape.counts[k];
    r.remote[r.dims] = remote_strides[k];
    r.local[r.dims] = local_strides[k];
    ++r.dims;
  }
  if (overlaps(r, remote_written))
    fail("{}: elements of the destination region overlap (strides [{}], counts [{}], {}-byte "
         "elements): each element written must have bytes of its own (a zero stride is one "
         "only on the side read)", op,
         fmt::join(remote_written ? remote_strides : local_strides, ", "),
         fmt::join(shape.counts, ", "), shape.elem_size);
  // Merge: dimension 0 into the run while both sides are contiguous, then neighbours that
  // continue each other on both sides.
  std::size_t out = 0;
  for (std::size_t k = 0; k < r.dims; ++k) {
    const auto run = static_cast<std::ptrdiff_t>(r.run);
    if (out == 0 && r.remote[k] == run && r.local[k] == run) {
      r.run *= r.count[k];
      continue;
    }
    if (out > 0) {
      const std::size_t p = out - 1;
      const auto n = static_cast<std::ptrdiff_t>(r.count[p]);
      if (r.remote[k] == r.remote[p] * n && r.local[k] == r.local[p] * n) {
        r.count[p] *= r.count[k];
        continue;
      }
    }
    r.count[out] = r.count[k];
    r.remote[out] = r.remote[k];
    r.local[out] = r.local[k];
    ++out;
  }
  r.dims = out;
  return true;
}

template <std::size_t Run>
void copy_runs_of(const region& r, vector_kind kind, char* remote, char* local) {
  const std::size_t run = Run != 0 ? Run : r.run;  // a constant for element-sized runs
  for_each_run(r, [&](std::ptrdiff_t ro, std::ptrdiff_t lo) {
    if (kind == vector_kind::get) std::memcpy(local + lo, remote + ro, run);
    else std::memcpy(remote + ro, local + lo, run);
  });
}
void copy_runs(const region& r, vector_kind kind, char* remote, char* local) {
  switch (r.run) {
    case 8: return copy_runs_of<8>(r, kind, remote, local);
    case 4: return copy_runs_of<4>(r, kind, remote, local);
    default: return copy_runs_of<0>(r, kind, remote, local);
  }
}

void strided_transfer(context& c, vector_kind kind, global_ptr<void> remote,
                      std::span<const std::ptrdiff_t> remote_strides, void* local,
                      std::span<const std::ptrdiff_t> local_strides, strided_shape shape,
                      counter& ctr, counter* sent, const char* op) {
  const proc_t p = remote.proc();
  if (static_cast<unsigned>(p) >= static_cast<unsigned>(c.procs)) bad_processor(c, p, op);
  region r;
  if (!make_region(c, r, remote_strides, local_strides, shape, kind != vector_kind::get, op))
    return;
  if (remote.address() == nullptr) null_target(c, p, op);
  if (local == nullptr) fail("{}: the local region's base is a null pointer", op);
  auto* base = static_cast<char*>(remote.address());
  auto* mine = static_cast<char*>(local);
  const std::int64_t bytes = static_cast<std::int64_t>(r.run * r.runs());
  // The whole region in reach of plain copies: this processor's, or a mapped peer's.
  const auto [lo, hi] = extent(r, r.remote);
  char* reach = p == c.myproc ? base : nullptr;
  if (reach == nullptr) {
    if (char* d = static_cast<char*>(direct(c, p, base + lo, static_cast<std::size_t>(hi - lo))))
      reach = d - lo;
  }
  if (reach != nullptr) {
    counter* received = nullptr;
    if (kind == vector_kind::store) {
      received = p == c.myproc ? &ctr : static_cast<counter*>(direct(c, p, &ctr, sizeof(counter)));
      // A store whose counter is not mapped here counts through messages.
      if (received == nullptr) reach = nullptr;
    }
    if (reach != nullptr) {
      copy_runs(r, kind, reach, mine);
      if (kind == vector_kind::store) {
        sent->add_local(bytes);
        received->add_shared(bytes);
      }
      return;
    }
  }
  std::vector<transfer_pair> pairs;
  pairs.reserve(r.runs());
  for_each_run(r, [&](std::ptrdiff_t ro, std::ptrdiff_t lo) {
    pairs.push_back({p, base + ro, mine + lo, r.run});
  });
  vector_transfer(c, kind, pairs, ctr, sent, op);
}

}  // namespace

void strided_get(context& c, void* dst, std::span<const std::ptrdiff_t> dst_strides,
                 global_ptr<void> src, std::span<const std::ptrdiff_t> src_strides,
                 strided_shape shape, counter& ctr, const char* op) {
  strided_transfer(c, vector_kind::get, src, src_strides, dst, dst_strides, shape, ctr, nullptr, op);
}
void strided_put(context& c, global_ptr<void> dst, std::span<const std::ptrdiff_t> dst_strides,
                 const void* src, std::span<const std::ptrdiff_t> src_strides,
                 strided_shape shape, counter& ctr, const char* op) {
  strided_transfer(c, vector_kind::put, dst, dst_strides, const_cast<void*>(src), src_strides,
                   shape, ctr, nullptr, op);
}
void strided_store(context& c, global_ptr<void> dst,
                   std::span<const std::ptrdiff_t> dst_strides, const void* src,
                   std::span<const std::ptrdiff_t> src_strides, strided_shape shape,
                   counter& received, counter& sent, const char* op) {
  strided_transfer(c, vector_kind::store, dst, dst_strides, const_cast<void*>(src), src_strides,
                   shape, received, &sent, op);
}

}  // namespace splitc::detail
