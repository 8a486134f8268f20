// The page cache of the seed's section 4.1: one pool of do_setchsize pages shared by every
// array with caching enabled, filled with whole remote pages on a miss (one bulk get per
// page), replacement by CLOCK (second chance: a hit sets the page's reference bit; the hand
// clears set bits and evicts the first page whose bit is clear). Local pages are never
// cached: they are read in place.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <fmt/format.h>
#include <sys/mman.h>

namespace dolib {
namespace {

void evict(state& s, cache_slot& slot) {
  if (slot.array == 0) return;
  auto& owner = s.arrays[static_cast<std::size_t>(slot.array - 1)];
  if (owner && owner->caching) {
    const auto p = static_cast<std::size_t>(slot.page);
    owner->slot_of_page[p] = -1;
    owner->page_data[p] = nullptr;
    owner->page_ref[p] = 0;
  }
  slot.array = 0;
  ++s.st.evictions;
}

// The CLOCK victim among the slots not pinned by this gather (one exists: the caller fetches
// fewer pages per round than there are slots).
std::size_t victim(state& s) {
  const std::size_t n = s.slots.size();
  for (;;) {
    cache_slot& slot = s.slots[s.clock_hand];
    const std::size_t at = s.clock_hand;
    s.clock_hand = (s.clock_hand + 1) % n;
    if (slot.pinned) continue;
    if (slot.array == 0) return at;
    unsigned char& ref =
        s.arrays[static_cast<std::size_t>(slot.array - 1)]->page_ref[static_cast<std::size_t>(slot.page)];
    if (ref != 0) {
      ref = 0;
      continue;
    }
    evict(s, slot);
    return at;
  }
}

void drop_slab(state& s) {
  for (auto& slot : s.slots) evict(s, slot);
  s.slots.clear();
  if (s.slab != nullptr) munmap(s.slab, s.slab_bytes);
  s.slab = nullptr;
  s.slab_bytes = 0;
  s.clock_hand = 0;
}

// The slab can hold cache_pages pages of page_bytes (re-made, and so purged, when a larger
// page size comes).
void ensure_slab(state& s, std::size_t page_bytes) {
  if (s.slab != nullptr && page_bytes <= s.slot_bytes) return;
  drop_slab(s);
  s.slot_bytes = std::max(s.slot_bytes, (page_bytes + 63) / 64 * 64);
  s.slab_bytes = s.slot_bytes * static_cast<std::size_t>(s.cache_pages);
  void* m = mmap(nullptr, s.slab_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED)
    splitc::fatal_error(fmt::format("do_gather: cannot map a page cache of {} pages of {} bytes",
                                    s.cache_pages, s.slot_bytes));
  madvise(m, s.slab_bytes, MADV_HUGEPAGE);
  s.slab = static_cast<char*>(m);
  s.slots.assign(static_cast<std::size_t>(s.cache_pages), cache_slot{});
  for (std::size_t k = 0; k < s.slots.size(); ++k) s.slots[k].data = s.slab + k * s.slot_bytes;
}

// How far ahead serve_present looks up an item to prefetch its source: enough to cover a
// memory latency with the few instructions each item takes (on this project's machine 8 to 64
// items ahead all do about equally).
constexpr int prefetch_ahead = 16;

// Copies the items whose page is here (local or cached) into buf, E bytes each (a constant:
// the copies are plain loads and stores); stores the positions of the others in `missing`
// (n entries available) and returns how many. One pass: a table lookup per item (the table
// is small and stays in the processor's caches), the copy, and a prefetch of the source of
// the item prefetch_ahead further on, so that many cache misses are in flight at once. ListT
// is the list's index type, or void for the contiguous form; Shift says pagesize is a power
// of two. Everything the loop reads is in locals: stores into buf cannot change them.
template <std::size_t E, class ListT, bool Shift>
int serve_present(const array& a, int n, const int* list, int start, char* __restrict buf,
                  unsigned char* __restrict refs, int* __restrict missing, long long& remote) {
  // Addresses as integers: a cached page and this processor's share are different
  // objects, and only integers may be compared across them.
  const std::uintptr_t local = reinterpret_cast<std::uintptr_t>(a.local);
  const std::uintptr_t local_bytes = a.local_bytes;
  const std::int64_t ps = a.pagesize;
  const int shift = a.page_shift;
  const char* const* __restrict pages = a.page_data.data();
  auto index = [&](int k) -> std::int64_t {
    if constexpr (std::is_void_v<ListT>) return static_cast<std::int64_t>(start) + k;
    else return list[k];
  };
  auto page_of = [&](std::int64_t i) -> std::int64_t {
    if constexpr (Shift) return i >> shift;
    else return i / ps;
  };
  int nmissing = 0;
  long long far = 0;
  for (int k = 0; k < n; ++k) {
    if (k + prefetch_ahead < n) {
      const std::int64_t j = index(k + prefetch_ahead);
      const std::int64_t q = page_of(j);
      if (const char* page = pages[q]) __builtin_prefetch(page + static_cast<std::size_t>(j - q * ps) * E);
    }
    const std::int64_t i = index(k);
    const std::int64_t p = page_of(i);
    const char* page = pages[p];
    if (page != nullptr) [[likely]] {
      std::memcpy(buf + static_cast<std::size_t>(k) * E, page + static_cast<std::size_t>(i - p * ps) * E, E);
      // The reference bit of a local page is never read (local pages have no slot).
      refs[p] = 1;
      far += reinterpret_cast<std::uintptr_t>(page) - local >= local_bytes;
    } else {
      missing[nmissing++] = k;
    }
  }
  remote = far;
  return nmissing;
}

template <std::size_t E>
int serve_present_any(const array& a, int n, const int* list, int start, char* buf,
                      unsigned char* refs, int* missing, long long& remote) {
  if (list != nullptr) {
    return a.page_shift >= 0 ? serve_present<E, int, true>(a, n, list, start, buf, refs, missing, remote)
                             : serve_present<E, int, false>(a, n, list, start, buf, refs, missing, remote);
  }
  return a.page_shift >= 0 ? serve_present<E, void, true>(a, n, list, start, buf, refs, missing, remote)
                           : serve_present<E, void, false>(a, n, list, start, buf, refs, missing, remote);
}

}  // namespace

void cache_enable(state& s, array& a) {
  if (a.caching) return;
  a.caching = true;
  const auto np = static_cast<std::size_t>(a.npages);
  a.slot_of_page.assign(np, -1);
  a.page_ref.assign(np, 0);
  a.page_data.assign(np, nullptr);
  // Local pages are read in place (never cached).
  for (std::size_t p = 0; p < np; ++p) {
    const place w = a.locate(static_cast<std::int64_t>(p) * a.pagesize, s.procs);
    if (w.owner == s.me) a.page_data[p] = a.local + static_cast<std::size_t>(w.offset) * a.esize;
  }
  a.page_shift = -1;
  for (int b = 0; b < 62; ++b)
    if ((std::int64_t{1} << b) == a.pagesize) a.page_shift = b;
}

void cache_purge_array(state& s, array& a) {
  for (auto& slot : s.slots)
    if (slot.array == a.id) evict(s, slot);
  a.caching = false;
  a.slot_of_page = {};
  a.page_data = {};
  a.page_ref = {};
}

int cache_resize(state& s, int npages) {
  if (npages < 0)
    splitc::fatal_error(fmt::format("do_setchsize: {} is not a cache size (pages, >= 0)", npages));
  const int old = s.cache_pages;
  if (npages != old) drop_slab(s);  // a new size starts with an empty cache
  s.cache_pages = npages;
  return old;
}

void cache_gather(state& s, const call_info&, array& a, int n, const int* list, int start,
                  char* buf) {
  const std::size_t e = a.esize;
  ensure_slab(s, static_cast<std::size_t>(a.pagesize) * e);
  const std::int64_t ps = a.pagesize;
  auto index = [&](int k) -> std::int64_t {
    return list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
  };
  // Pass 1: items on local or cached pages now (a table lookup and a copy); misses later.
  // (s.missing only grows: a repeated gather does not clear it again.)
  if (s.missing.size() < static_cast<std::size_t>(n)) s.missing.resize(static_cast<std::size_t>(n));
  long long remote_hits = 0;
  unsigned char* refs = a.page_ref.data();
  int* missing = s.missing.data();
  int nmissing = 0;
  if (e == 8) nmissing = serve_present_any<8>(a, n, list, start, buf, refs, missing, remote_hits);
  else if (e == 4) nmissing = serve_present_any<4>(a, n, list, start, buf, refs, missing, remote_hits);
  else nmissing = serve_present_any<1>(a, n, list, start, buf, refs, missing, remote_hits);
  std::vector<int> todo(missing, missing + nmissing);
  s.st.hits += remote_hits;
  // Rounds of at most cache_pages distinct missing pages: fetch them (bulk gets in flight
  // together), then serve the items that needed them.
  const std::size_t capacity = s.slots.size();
  std::vector<int> after, next, fetched;
  while (!todo.empty()) {
    splitc::counter ctr;
    after.clear();
    next.clear();
    fetched.clear();
    for (int k : todo) {
      const std::int64_t i = index(k);
      const std::int64_t page = a.page_of(i);
      int& slot = a.slot_of_page[static_cast<std::size_t>(page)];
      if (slot >= 0 && !s.slots[static_cast<std::size_t>(slot)].pinned) {
        cache_slot& c = s.slots[static_cast<std::size_t>(slot)];
        a.page_ref[static_cast<std::size_t>(page)] = 1;
        std::memcpy(buf + static_cast<std::size_t>(k) * e,
                    c.data + static_cast<std::size_t>(i % ps) * e, e);
        ++s.st.hits;
      } else if (slot >= 0) {
        after.push_back(k);
      } else if (fetched.size() < capacity) {
        const std::size_t v = victim(s);
        cache_slot& c = s.slots[v];
        const std::int64_t first = page * ps;
        const std::int64_t items = std::min(ps, a.gsize - first);
        c.array = a.id;
        c.page = page;
        c.pinned = true;
        a.page_ref[static_cast<std::size_t>(page)] = 0;
        slot = static_cast<int>(v);
        fetched.push_back(static_cast<int>(v));
        const place w = a.locate(first, s.procs);
        ++s.st.misses;
        ++s.st.messages;
        s.st.items += items;
        splitc::bulk_get(c.data,
                         splitc::global_ptr<void>(w.owner, a.local + static_cast<std::size_t>(w.offset) * e),
                         static_cast<std::size_t>(items) * e, ctr);
        after.push_back(k);
      } else {
        next.push_back(k);
      }
    }
    splitc::sync(ctr);
    for (int v : fetched) {
      cache_slot& c = s.slots[static_cast<std::size_t>(v)];
      c.pinned = false;
      a.page_data[static_cast<std::size_t>(c.page)] = c.data;
    }
    for (int k : after) {
      const std::int64_t i = index(k);
      const cache_slot& c =
          s.slots[static_cast<std::size_t>(a.slot_of_page[static_cast<std::size_t>(a.page_of(i))])];
      std::memcpy(buf + static_cast<std::size_t>(k) * e,
                  c.data + static_cast<std::size_t>(i % ps) * e, e);
    }
    todo.swap(next);
  }
}

}  // namespace dolib
