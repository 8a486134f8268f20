// DOLIB's state, the arrays' declaration and destruction, descriptor lookup and the wording
// of DOLIB's errors.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace dolib {
namespace {
// The one per-process DOLIB state (the layer's, not the core's): handlers are plain
// functions and reach it here.
std::unique_ptr<state> g_state;
}  // namespace

const char* elem_name(elem e) noexcept {
  switch (e) {
    case elem::int32: return "int";
    case elem::float64: return "double";
    case elem::byte: return "char";
  }
  return "?";
}
std::size_t elem_size(elem e) noexcept {
  switch (e) {
    case elem::int32: return 4;
    case elem::float64: return 8;
    case elem::byte: return 1;
  }
  return 1;
}

state& state_for(std::string_view call) {
  if (!g_state) splitc::fatal_error(fmt::format("{} called before do_init", call));
  return *g_state;
}
state& state_of() noexcept { return *g_state; }

void create_state() {
  if (g_state) splitc::fatal_error("do_init called twice");
  g_state = std::make_unique<state>();
}

array& array_for(state& s, std::string_view call, int iaf) {
  if (iaf < 1 || iaf > static_cast<int>(s.arrays.size()))
    splitc::fatal_error(fmt::format("{}: {} is not a DOLIB array descriptor (none was declared "
                                    "with that number)", call, iaf));
  auto& a = s.arrays[static_cast<std::size_t>(iaf - 1)];
  if (!a)
    splitc::fatal_error(fmt::format("{}: array descriptor {} (\"{}\") was destroyed", call, iaf,
                                    s.names[static_cast<std::size_t>(iaf - 1)]));
  return *a;
}

void index_error(const call_info& c, const array& a, std::int64_t index) {
  splitc::fatal_error(fmt::format(
      "{}: index {} is outside array \"{}\" (gsize {}: {} indices {}..{})", c.name,
      index + c.base, a.name, a.gsize, c.base == 0 ? "C" : "Fortran", c.base,
      a.gsize - 1 + c.base));
}
void count_error(const call_info& c, const array& a, std::int64_t nsize) {
  splitc::fatal_error(fmt::format("{}: nsize {} on array \"{}\" is negative", c.name, nsize,
                                  a.name));
}
void type_error(const call_info& c, const array& a, elem wanted) {
  splitc::fatal_error(fmt::format("{}: array \"{}\" holds {}; {} works on {} arrays", c.name,
                                  a.name, elem_name(a.type), c.name, elem_name(wanted)));
}

void check_indices(const call_info& c, const array& a, int n, const int* list, int start) {
  if (n < 0) count_error(c, a, n);
  if (list == nullptr) {
    if (n == 0) return;
    if (start < 0) index_error(c, a, start);
    if (static_cast<std::int64_t>(start) + n > a.gsize)
      index_error(c, a, std::max<std::int64_t>(start, a.gsize));
    return;
  }
  const auto g = static_cast<std::uint64_t>(a.gsize);
  for (int k = 0; k < n; ++k)
    if (static_cast<std::uint64_t>(static_cast<std::int64_t>(list[k])) >= g)
      index_error(c, a, list[k]);
}

namespace {

elem parse_type(std::string_view call, std::string_view name, std::string_view ctype) {
  std::string t;
  for (char ch : ctype) t.push_back(static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch));
  // Fortran blanks after the name are not part of it.
  while (!t.empty() && t.back() == ' ') t.pop_back();
  if (t == "int" || t == "integer") return elem::int32;
  if (t == "double" || t == "real*8" || t == "double precision") return elem::float64;
  if (t == "char" || t == "character") return elem::byte;
  splitc::fatal_error(fmt::format(
      "{}: unknown type \"{}\" for array \"{}\" (use int/integer, double/real*8/double "
      "precision or char/character)", call, ctype, name));
}

}  // namespace

int declare(std::string_view call, std::string_view name, std::int64_t gsize,
            std::string_view ctype, std::int64_t pagesize, std::int64_t blocksize) {
  state& s = state_for(call);
  splitc::poll();
  const elem type = parse_type(call, name, ctype);
  if (gsize < 0 || pagesize < 1 || blocksize < 1 || pagesize * blocksize > (1LL << 30))
    splitc::fatal_error(fmt::format("{}: array \"{}\": impossible gsize {}, pagesize {} or "
                                    "blocksize {} (gsize >= 0, pagesize and blocksize >= 1)",
                                    call, name, gsize, pagesize, blocksize));
  auto a = std::make_unique<array>();
  a->id = static_cast<int>(s.arrays.size()) + 1;
  a->name = std::string(name);
  a->type = type;
  a->esize = elem_size(type);
  a->gsize = gsize;
  a->pagesize = pagesize;
  a->blocksize = blocksize;
  a->block_items = pagesize * blocksize;
  a->npages = (gsize + pagesize - 1) / pagesize;
  const std::int64_t nblocks = (gsize + a->block_items - 1) / a->block_items;
  const std::int64_t my_blocks = (nblocks + s.procs - 1) / s.procs;
  const std::int64_t items = my_blocks * a->block_items;
  if (items > 0xffffffffLL)
    splitc::fatal_error(fmt::format("{}: array \"{}\" puts {} items on one processor (at most "
                                    "2^32)", call, name, items));
  const auto bytes = std::max<std::size_t>(64, static_cast<std::size_t>(items) * a->esize);
  a->storage = splitc::all_spread_malloc(static_cast<std::size_t>(s.procs), bytes);
  if (!a->storage)
    splitc::fatal_error(fmt::format("{}: no room in the spread heap for array \"{}\" ({} bytes "
                                    "per processor; raise SPLITC_SEGMENT_SIZE)", call, name,
                                    bytes));
  a->local = static_cast<char*>(a->storage.local());
  a->local_bytes = static_cast<std::size_t>(items) * a->esize;
  s.arrays.push_back(std::move(a));
  s.names.emplace_back(name);
  // The seed's implicit global synchronization: no processor sends to the array before
  // every processor knows it (all_spread_malloc alone does not wait for everyone).
  splitc::barrier();
  return static_cast<int>(s.arrays.size());
}

void destroy(std::string_view call, int iaf) {
  state& s = state_for(call);
  array& a = array_for(s, call, iaf);
  // Everything in flight completes first (section 4.3), then the storage goes.
  wait_all_requests(s);
  wait_for("do_destroy", [&] { return s.updates_pending == 0; });
  splitc::sync(s.scatters);
  splitc::barrier();
  cache_purge_array(s, a);
  splitc::all_spread_free(a.storage);
  s.arrays[static_cast<std::size_t>(iaf - 1)].reset();
}

}  // namespace dolib
