// Vector transfers (detail/vector_transfer.hpp): the pairs a strided or indexed transfer
// is made of, each taken by the bulk path its length calls for, the short remote ones
// packed per owner into medium messages of at most medium_limit bytes; and the entry points
// of indexed.hpp's lists (pieces_transfer: two lists cut at each other's boundaries;
// elements_transfer: pairs made on the fly) and of detail/positioned_transfer.hpp's.
//
// A message's payload is its pieces' addresses, then (puts, stores) their data in order.
// Two encodings: when every piece for that owner has one length and lies within 2 GiB of
// the first, a 32-bit signed offset from the first address per piece (an indexed gather's
// or a strided region's common case: 4 bytes a piece); otherwise 8 bytes of address and 8
// of length per piece. The words: (tag, pieces, common length or 0, first address), where
// tag is the put's counter, the store's counter (0: the library's) or the get's batch.
#include <splitc/detail/vector_transfer.hpp>
#include <splitc/detail/positioned_transfer.hpp>

#include "am_words.hpp"

#include <splitc/bulk.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/indexed.hpp>
#include <splitc/global_memory.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace splitc::detail {
namespace {

using am_words::word;
using am_words::as;

constexpr std::size_t message_bytes = medium_limit;
constexpr std::size_t alone_bytes = medium_limit / 2;
/// Pieces are taken in blocks of this many: first each one checked and translated (a get's
/// mapped source prefetched: an element list's reads are random, each a line that may come
/// from another core's cache), then each moved, the loads of the block overlapping.
constexpr std::size_t block = 16;


/// A piece's bytes: the common element sizes as fixed-size moves, not a call.
inline void copy_piece(void* dst, const void* src, std::size_t len) noexcept {
  switch (len) {
    case 8: std::memcpy(dst, src, 8); break;
    case 4: std::memcpy(dst, src, 4); break;
    default: std::memcpy(dst, src, len); break;
  }
}

/// How one message names its pieces' remote addresses.
struct encoding {
  std::size_t common_len = 0;  // 0: every piece carries its address and length
  std::uintptr_t first = 0;
  std::size_t entry_bytes() const noexcept { return common_len != 0 ? 4 : 16; }
};

/// One owner's pieces kept for messages, and their encoding, learnt as pass 1 meets them (in
/// the order they are sent): compact while they share one length and lie within 2 GiB of the
/// first.
struct owner_pieces {
  std::uint32_t count = 0;
  bool compact = true;
  encoding e;

