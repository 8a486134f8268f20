// Scatter and axpby: the caller's own items are updated directly, in a loop of their own
// after the list has been filed (apply_own). A scatter's others are puts, handed to splitc's
// indexed transfer as positioned elements (one message per remote owner, or copies into an
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

/// Applies the values of n items to their places in the local part of the array: item(k)
/// gives item k's offset there and its position among the values (both in items). The element
/// type and the kind are decided once for the whole run, not per item. It serves the owner's
/// handler (items in message order) and a list call's own items (file_items), whose loads,
/// with no branch between them, overlap.
template <class T, class Item>
void apply_items(char* local, const char* values, std::size_t n, Item item,
                 const coefficients& c) noexcept {
  for (std::size_t k = 0; k < n; ++k) {
    const own_item it = item(k);
    apply<T>(local + std::size_t{it.offset} * sizeof(T), values + std::size_t{it.position} * sizeof(T), c);
  }
}
template <class Item>
void apply_items_any(elem t, char* local, const char* values, std::size_t n, Item item,
                     const coefficients& c) noexcept {
  switch (t) {
    case elem::float64: apply_items<double>(local, values, n, item, c); break;
    case elem::int32: apply_items<std::int32_t>(local, values, n, item, c); break;
    case elem::byte: apply_items<char>(local, values, n, item, c); break;
  }
}
void apply_own(const array& a, const char* values, const own_item* own, std::size_t n,
               const coefficients& c) noexcept {
  apply_items_any(a.type, a.local, values, n, [own](std::size_t j) { return own[j]; }, c);
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
  apply_items_any(a.type, a.local, p + offsets_bytes(n), n,
                  [p](std::size_t k) {
                    own_item it{0, static_cast<std::uint32_t>(k)};
                    std::memcpy(&it.offset, p + k * sizeof it.offset, sizeof it.offset);
                    return it;
                  },
                  c);
  splitc::am_reply(m, s.h_ack);
}

// A scatter: the list filed (file_items), the caller's own items written in a loop of their
// own (apply_own), the others handed to splitc's indexed transfer as one list of elements with
// their values' places in `values` (one message per remote owner, or copies into owners
// mapped here), complete on s.scatters (do_gsync).
void scatter(state& s, array& a, int n, const int* list, int start, const void* values) {
  const char* x = static_cast<const char*>(values);
  const auto count = static_cast<std::size_t>(n);
  const auto others = std::make_unique_for_overwrite<splitc::detail::positioned_element[]>(count);
  const auto own = std::make_unique_for_overwrite<own_item[]>(count);
  const filed_items f = file_items(s, a, n, list, start, others.get(), own.get());
  apply_own(a, x, own.get(), f.own, coefficients{update_kind::scatter, 0, 0});
  if (f.others == 0) return;
  s.st.items += static_cast<long long>(f.others);
  s.st.messages += static_cast<long long>(splitc::detail::positioned_transfer(
      splitc::detail::ctx(), splitc::detail::vector_kind::put,
      std::span<const splitc::detail::positioned_element>(others.get(), f.others),
      const_cast<char*>(x), a.esize, s.scatters, nullptr, "do_scatter"));
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
  apply_own(a, x, own.get(), mine, c);
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
