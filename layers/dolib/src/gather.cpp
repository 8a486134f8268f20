// Gathers: the caller's own items are copied directly; the others are bucketed by owner and
// asked for in one medium request per owner (per chunk of at most chunk_gather items), whose
// handler at the owner packs the values into one reply. Contiguous gathers use bulk gets,
// one per block run. Requests in flight are completed by replies inside splitc's polls.
#include "state.hpp"

#include <splitc/errors.hpp>

#include <cstring>
#include <fmt/format.h>

namespace dolib {
namespace {

constexpr int sync_request = 0;  // the id of synchronous gathers (never handed out)

template <std::size_t E>
inline void copy_item(char* dst, const char* src) noexcept {
  std::memcpy(dst, src, E);
}

template <std::size_t E>
void pack(char* out, const char* base, const std::uint32_t* offsets, std::size_t n) noexcept {
  for (std::size_t k = 0; k < n; ++k) copy_item<E>(out + k * E, base + offsets[k] * E);
}
void pack_any(std::size_t e, char* out, const char* base, const std::uint32_t* offsets,
              std::size_t n) noexcept {
  if (e == 8) pack<8>(out, base, offsets, n);
  else if (e == 4) pack<4>(out, base, offsets, n);
  else pack<1>(out, base, offsets, n);
}
template <std::size_t E>
void unpack(char* buf, const char* values, const int* positions, std::size_t n) noexcept {
  for (std::size_t k = 0; k < n; ++k)
    copy_item<E>(buf + static_cast<std::size_t>(positions[k]) * E, values + k * E);
}

// At the owner: words (array, request, chunk, count), payload: local offsets.
void on_gather(const splitc::am_message& m) {
  state& s = state_of();
  const array& a = *s.arrays[static_cast<std::size_t>(m.args[0] - 1)];
  const auto n = static_cast<std::size_t>(m.args[3]);
  // The payload buffer may not be aligned for uint32: copy the offsets out if it is not.
  const std::uint32_t* offsets = static_cast<const std::uint32_t*>(m.payload);
  std::vector<std::uint32_t> aligned;
  if (reinterpret_cast<std::uintptr_t>(m.payload) % alignof(std::uint32_t) != 0) {
    aligned.resize(n);
    std::memcpy(aligned.data(), m.payload, n * sizeof(std::uint32_t));
    offsets = aligned.data();
  }
  std::vector<char>& out = s.scratch;
  out.resize(n * a.esize);
  pack_any(a.esize, out.data(), a.local, offsets, n);
  splitc::am_reply_medium(m, s.h_gather_reply, out.data(), out.size(), m.args[1], m.args[2]);
}

// At the requester: words (request, chunk), payload: the values in the chunk's order.
void on_gather_reply(const splitc::am_message& m) {
  state& s = state_of();
  request& r = s.requests.at(static_cast<int>(m.args[0]));
  const auto chunk = static_cast<std::size_t>(m.args[1]);
  const std::size_t n = m.length / r.esize;
  const int* positions = r.positions.data() + r.chunk_at[chunk];
  const char* values = static_cast<const char*>(m.payload);
  if (r.esize == 8) unpack<8>(r.buf, values, positions, n);
  else if (r.esize == 4) unpack<4>(r.buf, values, positions, n);
  else unpack<1>(r.buf, values, positions, n);
  --r.pending;
}

void on_ack(const splitc::am_message&) { --state_of().updates_pending; }

template <std::size_t E>
void copy_local(int me, const char* local, const std::vector<place>& where, char* buf) noexcept {
  for (std::size_t k = 0; k < where.size(); ++k)
    if (where[k].owner == me) copy_item<E>(buf + k * E, local + std::size_t{where[k].offset} * E);
}

// A list gather without the cache: local items now, one request per owner (per chunk).
void issue_list(state& s, array& a, int n, const int* list, char* buf, request& r, int id) {
  const int P = s.procs;
  std::vector<place> where(static_cast<std::size_t>(n));
  std::vector<std::size_t> count(static_cast<std::size_t>(P) + 1, 0);
  const std::size_t e = a.esize;
  for (int k = 0; k < n; ++k) {
    const place w = a.locate(list[k], P);
    where[static_cast<std::size_t>(k)] = w;
    ++count[static_cast<std::size_t>(w.owner) + 1];
  }
  // The local items, with constant-size copies (plain loads and stores).
  if (e == 8) copy_local<8>(s.me, a.local, where, buf);
  else if (e == 4) copy_local<4>(s.me, a.local, where, buf);
  else copy_local<1>(s.me, a.local, where, buf);
  count[static_cast<std::size_t>(s.me) + 1] = 0;
  for (int q = 0; q < P; ++q) count[static_cast<std::size_t>(q) + 1] += count[static_cast<std::size_t>(q)];
  const std::size_t remote = count[static_cast<std::size_t>(P)];
  if (remote == 0) return;
  r.positions.resize(remote);
  std::vector<std::uint32_t> offsets(remote);
  std::vector<std::size_t> fill(count.begin(), count.end() - 1);
  for (int k = 0; k < n; ++k) {
    const place w = where[static_cast<std::size_t>(k)];
    if (w.owner == s.me) continue;
    const std::size_t at = fill[static_cast<std::size_t>(w.owner)]++;
    r.positions[at] = k;
    offsets[at] = w.offset;
  }
  // Chunks, counted before any is sent (replies may come while later ones are sent).
  for (int q = 0; q < P; ++q)
    for (std::size_t from = count[static_cast<std::size_t>(q)];
         from < count[static_cast<std::size_t>(q) + 1]; from += s.chunk_gather) {
      r.chunk_at.push_back(from);
    }
  r.pending = static_cast<int>(r.chunk_at.size());
  std::size_t chunk = 0;
  for (int q = 0; q < P; ++q) {
    const std::size_t end = count[static_cast<std::size_t>(q) + 1];
    for (std::size_t from = count[static_cast<std::size_t>(q)]; from < end;
         from += s.chunk_gather, ++chunk) {
      const std::size_t len = std::min(s.chunk_gather, end - from);
      ++s.st.messages;
      s.st.items += static_cast<long long>(len);
      splitc::am_request_medium(q, s.h_gather, offsets.data() + from,
                                len * sizeof(std::uint32_t), a.id, id, chunk, len);
    }
  }
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
           void* buf, request& r, int id) {
  r.buf = static_cast<char*>(buf);
  r.esize = a.esize;
  if (n == 0) return;
  if (a.caching && s.cache_pages > 0) {
    cache_gather(s, c, a, n, list, start, r.buf);
  } else if (list != nullptr) {
    issue_list(s, a, n, list, r.buf, r, id);
  } else {
    issue_range(s, a, n, start, r.buf, r);
  }
}

void wait_request(request& r) {
  wait_for("a DOLIB gather", [&] { return r.done(); });
}

}  // namespace

void register_handlers(state& s) {
  s.h_gather = splitc::register_handler(on_gather);
  s.h_gather_reply = splitc::register_handler(on_gather_reply);
  s.h_ack = splitc::register_handler(on_ack);
  s.h_update = register_update_handler();
  s.chunk_gather = medium_bytes / 8;
}

void gather_sync(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf) {
  check_indices(c, a, n, list, start);
  request& r = s.requests[sync_request];
  r = request{};
  issue(s, c, a, n, list, start, buf, r, sync_request);
  wait_request(r);
  s.requests.erase(sync_request);
}

int gather_async(state& s, const call_info& c, array& a, int n, const int* list, int start,
                 void* buf) {
  check_indices(c, a, n, list, start);
  const int id = s.next_request++;
  request& r = s.requests[id];
  // The request's own copy of the list positions is built in issue; the caller's list is not
  // kept, so it may be reused at once.
  issue(s, c, a, n, list, start, buf, r, id);
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