  void add(const transfer_pair& t) noexcept {
    const auto at = reinterpret_cast<std::uintptr_t>(t.remote);
    if (count++ == 0) {
      e.common_len = t.len;
      e.first = at;
      return;
    }
    constexpr std::intptr_t reach = std::numeric_limits<std::int32_t>::max();
    const auto delta = static_cast<std::intptr_t>(at - e.first);
    if (t.len != e.common_len || delta > reach || delta < -reach) compact = false;
  }
  encoding chosen() const noexcept { return compact ? e : encoding{}; }
};

void put_entry(unsigned char* at, const encoding& e, const transfer_pair& t) noexcept {
  if (e.common_len != 0) {
    const auto delta =
        static_cast<std::int32_t>(reinterpret_cast<std::uintptr_t>(t.remote) - e.first);
    std::memcpy(at, &delta, 4);
  } else {
    const std::uint64_t w[2] = {reinterpret_cast<std::uintptr_t>(t.remote), t.len};
    std::memcpy(at, w, 16);
  }
}

/// The pieces of a received message, in order: f(address, length). Pieces of one length
/// take a loop of their own for the common element sizes, whose length the compiler knows,
/// so that the copy is a load and a store with no test of the length in every iteration.
template <std::size_t Len, class F>
void for_each_compact(const unsigned char* at, std::size_t n, std::uintptr_t first, F f) {
  for (std::size_t k = 0; k < n; ++k, at += 4) {
    std::int32_t delta;
    std::memcpy(&delta, at, 4);
    f(reinterpret_cast<unsigned char*>(first + static_cast<std::uintptr_t>(static_cast<std::intptr_t>(delta))),
      Len);
  }
}
template <class F>
void for_each_entry(const am_message& m, F f) {
  const auto n = static_cast<std::size_t>(m.args[1]);
  const std::size_t common_len = m.args[2];
  const auto* at = static_cast<const unsigned char*>(m.payload);
  if (common_len != 0) {
    const auto first = static_cast<std::uintptr_t>(m.args[3]);
    switch (common_len) {
      case 8: for_each_compact<8>(at, n, first, f); break;
      case 4: for_each_compact<4>(at, n, first, f); break;
      default: for_each_compact<0>(at, n, first, [&](unsigned char* p, std::size_t) { f(p, common_len); });
    }
  } else {
    for (std::size_t k = 0; k < n; ++k, at += 16) {
      std::uint64_t w[2];
      std::memcpy(w, at, 16);
      f(reinterpret_cast<unsigned char*>(static_cast<std::uintptr_t>(w[0])),
        static_cast<std::size_t>(w[1]));
    }
  }
}
std::size_t entries_bytes(const am_message& m) noexcept {
  return static_cast<std::size_t>(m.args[1]) * (m.args[2] != 0 ? 4 : 16);
}

/// Places the data after the entries; returns the bytes placed.
std::size_t place_pieces(const am_message& m) {
  const auto* data = static_cast<const unsigned char*>(m.payload) + entries_bytes(m);
  std::size_t placed = 0;
  for_each_entry(m, [&](unsigned char* dst, std::size_t len) {
    copy_piece(dst, data + placed, len);
    placed += len;
  });
  return placed;
}

/// A get's message in flight: where its pieces' bytes go here, and the counter to count down.
struct get_batch {
  counter* ctr;
  std::size_t common_len;  ///< the pieces' one length, or 0
  std::vector<std::pair<void*, std::size_t>> into;
};

/// A get's bytes to their places, `Len` each (0: as each piece says).
template <std::size_t Len>
void place_replied(const get_batch& batch, const unsigned char* data) noexcept {
  for (auto [dst, len] : batch.into) {
    copy_piece(dst, data, Len != 0 ? Len : len);
    data += Len != 0 ? Len : len;
  }
}

/// Batches whose replies have come, kept with their lists' room for the next gets (a list of
/// thousands of pieces would otherwise map and unmap its room for every message). Per
/// thread: the processors of a shared process take turns on it, never in the middle of a use.
thread_local std::vector<std::unique_ptr<get_batch>> spare_batches;

std::unique_ptr<get_batch> new_batch() {
  if (spare_batches.empty()) return std::make_unique<get_batch>();
  std::unique_ptr<get_batch> b = std::move(spare_batches.back());
  spare_batches.pop_back();
  b->into.clear();
  return b;
}

void on_vector_put(const am_message& m) {
  place_pieces(m);
  reply(running(), m, am_kind::short_msg, id(builtin::ack), &m.args[0], 1);
}
void on_vector_store(const am_message& m) {
  const std::size_t placed = place_pieces(m);
  counter* received = m.args[0] != 0 ? as<counter>(m.args[0]) : library_store_counter(running());
  received->add_shared(static_cast<std::int64_t>(placed));
}
void on_vector_get(const am_message& m) {
  context& c = running();
  std::size_t total = m.args[2] * m.args[1];  // pieces of one length: known at once
  if (m.args[2] == 0) for_each_entry(m, [&](const unsigned char*, std::size_t len) { total += len; });
  // The reply's bytes, in room kept from one request to the next (a handler runs to its end
  // before another starts, and a reply that must wait is copied).
  thread_local std::vector<unsigned char> out;
  out.resize(total);
  unsigned char* to = out.data();
  for_each_entry(m, [&](const unsigned char* src, std::size_t len) {
    copy_piece(to, src, len);
    to += len;
  });
  reply(c, m, am_kind::medium_msg, id(builtin::vector_get_reply), &m.args[0], 1, out.data(),
        out.size());
}
void on_vector_get_reply(const am_message& m) {
  std::unique_ptr<get_batch> batch(as<get_batch>(m.args[0]));
  const auto* data = static_cast<const unsigned char*>(m.payload);
  switch (batch->common_len) {
    case 8: place_replied<8>(*batch, data); break;
    case 4: place_replied<4>(*batch, data); break;
    default: place_replied<0>(*batch, data);
  }
  batch->ctr->add_local(-1);
  if (spare_batches.size() < 64) spare_batches.push_back(std::move(batch));
}

/// Sends one owner's short pieces, `mine` (numbers for pairs()), in as few messages as fit;
/// ctr is a get's or put's counter, or a store's at the receiver.
template <class At>
std::size_t send_batches(context& c, vector_kind kind, proc_t p, At pairs,
                         std::span<const std::uint32_t> mine, const encoding& e, counter& ctr) {
  std::vector<unsigned char> buf;
  const handler_id h = id(kind == vector_kind::get   ? builtin::vector_get
                          : kind == vector_kind::put ? builtin::vector_put
                                                     : builtin::vector_store);
  std::size_t from = 0, messages = 0;
  while (from < mine.size()) {
    // As many pieces as the message holds: entries (and, for puts and stores, data) within
    // message_bytes; a get's reply data too. Pieces of one length: counted at once.
    std::size_t n = 0, data = 0;
    if (e.common_len != 0) {
      const std::size_t len = e.common_len;
      const std::size_t entry = e.entry_bytes();
      n = std::min(mine.size() - from, kind == vector_kind::get
                                           ? std::min(message_bytes / entry, message_bytes / len)
                                           : message_bytes / (entry + len));
      data = n * len;
    } else {
      while (from + n < mine.size()) {
        const std::size_t len = pairs(mine[from + n]).len;
        const std::size_t entries = (n + 1) * e.entry_bytes();
        const bool fits = kind == vector_kind::get
                              ? entries <= message_bytes && data + len <= message_bytes
                              : entries + data + len <= message_bytes;
        if (!fits) break;
        data += len;
        ++n;
      }
    }
    const std::span<const std::uint32_t> part = mine.subspan(from, n);
    from += n;
    const std::size_t entries = n * e.entry_bytes();
    buf.resize(entries + (kind == vector_kind::get ? 0 : data));
    std::unique_ptr<get_batch> batch;
    if (kind == vector_kind::get) {
      batch = new_batch();
      batch->into.reserve(n);
    }
    std::size_t at = 0, data_at = entries;
    for (std::uint32_t k : part) {
      const transfer_pair t = pairs(k);
      put_entry(buf.data() + at, e, t);
      at += e.entry_bytes();
      if (kind == vector_kind::get) {
        batch->into.emplace_back(t.local, t.len);
      } else {
        copy_piece(buf.data() + data_at, t.local, t.len);
        data_at += t.len;
      }
    }
    am_word tag = 0;
    if (kind == vector_kind::get) {
      batch->ctr = &ctr;
      batch->common_len = e.common_len;
      tag = word(batch.release());
      ctr.add_local(1);
    } else if (kind == vector_kind::put) {
      tag = word(&ctr);
      ctr.add_local(1);
    } else {
      tag = &ctr == library_store_counter(c) ? 0 : word(&ctr);
    }
    const am_word a[4] = {tag, n, e.common_len, e.first};
    request(c, am_kind::medium_msg, p, h, a, 4, buf.data(), buf.size());
    ++messages;
  }
  return messages;
}

}  // namespace

