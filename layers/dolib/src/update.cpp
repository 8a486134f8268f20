// Scatter and axpby: the caller's own items are updated directly, in a loop of their own
// after the list has been filed (apply_own). A scatter's others are
// puts, handed to splitc's indexed transfer (one message per remote owner, or copies into an
// owner mapped here). An axpby's others are bucketed by owner and sent in one medium request
// per owner (per chunk), whose handler applies them at the owner. Handlers run one at a time
// and the owner's own updates run outside handlers, so each element's read-modify-write is
// never interleaved with another: concurrent axpby updates of one element from many
// processors all count. Each request is acknowledged; do_gsync waits for the
// acknowledgements and the scatters' counter.
#include "state.hpp"

#include <bit>
#include <cstring>
#include <memory>
#include <span>

namespace dolib {
namespace {

struct coefficients {
  update_kind kind;
  double alpha, beta;  // exact for int coefficients too (|v| < 2^31)
};

template <class T>
inline void apply(char* y, const char* x, const coefficients& c) noexcept {
  T v;
  std::memcpy(&v, x, sizeof(T));
  if (c.kind == update_kind::axpby) {
    T old;
    std::memcpy(&old, y, sizeof(T));
    if constexpr (std::is_same_v<T, double>) {
      v = c.alpha * v + c.beta * old;
    } else {
      // Integer arithmetic, wrapping like the seed's Fortran integers.
      const auto a = static_cast<std::uint32_t>(static_cast<std::int32_t>(c.alpha));
      const auto b = static_cast<std::uint32_t>(static_cast<std::int32_t>(c.beta));
      v = static_cast<T>(a * static_cast<std::uint32_t>(v) + b * static_cast<std::uint32_t>(old));
    }
  }
  std::memcpy(y, &v, sizeof(T));
}

/// Applies n values to the local items named by offset(k), with the element type and the
/// kind decided once for the whole run, not per item.
template <class T, class Offset>
void apply_run(char* local, const char* values, std::size_t n, Offset offset, const coefficients& c) noexcept {
  for (std::size_t k = 0; k < n; ++k)
    apply<T>(local + std::size_t{offset(k)} * sizeof(T), values + k * sizeof(T), c);
}
template <class Offset>
void apply_run_any(elem t, char* local, const char* values, std::size_t n, Offset offset,
                   const coefficients& c) noexcept {
  switch (t) {
    case elem::float64: apply_run<double>(local, values, n, offset, c); break;
    case elem::int32: apply_run<std::int32_t>(local, values, n, offset, c); break;
    case elem::byte: apply_run<char>(local, values, n, offset, c); break;
  }
}

/// The caller's own items of a list call, in list order: their values applied (or, for a
/// scatter, written). A loop of its own, after the list was filed without a branch on the
/// owner (a random list would mispredict it every other item and stall the loads behind it):
/// here the items' loads are independent and overlap.
template <class T>
void apply_own(char* local, const char* x, const own_item* own, std::size_t n,
               const coefficients& c) noexcept {
  for (std::size_t j = 0; j < n; ++j)
    apply<T>(local + std::size_t{own[j].offset} * sizeof(T),
             x + std::size_t{own[j].position} * sizeof(T), c);
}
void apply_own_any(elem t, char* local, const char* x, const own_item* own, std::size_t n,
                   const coefficients& c) noexcept {
  switch (t) {
    case elem::float64: apply_own<double>(local, x, own, n, c); break;
    case elem::int32: apply_own<std::int32_t>(local, x, own, n, c); break;
    case elem::byte: apply_own<char>(local, x, own, n, c); break;
  }
}

std::size_t offsets_bytes(std::size_t n) { return (n * sizeof(std::uint32_t) + 7) / 8 * 8; }

// At the owner: words (array, count, kind, alpha bits, beta bits), payload: offsets (padded
// to 8 bytes), then the values.
void on_update(const splitc::am_message& m) {
  state& s = state_of();
  const array& a = *s.arrays[static_cast<std::size_t>(m.args[0] - 1)];
  const auto n = static_cast<std::size_t>(m.args[1]);
  const coefficients c{static_cast<update_kind>(m.args[2]), std::bit_cast<double>(m.args[3]),
                       std::bit_cast<double>(m.args[4])};
  const char* p = static_cast<const char*>(m.payload);
  apply_run_any(a.type, a.local, p + offsets_bytes(n), n,
                [p](std::size_t k) {
                  std::uint32_t off;
                  std::memcpy(&off, p + k * sizeof off, sizeof off);
                  return off;
                },
                c);
  splitc::am_reply(m, s.h_ack);
}

// A scatter: the caller's own items written in place, the others handed to splitc as one
// list of element pieces (one message per remote owner, or copies into owners mapped here),
// complete on s.scatters (do_gsync). The list is filed first, without a branch on the owner,
// then the own items are written (apply_own).
void scatter(state& s, array& a, int n, const int* list, int start, const void* values) {
  const std::size_t e = a.esize;
  const char* x = static_cast<const char*>(values);
  const auto count = static_cast<std::size_t>(n);
  // Room for every item in each list; each is written up to its own count.
  const auto remote = std::make_unique_for_overwrite<splitc::global_piece[]>(count);
  const auto from = std::make_unique_for_overwrite<splitc::local_piece[]>(count);
  const auto own = std::make_unique_for_overwrite<own_item[]>(count);
  std::size_t kept = 0, mine = 0;
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
    const place w = a.locate(i, s.procs);
    remote[kept] = {splitc::global_ptr<void>(w.owner, a.local + std::size_t{w.offset} * e), e};
    from[kept] = {const_cast<char*>(x + static_cast<std::size_t>(k) * e), e};
    own[mine] = {w.offset, static_cast<std::uint32_t>(k)};
    const std::size_t is_mine = w.owner == s.me;
    mine += is_mine;
    kept += 1 - is_mine;
  }
  apply_own_any(a.type, a.local, x, own.get(), mine, coefficients{update_kind::scatter, 0, 0});
  if (kept == 0) return;
  s.st.items += static_cast<long long>(kept);
  s.st.messages += static_cast<long long>(splitc::detail::pieces_transfer(
      splitc::detail::ctx(), splitc::detail::vector_kind::put,
      std::span<const splitc::global_piece>(remote.get(), kept),
      std::span<const splitc::local_piece>(from.get(), kept), s.scatters, nullptr,
      "do_scatter"));
}

}  // namespace

