// Composed messages (detail/compose.hpp): the sender cuts a message into short
// requests of the backend's width; the receiver's `fragment` handler collects
// them in any order and delivers the whole message to its handler.
//
// Fragment 0 is the envelope: (header, handler|kind|nargs|as_reply, length,
// destination). Fragments 1.. carry the stream -- the argument words, then the
// payload -- in (width - 1) words each. Header word: message id (low 32 bits),
// fragment index (high 32 bits).
#include <splitc/detail/compose.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/errors.hpp>

#include <cstring>

namespace splitc::detail {
namespace {

constexpr std::size_t data_words_per_fragment = static_cast<std::size_t>(native_args) - 1;

std::uint64_t key(proc_t source, std::uint32_t id) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(source)) << 32) | id;
}

std::uint32_t fragments_for(int nargs, std::size_t len) noexcept {
  const std::size_t stream_words = static_cast<std::size_t>(nargs) + (len + 7) / 8;
  return static_cast<std::uint32_t>(
      1 + (stream_words + data_words_per_fragment - 1) / data_words_per_fragment);
}

/// Send one fragment: from the main line it waits for room like any request;
/// from a handler it is tried once and otherwise queued (send_slow).
void send_fragment(context& c, proc_t p, const am_word* words, int n) {
  request(c, am_kind::short_msg, p, id(builtin::fragment), words, n);
}

void on_fragment(const am_message& m) {
  auto& c = running();
  const auto message_id = static_cast<std::uint32_t>(m.args[0]);
  const auto index = static_cast<std::uint32_t>(m.args[0] >> 32);
  partial_message& part = c.composed.partial[key(m.source, message_id)];
  if (index == 0) {
    const am_word e = m.args[1];
    part.have_envelope = true;
    part.handler = static_cast<handler_id>(e & 0xffff);
    part.kind = static_cast<am_kind>((e >> 16) & 0xff);
    part.nargs = static_cast<int>((e >> 24) & 0xff);
    part.is_request = ((e >> 32) & 1) == 0;
    part.length = m.args[2];
    part.destination = reinterpret_cast<void*>(static_cast<std::uintptr_t>(m.args[3]));
    if (part.nargs > am_max_args || part.kind > am_kind::long_msg || part.length > long_limit)
      fail("a composed message from processor {} has an impossible envelope ({} words, "
           "{} bytes)", m.source, part.nargs, part.length);
  } else {
    // No fragment lies beyond the largest message the core composes.
    constexpr std::size_t max_stream_words = am_max_args + (long_limit + 7) / 8;
    if (index > max_stream_words / data_words_per_fragment + 1)
      fail("a composed message from processor {} has a fragment {} beyond any message's end",
           m.source, index);
    const std::size_t at = (index - 1) * data_words_per_fragment;
    const auto n = static_cast<std::size_t>(m.nargs - 1);
    if (part.stream.size() < at + n) part.stream.resize(at + n);
    std::memcpy(part.stream.data() + at, &m.args[1], n * sizeof(am_word));
  }
  ++part.fragments_seen;
  if (!part.have_envelope || part.fragments_seen != fragments_for(part.nargs, part.length)) return;

  // Complete: deliver it whole, then forget it.
  partial_message whole = std::move(part);
  c.composed.partial.erase(key(m.source, message_id));
  const std::size_t stream_words = static_cast<std::size_t>(whole.nargs) + (whole.length + 7) / 8;
  whole.stream.resize(std::max<std::size_t>(stream_words, 1));
  void* payload = whole.stream.data() + whole.nargs;
  if (whole.kind == am_kind::long_msg) {
    if (whole.length != 0) std::memcpy(whole.destination, payload, whole.length);
    payload = whole.destination;
  } else if (whole.kind == am_kind::short_msg) {
    payload = nullptr;
  }
  const am_message delivered{m.source,       whole.handler,      whole.kind,  whole.is_request,
                             whole.nargs,    whole.stream.data(), payload,    whole.length};
  context::deliver(&c, delivered);
}

}  // namespace

void register_compose_handlers(context& c) {
  c.handlers[static_cast<std::size_t>(builtin::fragment)] = on_fragment;
}

void send_composed(context& c, am_kind kind, bool is_reply, proc_t p, handler_id h,
                   const am_word* args, int nargs, const void* src, std::size_t len, void* dst) {
  const std::uint32_t message_id = c.composed.next_id++;
  am_word words[am_max_args];
  words[0] = message_id;
  words[1] = static_cast<am_word>(h) | static_cast<am_word>(kind) << 16 |
             static_cast<am_word>(nargs) << 24 | static_cast<am_word>(is_reply) << 32;
  words[2] = len;
  words[3] = reinterpret_cast<std::uintptr_t>(dst);
  send_fragment(c, p, words, 4);

  // The stream, (width - 1) words at a time: argument words, then payload bytes.
  const auto* payload = static_cast<const unsigned char*>(src);
  const std::size_t arg_bytes = static_cast<std::size_t>(nargs) * sizeof(am_word);
  const std::size_t total = arg_bytes + len;
  const std::size_t step = data_words_per_fragment * sizeof(am_word);
  std::uint32_t index = 1;
  for (std::size_t at = 0; at < total; at += step, ++index) {
    const std::size_t n = std::min(step, total - at);
    std::memset(&words[1], 0, step);
    auto* out = reinterpret_cast<unsigned char*>(&words[1]);
    const std::size_t from_args = at < arg_bytes ? std::min(n, arg_bytes - at) : 0;
    if (from_args != 0) std::memcpy(out, reinterpret_cast<const unsigned char*>(args) + at, from_args);
    if (n > from_args) std::memcpy(out + from_args, payload + (at + from_args - arg_bytes), n - from_args);
    words[0] = static_cast<am_word>(message_id) | static_cast<am_word>(index) << 32;
    send_fragment(c, p, words, 1 + static_cast<int>((n + 7) / 8));
  }
}

}  // namespace splitc::detail
