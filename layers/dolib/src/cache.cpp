// The page cache of the seed's section 4.1: one pool of do_setchsize pages shared by every
// array with caching enabled, filled with whole remote pages on a miss (one bulk get per
// page), replacement by CLOCK (second chance: a hit sets the page's reference bit; the hand
// clears set bits and evicts the first page whose bit is clear). Local pages are never
// cached: they are read in place.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstring>
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

// Copies the items whose page is here (local or cached) into buf, E bytes each (a constant:
// the copies are plain loads and stores, so the processor overlaps their cache misses);
// appends the others' positions to todo. Returns the items served from cached pages.
template <std::size_t E>
long long serve_present(array& a, int n, const int* list, int start, char* __restrict buf,
                        std::vector<int>& todo, std::vector<const char*>& src) {
  // Everything the loops read, in locals: stores into buf cannot change them.
  long long remote = 0;
  const char* const local = a.local;
  const char* const local_end = a.local + a.local_bytes;
  const std::int64_t ps = a.pagesize;
  const int shift = a.page_shift;
  const char* const* __restrict pages = a.page_data.data();
  unsigned char* __restrict refs = a.page_ref.data();
  // First the source of each item (table lookups only: the table is small and stays in the
  // processor's caches), then the copies in a loop of a few instructions, so that many of
  // their cache misses are in flight at once.
  src.resize(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
    const std::int64_t p = shift >= 0 ? i >> shift : i / ps;
    const char* page = pages[p];
    if (page != nullptr) [[likely]] {
      src[static_cast<std::size_t>(k)] = page + static_cast<std::size_t>(i - p * ps) * E;
      if (page < local || page >= local_end) {
        ++remote;
        refs[p] = 1;
      }
    } else {
      src[static_cast<std::size_t>(k)] = nullptr;
      todo.push_back(k);
    }
  }
  const char* const* __restrict from = src.data();
  if (todo.empty()) {
    for (int k = 0; k < n; ++k) std::memcpy(buf + static_cast<std::size_t>(k) * E, from[k], E);
  } else {
    for (int k = 0; k < n; ++k)
      if (from[k] != nullptr) std::memcpy(buf + static_cast<std::size_t>(k) * E, from[k], E);
  }
  return remote;
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
  std::vector<int> todo;
  long long remote_hits = 0;
  std::vector<const char*>& src = s.sources;
  if (e == 8) remote_hits = serve_present<8>(a, n, list, start, buf, todo, src);
  else if (e == 4) remote_hits = serve_present<4>(a, n, list, start, buf, todo, src);
  else remote_hits = serve_present<1>(a, n, list, start, buf, todo, src);
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
