// Gathers: the caller's own items are copied directly; the others go to splitc's indexed
// transfer (splitc/indexed.hpp), which asks each remote owner in one medium request (per
// medium message of offsets) and has it pack the values into one reply, or copies from an
// owner mapped here. Contiguous gathers use bulk gets, one per block run. Requests in
// flight complete on their counter, inside splitc's polls.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstring>
#include <memory>
#include <fmt/format.h>

namespace dolib {
namespace {

constexpr int sync_request = 0;  // the id of synchronous gathers (never handed out)

template <std::size_t E>
inline void copy_item(char* dst, const char* src) noexcept {
  std::memcpy(dst, src, E);
}

void on_ack(const splitc::am_message&) { --state_of().updates_pending; }

// A list gather without the cache: the list filed (file_items), the caller's own items
// copied in a loop of their own, whose loads overlap (random gathers 1.26-1.58x as fast as
// with a branch on the owner in one loop: docs/performance.md, "Strided and indexed
// transfers"); the others handed to splitc's indexed transfer as one list of elements with
// their places in `buf` (splitc/detail/positioned_transfer.hpp: 16 bytes an item, where two
// lists of pieces took 40), which it moves with one message per remote owner (copies from
// owners mapped here).
template <std::size_t E>
void issue_list(state& s, array& a, int n, const int* list, char* buf, request& r) {
  const auto count = static_cast<std::size_t>(n);
  const auto others = std::make_unique_for_overwrite<splitc::detail::positioned_element[]>(count);
  const auto own = std::make_unique_for_overwrite<own_item[]>(count);
  const filed_items f = file_items(s, a, n, list, 0, others.get(), own.get());
  for (std::size_t j = 0; j < f.own; ++j)
    copy_item<E>(buf + std::size_t{own[j].position} * E, a.local + std::size_t{own[j].offset} * E);
  if (f.others == 0) return;
  if (!r.ctr) r.ctr = std::make_unique<splitc::counter>();
  s.st.items += static_cast<long long>(f.others);
  s.st.messages += static_cast<long long>(splitc::detail::positioned_transfer(
      splitc::detail::ctx(), splitc::detail::vector_kind::get,
      std::span<const splitc::detail::positioned_element>(others.get(), f.others), buf, E,
      *r.ctr, nullptr, "do_gather"));
}

// A contiguous gather without the cache: local runs copied, remote runs bulk gets.
void issue_range(state& s, array& a, int n, int start, char* buf, request& r) {
  const std::size_t e = a.esize;
  std::int64_t i = start;
  const std::int64_t end = static_cast<std::int64_t>(start) + n;
  while (i < end) {
    const std::int64_t run_end = std::min(end, (i / a.block_items + 1) * a.block_items);
    const place w = a.locate(i, s.procs);
    const auto len = static_cast<std::size_t>(run_end - i) * e;
    char* dst = buf + static_cast<std::size_t>(i - start) * e;
    char* src = a.local + static_cast<std::size_t>(w.offset) * e;
    if (w.owner == s.me) {
      std::memcpy(dst, src, len);
    } else {
      if (!r.ctr) r.ctr = std::make_unique<splitc::counter>();
      ++s.st.messages;
      s.st.items += run_end - i;
      splitc::bulk_get(dst, splitc::global_ptr<void>(w.owner, src), len, *r.ctr);
    }
    i = run_end;
  }
}

void issue(state& s, const call_info& c, array& a, int n, const int* list, int start,
           void* buf, request& r) {
  r.buf = static_cast<char*>(buf);
  r.esize = a.esize;
  if (n == 0) return;
  if (a.caching && s.cache_pages > 0) {
    cache_gather(s, c, a, n, list, start, r.buf);
  } else if (list != nullptr) {
    if (a.esize == 8) issue_list<8>(s, a, n, list, r.buf, r);
    else if (a.esize == 4) issue_list<4>(s, a, n, list, r.buf, r);
    else issue_list<1>(s, a, n, list, r.buf, r);
  } else {
    issue_range(s, a, n, start, r.buf, r);
  }
}

void wait_request(request& r) {
  wait_for("a DOLIB gather", [&] { return r.done(); });
}

}  // namespace

void register_handlers(state& s) {
  s.h_ack = splitc::register_handler(on_ack);
  s.h_update = register_update_handler();
}

void gather_sync(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf) {
  check_indices(c, a, n, list, start);
  request& r = s.requests[sync_request];
  r = request{};
  issue(s, c, a, n, list, start, buf, r);
  wait_request(r);
  s.requests.erase(sync_request);
}

int gather_async(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf) {
  check_indices(c, a, n, list, start);
  const int id = s.next_request++;
  request& r = s.requests[id];
  // The caller's list is read by the time issue returns (splitc copies the offsets into its
  // messages and keeps its own list of where the values go), so it may be reused at once.
  issue(s, c, a, n, list, start, buf, r);
  return id;
}

namespace {
request& live_request(state& s, std::string_view call, int id) {
  auto it = s.requests.find(id);
  if (it == s.requests.end() || id == sync_request) {
    if (id >= 1 && id < s.next_request)
      splitc::fatal_error(fmt::format("{}: request id {} was already released (its data arrived "
                                      "and do_wait or do_isavail returned); waiting on it again "
                                      "is an error", call, id));
    splitc::fatal_error(fmt::format("{}: {} is not a request id returned by an asynchronous "
                                    "gather", call, id));
  }
  return it->second;
}
}  // namespace

bool request_test(state& s, std::string_view call, int id) {
  request& r = live_request(s, call, id);
  if (!r.done()) splitc::poll();
  if (!r.done()) return false;
  s.requests.erase(id);
  return true;
}

void request_wait(state& s, std::string_view call, int id) {
  wait_request(live_request(s, call, id));
  s.requests.erase(id);
}

void wait_all_requests(state& s) {
  for (auto& [id, r] : s.requests) wait_request(r);
}

}  // namespace dolib
