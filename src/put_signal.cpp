// Signalled puts over active messages (see put_signal.hpp): one long message per piece,
// the signal applied at the target by the handler of the last piece to land there.
#include <splitc/put_signal.hpp>
#include <splitc/errors.hpp>
#include <splitc/runtime.hpp>

#include "am_words.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace splitc::detail {

namespace {

using am_words::word;


/// The fourth word of a piece: the signal's operation, the pieces of the put, and (for a put
/// of several pieces) the sender's number for it.
constexpr am_word describe(signal_op op, std::uint64_t pieces, std::uint64_t sequence) noexcept {
  return static_cast<am_word>(op) | pieces << 1 | sequence << 32;
}
constexpr std::uint64_t pieces_mask = (std::uint64_t{1} << 31) - 1;

/// Pieces of multi-piece signalled puts still to land here, by (processor, sender, number).
/// Handlers of one process run one at a time (the sim's processors too), so a plain map.
std::map<std::tuple<const context*, proc_t, std::uint32_t>, std::uint64_t> pieces_to_come;

/// Every put's number, for telling a sender's multi-piece puts apart at the target.
std::uint32_t next_sequence = 0;

// (done, signal, value, op | pieces << 1 | sequence << 32), the piece's data already at its
// place (a long request), or none (a short one: a put of no bytes)
void on_put_signal(const am_message& m) {
  context& c = running();
  const auto op = static_cast<signal_op>(m.args[3] & 1);
  const std::uint64_t pieces = (m.args[3] >> 1) & pieces_mask;
  if (pieces > 1) {
    const auto key = std::make_tuple(static_cast<const context*>(&c), m.source,
                                     static_cast<std::uint32_t>(m.args[3] >> 32));
    auto [at, fresh] = pieces_to_come.try_emplace(key, pieces);
    if (--at->second != 0) {
      reply(c, m, am_kind::short_msg, id(builtin::ack), &m.args[0], 1);
      return;
    }
    pieces_to_come.erase(at);
  }
  std::atomic_thread_fence(std::memory_order_release);  // the data before the signal
  std::uint64_t old = 0;
  const global_ptr<std::uint64_t> signal(c.myproc,
                                         reinterpret_cast<std::uint64_t*>(static_cast<std::uintptr_t>(m.args[1])));
  (void)amo_here(c, signal, signal_amo(op), static_cast<std::uint64_t>(m.args[2]), std::uint64_t{0},
                 old, "put_signal");
  reply(c, m, am_kind::short_msg, id(builtin::ack), &m.args[0], 1);
}

}  // namespace

void register_put_signal_handlers(context& c) {
  c.handlers[static_cast<std::size_t>(builtin::put_signal)] = on_put_signal;
}

void put_signal_am(context& c, proc_t p, void* dst, const void* src, std::size_t len,
                   std::uint64_t* signal, std::uint64_t value, signal_op op, counter& done) {
  const std::size_t piece = am_long_piece;
  const std::uint64_t pieces = len == 0 ? 1 : (len + piece - 1) / piece;
  if (pieces > pieces_mask) [[unlikely]]
    fail("put_signal: {} bytes is more than one signalled put carries ({} pieces of {})", len,
         pieces_mask, piece);
  const std::uint32_t sequence = pieces > 1 ? ++next_sequence : 0;
  const am_word a[4] = {word(&done), word(signal), static_cast<am_word>(value),
                        describe(op, pieces, sequence)};
  if (len == 0) {
    done.add_local(1);
    request(c, am_kind::short_msg, p, id(builtin::put_signal), a, 4);
    return;
  }
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  for (std::size_t off = 0; off < len; off += piece) {
    const std::size_t n = std::min(piece, len - off);
    done.add_local(1);
    request(c, am_kind::long_msg, p, id(builtin::put_signal), a, 4, s + off, n, d + off);
  }
}

void bad_put_signal(context& c, proc_t data, proc_t signal, const char* what) {
  (void)c;
  fail("{}: the data is on processor {} and the signal word on processor {}: a signalled put "
       "updates a word of the processor it puts to",
       what, data, signal);
}

}  // namespace splitc::detail
