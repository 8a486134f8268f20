// The page cache of the seed's section 4.1: one pool of do_setchsize pages shared by every
// array with caching enabled, filled with whole remote pages on a miss (one bulk get per
// page), replacement by CLOCK (second chance: a hit sets the page's reference bit; the hand
// clears set bits and evicts the first page whose bit is clear). Local pages are never
// cached: they are read in place.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstring>
#include <fmt/format.h>

namespace dolib {
namespace {

void evict(state& s, cache_slot& slot) {
  if (slot.array == 0) return;
  auto& owner = s.arrays[static_cast<std::size_t>(slot.array - 1)];
  if (owner) owner->slot_of_page[static_cast<std::size_t>(slot.page)] = -1;
  slot.array = 0;
  slot.data.reset();
  slot.referenced = false;
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
    if (slot.referenced) {
      slot.referenced = false;
      continue;
    }
    evict(s, slot);
    return at;
  }
}

}  // namespace

void cache_enable(state& s, array& a) {
  (void)s;
  if (a.caching) return;
  a.caching = true;
  a.slot_of_page.assign(static_cast<std::size_t>(a.npages), -1);
}

void cache_purge_array(state& s, array& a) {
  for (auto& slot : s.slots)
    if (slot.array == a.id) evict(s, slot);
  a.caching = false;
  a.slot_of_page.clear();
  a.slot_of_page.shrink_to_fit();
}

int cache_resize(state& s, int npages) {
  if (npages < 0)
    splitc::fatal_error(fmt::format("do_setchsize: {} is not a cache size (pages, >= 0)", npages));
  const int old = s.cache_pages;
  for (std::size_t k = static_cast<std::size_t>(npages); k < s.slots.size(); ++k)
    evict(s, s.slots[k]);
  if (static_cast<std::size_t>(npages) < s.slots.size()) s.slots.resize(static_cast<std::size_t>(npages));
  s.cache_pages = npages;
  s.clock_hand = 0;
  return old;
}

void cache_gather(state& s, const call_info&, array& a, int n, const int* list, int start,
                  char* buf) {
  if (s.slots.size() != static_cast<std::size_t>(s.cache_pages))
    s.slots.resize(static_cast<std::size_t>(s.cache_pages));
  const std::size_t e = a.esize;
  const std::int64_t ps = a.pagesize;
  auto index = [&](int k) -> std::int64_t {
    return list != nullptr ? list[k] : static_cast<std::int64_t>(start) + k;
  };
  // Pass 1: local items and hits now; misses later.
  std::vector<int> todo;
  for (int k = 0; k < n; ++k) {
    const std::int64_t i = index(k);
    const place w = a.locate(i, s.procs);
    char* dst = buf + static_cast<std::size_t>(k) * e;
    if (w.owner == s.me) {
      std::memcpy(dst, a.local + static_cast<std::size_t>(w.offset) * e, e);
      continue;
    }
    const int slot = a.slot_of_page[static_cast<std::size_t>(i / ps)];
    if (slot >= 0) {
      cache_slot& c = s.slots[static_cast<std::size_t>(slot)];
      c.referenced = true;
      std::memcpy(dst, c.data.get() + static_cast<std::size_t>(i % ps) * e, e);
      ++s.st.hits;
    } else {
      todo.push_back(k);
    }
  }
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
      const std::int64_t page = i / ps;
      int& slot = a.slot_of_page[static_cast<std::size_t>(page)];
      if (slot >= 0 && !s.slots[static_cast<std::size_t>(slot)].pinned) {
        cache_slot& c = s.slots[static_cast<std::size_t>(slot)];
        c.referenced = true;
        std::memcpy(buf + static_cast<std::size_t>(k) * e,
                    c.data.get() + static_cast<std::size_t>(i % ps) * e, e);
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
        c.referenced = false;
        c.data = std::make_unique<char[]>(static_cast<std::size_t>(ps) * e);
        slot = static_cast<int>(v);
        fetched.push_back(static_cast<int>(v));
        const place w = a.locate(first, s.procs);
        ++s.st.misses;
        ++s.st.messages;
        s.st.items += items;
        splitc::bulk_get(c.data.get(),
                         splitc::global_ptr<void>(w.owner, a.local + static_cast<std::size_t>(w.offset) * e),
                         static_cast<std::size_t>(items) * e, ctr);
        after.push_back(k);
      } else {
        next.push_back(k);
      }
    }
    splitc::sync(ctr);
    for (int v : fetched) s.slots[static_cast<std::size_t>(v)].pinned = false;
    for (int k : after) {
      const std::int64_t i = index(k);
      const cache_slot& c =
          s.slots[static_cast<std::size_t>(a.slot_of_page[static_cast<std::size_t>(i / ps)])];
      std::memcpy(buf + static_cast<std::size_t>(k) * e,
                  c.data.get() + static_cast<std::size_t>(i % ps) * e, e);
    }
    todo.swap(next);
  }
}

}  // namespace dolib