void register_vector_transfer_handlers(context& c) {
  auto set = [&](builtin b, handler_fn f) { c.handlers[static_cast<std::size_t>(b)] = f; };
  set(builtin::vector_get, on_vector_get);
  set(builtin::vector_get_reply, on_vector_get_reply);
  set(builtin::vector_put, on_vector_put);
  set(builtin::vector_store, on_vector_store);
}

namespace {

/// Moves the n pairs at(0) .. at(n - 1) (vector_transfer's work, for a list of pairs or one
/// made on the fly from an element list).
template <class At>
std::size_t transfer_each(context& c, vector_kind kind, std::size_t n, At at, counter& ctr,
                          counter* sent, const char* op) {
  if (n >= std::numeric_limits<std::uint32_t>::max()) [[unlikely]]
    fail("{}: {} pieces in one transfer is more than {} takes", op, n,
         std::numeric_limits<std::uint32_t>::max() - 1);
  // Pass 1: pieces this processor reaches by loads and stores are copied now (an element
  // list's common case: a fixed-size copy, no call); long ones and stores to a mapped target
  // take their bulk path; the rest are kept, counted by owner.
  std::vector<owner_pieces> owners;
  std::vector<std::uint32_t> rest;  // the kept pieces' numbers (at() makes them again)
  const proc_t me = c.myproc;
  const auto procs = static_cast<unsigned>(c.procs);
  void* mapped[block];
  for (std::size_t k0 = 0; k0 < n; k0 += block) {
    const std::size_t m = std::min(block, n - k0);
    for (std::size_t i = 0; i < m; ++i) {
      const transfer_pair t = at(k0 + i);
      mapped[i] = nullptr;
      if (static_cast<unsigned>(t.proc) >= procs) [[unlikely]] bad_processor(c, t.proc, op);
      if (t.len > max_bulk_length) [[unlikely]] bad_length(c, t.len, op);
      if (t.len == 0) continue;
      if (t.remote == nullptr) [[unlikely]] null_target(c, t.proc, op);
      if (t.local == nullptr) [[unlikely]]
        fail("{}: a local piece of {} bytes at a null pointer", op, t.len);
      mapped[i] = t.proc == me ? t.remote : direct(c, t.proc, t.remote, t.len);
      if (kind == vector_kind::get && mapped[i] != nullptr) __builtin_prefetch(mapped[i]);
    }
    for (std::size_t i = 0; i < m; ++i) {
      const transfer_pair t = at(k0 + i);  // again: cheaper than keeping it
      if (t.len == 0) continue;
      if (mapped[i] != nullptr && kind != vector_kind::store) {
        if (kind == vector_kind::get) copy_piece(t.local, mapped[i], t.len);
        else copy_piece(mapped[i], t.local, t.len);
        continue;
      }
      if (mapped[i] != nullptr || t.len >= alone_bytes) {
        switch (kind) {
          case vector_kind::get: get_bytes(c, t.local, t.proc, t.remote, t.len, ctr, op); break;
          case vector_kind::put: put_bytes(c, t.proc, t.remote, t.local, t.len, ctr, op); break;
          case vector_kind::store: store_bytes(c, t.proc, t.remote, t.local, t.len, ctr, *sent, op); break;
        }
        continue;
      }
      if (owners.empty()) owners.resize(static_cast<std::size_t>(c.procs));
      owners[static_cast<std::size_t>(t.proc)].add(t);
      rest.push_back(static_cast<std::uint32_t>(k0 + i));
      if (kind == vector_kind::store) sent->add_local(static_cast<std::int64_t>(t.len));
    }
  }
  if (rest.empty()) return 0;
  // Pass 2: the short remote pieces grouped by owner, in the order given -- already so when
  // they all have one owner (a gather's common case on two processors).
  std::size_t messages = 0;
  proc_t only = -1;
  for (proc_t q = 0; q < c.procs; ++q) {
    if (owners[static_cast<std::size_t>(q)].count == 0) continue;
    if (only >= 0) {
      only = -2;
      break;
    }
    only = q;
  }
  if (only >= 0)
    return send_batches(c, kind, only, at, rest, owners[static_cast<std::size_t>(only)].chosen(),
                        ctr);
  std::vector<std::uint32_t> begin(owners.size() + 1, 0);
  for (std::size_t q = 0; q < owners.size(); ++q) begin[q + 1] = begin[q] + owners[q].count;
  std::vector<std::uint32_t> order(rest.size());
  std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
  for (std::uint32_t k : rest) order[fill[static_cast<std::size_t>(at(k).proc)]++] = k;
  const std::span<const std::uint32_t> all(order);
  for (proc_t q = 0; q < c.procs; ++q) {
    const owner_pieces& o = owners[static_cast<std::size_t>(q)];
    if (o.count != 0)
      messages += send_batches(c, kind, q, at, all.subspan(begin[static_cast<std::size_t>(q)], o.count),
                               o.chosen(), ctr);
  }
  return messages;
}

}  // namespace

