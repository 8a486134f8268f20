// DOLIB's per-process state: the arrays (their layout over the processors), the requests in
// flight, the page cache and the handler ids. One object per process, created by do_init;
// handlers reach it through dolib::state_of() (handlers are plain functions).
#pragma once

#include <splitc/detail/compose.hpp>
#include <splitc/detail/positioned_transfer.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/splitc.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dolib {

/// The largest medium message DOLIB sends: the backend's own, or, on a layer
/// without medium messages (the CM-5's), what the core composes.
inline constexpr std::size_t medium_bytes = splitc::active_backend::caps.max_medium != 0
                                                ? splitc::active_backend::caps.max_medium
                                                : splitc::detail::medium_limit;

enum class elem : int { int32 = 0, float64 = 1, byte = 2 };

const char* elem_name(elem e) noexcept;
std::size_t elem_size(elem e) noexcept;

/// Where global index i lives: processor `owner`, element `offset` of its local storage.
struct place {
  int owner;
  std::uint32_t offset;
};

/// An item of this processor in a list call, filed by the call's first pass (file_items) for
/// a loop of its own: where it lives in the local part of the array and its place in the
/// caller's buffer, both in items.
struct own_item {
  std::uint32_t offset;
  std::uint32_t position;
};

/// One global array: gsize items, pages of pagesize, blocks of blocksize pages; block b on
/// processor b mod P at local block b div P (the seed's wrap mapping, section 4).
struct array {
  int id = 0;
  std::string name;
  elem type = elem::float64;
  std::int64_t gsize = 0, pagesize = 1, blocksize = 1, block_items = 1, npages = 0;
  std::size_t esize = 8;
  splitc::spread_ptr<void> storage;  // one object per processor, same local address everywhere
  char* local = nullptr;             // this processor's part
  std::size_t local_bytes = 0;
  bool caching = false;
  std::vector<int> slot_of_page;  // page -> cache slot, or -1 (only while caching)
  // While caching: page -> its data here (a local page in place, or its cache slot), or null;
  // and the CLOCK reference bit of each cached page.
  std::vector<const char*> page_data;
  std::vector<unsigned char> page_ref;
  int page_shift = -1;  // log2(pagesize) when it is a power of two

  std::int64_t page_of(std::int64_t i) const noexcept {
    return page_shift >= 0 ? i >> page_shift : i / pagesize;
  }

  place locate(std::int64_t i, int procs) const noexcept {
    const std::int64_t b = i / block_items;
    return {static_cast<int>(b % procs),
            static_cast<std::uint32_t>((b / procs) * block_items + i % block_items)};
  }
};

/// A gather in flight: its gets (list or contiguous) complete on ctr.
struct request {
  char* buf = nullptr;
  std::size_t esize = 0;
  std::unique_ptr<splitc::counter> ctr;
  bool done() const noexcept { return !ctr || ctr->value() == 0; }
};

/// A cached remote page.
struct cache_slot {
  int array = 0;  // 0: free
  std::int64_t page = 0;
  bool pinned = false;  // being fetched by the current gather: not a victim
  char* data = nullptr;  // its place in the slab
};

struct stats {
  long long messages = 0, items = 0, hits = 0, misses = 0, evictions = 0;
};

struct state {
  int me = 0, procs = 1;
  std::vector<std::unique_ptr<array>> arrays;  // descriptor d at d - 1; null once destroyed
  std::vector<std::string> names;              // kept after destroy, for messages
  std::unordered_map<int, request> requests;
  int next_request = 1;
  long long updates_pending = 0;  // axpby messages not yet acknowledged
  splitc::counter scatters;       // scatters' puts not yet complete
  // The page cache (section 4.1): one pool for every array, CLOCK replacement.
  std::vector<cache_slot> slots;
  int cache_pages = 128;
  std::size_t clock_hand = 0;
  // The slots' memory: one mapping of cache_pages slots of slot_bytes (the largest page of the
  // arrays cached so far), transparent huge pages advised (4 KiB pages cost a TLB miss per
  // random access).
  char* slab = nullptr;
  std::size_t slab_bytes = 0, slot_bytes = 0;
  stats st;
  std::vector<int> missing;   // a cached gather's items not on a present page
  splitc::handler_id h_update{}, h_ack{};
};

/// Waits, polling and backing off from spinning to sleeping as splitc's own waits do (more
/// processes than cores must work), until done() holds.
template <class Done>
void wait_for(const char* what, Done done) {
  splitc::detail::wait_until(splitc::detail::ctx(), what, done);
}

/// The state, or a fatal error naming `call` before do_init.
state& state_for(std::string_view call);
/// The state from inside a handler (do_init has run).
state& state_of() noexcept;
void create_state();

/// do_declare and do_destroy (arrays.cpp), with the caller's name for messages.
int declare(std::string_view call, std::string_view name, std::int64_t gsize,
            std::string_view ctype, std::int64_t pagesize, std::int64_t blocksize);
void destroy(std::string_view call, int iaf);

/// The live array with descriptor iaf, or a fatal error (unknown, destroyed).
array& array_for(state& s, std::string_view call, int iaf);

/// How a call names its indices in messages: 0 from C, 1 from Fortran.
struct call_info {
  std::string_view name;
  int base = 0;
};

/// Fatal errors with DOLIB's wording: "<call>: <cause>".
[[noreturn]] void index_error(const call_info& c, const array& a, std::int64_t index);
[[noreturn]] void count_error(const call_info& c, const array& a, std::int64_t nsize);
[[noreturn]] void type_error(const call_info& c, const array& a, elem wanted);

/// What every call of the C and Fortran interfaces does first: the state (fatal before
/// do_init), then one poll, so that a processor that only calls DOLIB serves the others.
inline state& enter(const char* call) {
  state& s = state_for(call);
  splitc::poll();
  return s;
}
/// The live array with descriptor iaf, which must hold elements of type `want`.
inline array& typed(state& s, const call_info& c, int iaf, elem want) {
  array& a = array_for(s, c.name, iaf);
  if (a.type != want) type_error(c, a, want);
  return a;
}

// Operations (gather.cpp, update.cpp, cache.cpp), with 0-based indices. `list` is null for
// the contiguous forms (start .. start + n - 1).
void gather_sync(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf);
int gather_async(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf);
bool request_test(state& s, std::string_view call, int id);
void request_wait(state& s, std::string_view call, int id);
void wait_all_requests(state& s);
/// How many items file_items filed as other processors' and as the caller's own.
struct filed_items {
  std::size_t others = 0;
  std::size_t own = 0;
};
/// A list call's first pass (list_filing.cpp): item k (list[k], or start + k without a
/// list) filed, without a branch on its owner, into others (the owner's address, the owner,
/// position k) or own; each array has room for n.
filed_items file_items(const state& s, const array& a, int n, const int* list, int start,
                       splitc::detail::positioned_element* others, own_item* own);

enum class update_kind : int { scatter = 0, axpby = 1 };
void update(state& s, const call_info& c, array& a, update_kind k, int n, const int* list,
            int start, const void* values, double alpha, double beta);
void register_handlers(state& s);
splitc::handler_id register_update_handler();

// The page cache (cache.cpp).
void cache_enable(state& s, array& a);
void cache_purge_array(state& s, array& a);
int cache_resize(state& s, int npages);
/// Gather through the cache: remote items come from cached pages (fetched whole on a miss).
void cache_gather(state& s, const call_info& c, array& a, int n, const int* list, int start,
                  char* buf);

/// Checks every index of a list (or range) against gsize; fatal on the first bad one.
void check_indices(const call_info& c, const array& a, int n, const int* list, int start);

}  // namespace dolib
