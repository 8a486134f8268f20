// Global memory over active messages (seed §4.1.1, Figures 3–5): the
// built-in handlers and the senders for get, put and store of any length.
// Up to 40 bytes travel inside a short message's argument words; longer
// transfers are cut into fragments of the backend's long-message size, and
// the counter counts fragments (gets, puts) or bytes (stores).
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/runtime.hpp>

#include "am_words.hpp"

#include <algorithm>
#include <cstring>

namespace splitc::detail {
namespace {

using am_words::word;
using am_words::as;

/// Bulk transfers are cut into the layer's own long messages when it has them
/// (a layer with 4 KB packets gets 4 KB pieces, one packet each: Luna 1994
/// §4.2.2, fragmentation pushed up into the library); a layer without them
/// gets composed messages of long_limit bytes.
constexpr std::size_t fragment_bytes = splitc::am_long_piece;
/// Fragments of one get in flight at once (see get_am).
constexpr std::int64_t get_window = 4;

int data_words(std::size_t len) noexcept { return static_cast<int>((len + 7) / 8); }

/// The data of a short message (at most am_inline_bytes): the common sizes
/// (one word, one int) as fixed-size moves, not a call to memcpy.
void copy_inline(void* dst, const void* src, std::size_t len) noexcept {
  switch (len) {
    case 8: std::memcpy(dst, src, 8); break;
    case 4: std::memcpy(dst, src, 4); break;
    default: std::memcpy(dst, src, len); break;
  }
}

void on_get_request(const am_message& m) {
  auto& c = running();
  const auto* src = as<const unsigned char>(m.args[0]);
  const std::size_t len = m.args[1];
  if (len <= am_inline_bytes) {
    am_word a[am_max_args] = {m.args[2], len, m.args[3]};
    copy_inline(&a[3], src, len);
    reply(c, m, am_kind::short_msg, id(builtin::get_reply), a, 3 + data_words(len));
  } else {
    // The owner's memory, which the get's requester reads as it is until its sync: a
    // backend with zero-copy long messages sends from it in place, without waiting here.
    const am_word a[1] = {m.args[3]};
    reply_lending_source(c, m, id(builtin::get_done), a, 1, src, len, as<void>(m.args[2]),
                         c.sources_lent);
  }
}
void on_get_reply(const am_message& m) {
  copy_inline(as<void>(m.args[0]), &m.args[3], m.args[1]);
  as<counter>(m.args[2])->add_local(-1);
}
void on_get_done(const am_message& m) { as<counter>(m.args[0])->add_local(-1); }
void on_put_request(const am_message& m) {
  copy_inline(as<void>(m.args[0]), &m.args[3], m.args[1]);
  reply(running(), m, am_kind::short_msg, id(builtin::ack), &m.args[2], 1);
}
void on_put_long_done(const am_message& m) {
  reply(running(), m, am_kind::short_msg, id(builtin::ack), &m.args[0], 1);
}
void on_ack(const am_message& m) { as<counter>(m.args[0])->add_local(-1); }
/// A store's byte counter at the receiver: the program's, at the address the
/// sender gave, or (0) the library's, wherever the receiver keeps it.
counter* store_counter(am_word w) noexcept {
  return w != 0 ? as<counter>(w) : library_store_counter(running());
}
void on_store(const am_message& m) {
  copy_inline(as<void>(m.args[0]), &m.args[3], m.args[1]);
  store_counter(m.args[2])->add_shared(static_cast<std::int64_t>(m.args[1]));
}
void on_store_long_done(const am_message& m) {
  store_counter(m.args[0])->add_shared(static_cast<std::int64_t>(m.length));
}

}  // namespace

void register_global_memory_handlers(context& c) {
  auto set = [&](builtin b, handler_fn f) { c.handlers[static_cast<std::size_t>(b)] = f; };
  set(builtin::get_request, on_get_request);
  set(builtin::get_reply, on_get_reply);
  set(builtin::get_done, on_get_done);
  set(builtin::put_request, on_put_request);
  set(builtin::put_long_done, on_put_long_done);
  set(builtin::ack, on_ack);
  set(builtin::store, on_store);
  set(builtin::store_long_done, on_store_long_done);
}

void get_am(context& c, void* dst, proc_t p, const void* src, std::size_t len, counter& ctr) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  // Each fragment is a short request answered by a long reply. The owner
  // answers inside its handler, which may not wait: replies that do not fit
  // its backend's buffers are queued there, reading the owner's memory when
  // they go (send_slow keeps the source lent). At most get_window fragments
  // of one transfer are in flight (outside handlers): the pipe stays full
  // and the owner's queue stays short.
  const std::int64_t base = ctr.value();
  for (std::size_t off = 0; off < len; off += fragment_bytes) {
    if (!c.frame.active && ctr.value() - base >= get_window)
      wait_until(c, "bulk_get", [&] { return ctr.value() - base < get_window; });
    const std::size_t n = std::min(fragment_bytes, len - off);
    const am_word a[4] = {word(s + off), n, word(d + off), word(&ctr)};
    ctr.add_local(1);
    request(c, am_kind::short_msg, p, id(builtin::get_request), a, 4);
  }
}

void put_am(context& c, proc_t p, void* dst, const void* src, std::size_t len, counter& ctr,
            source_lifetime source) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  const am_word a[1] = {word(&ctr)};
  for (std::size_t off = 0; off < len; off += fragment_bytes) {
    const std::size_t n = std::min(fragment_bytes, len - off);
    ctr.add_local(1);
    // A source kept until sync is lent to the backend: the put's own counter also
    // waits for the backend to be done with it.
    if (source == source_lifetime::until_sync)
      request_lending_source(c, p, id(builtin::put_long_done), a, 1, s + off, n, d + off, ctr);
    else
      request(c, am_kind::long_msg, p, id(builtin::put_long_done), a, 1, s + off, n, d + off);
  }
}

void store_am(context& c, proc_t p, void* dst, const void* src, std::size_t len,
              counter* remote_counter) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  const am_word a[1] = {word(remote_counter)};
  for (std::size_t off = 0; off < len; off += fragment_bytes) {
    const std::size_t n = std::min(fragment_bytes, len - off);
    request(c, am_kind::long_msg, p, id(builtin::store_long_done), a, 1, s + off, n, d + off);
  }
}

}  // namespace splitc::detail