std::size_t vector_transfer(context& c, vector_kind kind, std::span<const transfer_pair> pairs,
                            counter& ctr, counter* sent, const char* op) {
  return transfer_each(
      c, kind, pairs.size(), [&](std::size_t k) { return pairs[k]; }, ctr, sent, op);
}

std::size_t pieces_transfer(context& c, vector_kind kind, std::span<const global_piece> remote,
                     std::span<const local_piece> local, counter& ctr, counter* sent,
                     const char* op) {
  // Lists cut alike (an element list as pieces, DOLIB's): each global piece with its local
  // one, every check made as transfer_each meets it (equal pieces hold equal bytes).
  bool aligned = remote.size() == local.size();
  for (std::size_t k = 0; aligned && k < remote.size(); ++k) aligned = remote[k].len == local[k].len;
  if (aligned)
    return transfer_each(
        c, kind, remote.size(),
        [&](std::size_t k) {
          return transfer_pair{remote[k].ptr.proc(), remote[k].ptr.address(), local[k].ptr,
                               remote[k].len};
        },
        ctr, sent, op);
  std::size_t remote_bytes = 0, local_bytes = 0;
  for (const global_piece& g : remote) {
    if (g.len > max_bulk_length) bad_length(c, g.len, op);
    remote_bytes += g.len;
  }
  for (const local_piece& l : local) {
    if (l.len > max_bulk_length) bad_length(c, l.len, op);
    if (l.ptr == nullptr && l.len != 0) fail("{}: a local piece of {} bytes at a null pointer", op, l.len);
    local_bytes += l.len;
  }
  if (remote_bytes != local_bytes)
    fail("{}: the global pieces hold {} bytes and the local ones {}; the two lists must hold "
         "the same bytes", op, remote_bytes, local_bytes);
  std::vector<transfer_pair> pairs;
  pairs.reserve(remote.size());
  std::size_t li = 0, lused = 0;  // the local piece being filled, and how far
  for (const global_piece& g : remote) {
    if (g.len == 0) {
      // Checked like any other piece (its processor), moving nothing.
      pairs.push_back({g.ptr.proc(), g.ptr.address(), nullptr, 0});
      continue;
    }
    std::size_t done = 0;
    while (done < g.len) {
      while (local[li].len == lused) {
        ++li;
        lused = 0;
      }
      const std::size_t n = std::min(g.len - done, local[li].len - lused);
      pairs.push_back({g.ptr.proc(), static_cast<char*>(g.ptr.address()) + done,
                       static_cast<char*>(local[li].ptr) + lused, n});
      done += n;
      lused += n;
    }
  }
  return vector_transfer(c, kind, pairs, ctr, sent, op);
}

std::size_t elements_transfer(context& c, vector_kind kind,
                              std::span<const global_ptr<void>> remote, void* local,
                              std::size_t elem_size, counter& ctr, counter* sent,
                              const char* op) {
  if (!remote.empty() && local == nullptr) fail("{}: the local elements are at a null pointer", op);
  auto* base = static_cast<char*>(local);
  return transfer_each(
      c, kind, remote.size(),
      [&](std::size_t k) {
        return transfer_pair{remote[k].proc(), remote[k].address(), base + k * elem_size, elem_size};
      },
      ctr, sent, op);
}

std::size_t positioned_transfer(context& c, vector_kind kind,
                                std::span<const positioned_element> remote, void* local,
                                std::size_t elem_size, counter& ctr, counter* sent,
                                const char* op) {
  if (!remote.empty() && local == nullptr) fail("{}: the local elements are at a null pointer", op);
  auto* base = static_cast<char*>(local);
  return transfer_each(
      c, kind, remote.size(),
      [&](std::size_t k) {
        const positioned_element& e = remote[k];
        return transfer_pair{e.proc, e.remote, base + std::size_t{e.position} * elem_size, elem_size};
      },
      ctr, sent, op);
}

}  // namespace splitc::detail