splitc::handler_id register_update_handler() { return splitc::register_handler(on_update); }

void update(state& s, const call_info& ci, array& a, update_kind kind, int n, const int* list,
            int start, const void* values, double alpha, double beta) {
  check_indices(ci, a, n, list, start);
  if (n == 0) return;
  if (kind == update_kind::scatter) return scatter(s, a, n, list, start, values);
  const coefficients c{kind, alpha, beta};
  const int P = s.procs;
  const std::size_t e = a.esize;
  const char* x = static_cast<const char*>(values);
  std::vector<place> where(static_cast<std::size_t>(n));
  std::vector<std::size_t> count(static_cast<std::size_t>(P) + 1, 0);
  // The list filed without a branch on the owner (apply_own), the own items applied after.
  const auto own = std::make_unique_for_overwrite<own_item[]>(static_cast<std::size_t>(n));
  std::size_t mine = 0;
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
    const place w = a.locate(i, P);
    where[static_cast<std::size_t>(k)] = w;
    ++count[static_cast<std::size_t>(w.owner) + 1];
    own[mine] = {w.offset, static_cast<std::uint32_t>(k)};
    mine += static_cast<std::size_t>(w.owner == s.me);
  }
  apply_own_any(a.type, a.local, x, own.get(), mine, c);
  count[static_cast<std::size_t>(s.me) + 1] = 0;
  for (int q = 0; q < P; ++q) count[static_cast<std::size_t>(q) + 1] += count[static_cast<std::size_t>(q)];
  const std::size_t remote = count[static_cast<std::size_t>(P)];
  if (remote == 0) return;
  // Bucket by owner: offsets and values side by side.
  std::vector<std::uint32_t> offsets(remote);
  std::vector<char> vals(remote * e);
  std::vector<std::size_t> fill(count.begin(), count.end() - 1);
  for (int k = 0; k < n; ++k) {
    const place w = where[static_cast<std::size_t>(k)];
    if (w.owner == s.me) continue;
    const std::size_t at = fill[static_cast<std::size_t>(w.owner)]++;
    offsets[at] = w.offset;
    std::memcpy(vals.data() + at * e, x + static_cast<std::size_t>(k) * e, e);
  }
  const std::size_t chunk = (medium_bytes - 8) / (sizeof(std::uint32_t) + e);
  std::vector<char> msg;
  for (int q = 0; q < P; ++q) {
    const std::size_t end = count[static_cast<std::size_t>(q) + 1];
    for (std::size_t from = count[static_cast<std::size_t>(q)]; from < end; from += chunk) {
      const std::size_t len = std::min(chunk, end - from);
      const std::size_t ob = offsets_bytes(len);
      msg.assign(ob + len * e, 0);
      std::memcpy(msg.data(), offsets.data() + from, len * sizeof(std::uint32_t));
      std::memcpy(msg.data() + ob, vals.data() + from * e, len * e);
      ++s.updates_pending;
      ++s.st.messages;
      s.st.items += static_cast<long long>(len);
      splitc::am_request_medium(q, s.h_update, msg.data(), msg.size(), a.id, len,
                                static_cast<int>(kind), std::bit_cast<std::uint64_t>(alpha),
                                std::bit_cast<std::uint64_t>(beta));
    }
  }
}

}  // namespace dolib
