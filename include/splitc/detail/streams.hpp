// Streams: how the collectives move a block of any length between two ranks of a group. A
// stream shorter than mailbox_staged_threshold goes in mailbox messages of up to a payload
// each; a longer one staged, in pieces of up to mailbox_staged_piece bytes (a rendezvous,
// detail/mailbox.hpp). A member sends one stream while it receives another
// (exchange_streams), one message of each at a time, so two members streaming to each other
// never wait on each other's credit.
#pragma once

#include <splitc/detail/mailbox.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

namespace splitc::detail {

[[gnu::cold, noreturn]] void collective_mismatch(collective_group& g, proc_t from, std::size_t got,
                                                 std::size_t expected);
/// `from` is a rank of the group; the reports name processors. `got` is the signature rank
/// `from` sent; a broadcast's names its root.
[[gnu::cold, noreturn]] void collective_kind_mismatch(collective_group& g, proc_t from,
                                                      std::uint64_t got);

/// Receive one mailbox message of `count` elements from p and hand it to `use`.
template <class T, class Use>
inline void receive_chunk(collective_group& g, proc_t p, std::size_t count, Use use) {
  std::size_t len = 0;
  std::uint64_t signature = 0;
  const unsigned char* data = mailbox_receive(g, p, &len, &signature);
  if (signature != g.signature) [[unlikely]] {
    // p stages a stream this member expects in mailbox messages: their lengths differ.
    if (signature == (g.signature ^ mailbox_staged_mark) && len == sizeof(staged_piece)) {
      std::uint64_t staged_length;
      std::memcpy(&staged_length, data + offsetof(staged_piece, length), sizeof staged_length);
      collective_mismatch(g, p, staged_length, count * sizeof(T));
    }
    collective_kind_mismatch(g, p, signature);
  }
  if (len != count * sizeof(T)) [[unlikely]] collective_mismatch(g, p, len, count * sizeof(T));
  use(data);
  mailbox_release(g, p);
}

/// Up to two contiguous pieces of memory taken as one byte stream (a run of blocks that wraps
/// around the end of a buffer).
template <class Byte>
struct byte_pieces {
  std::array<std::span<Byte>, 2> piece{};
  std::size_t total() const noexcept { return piece[0].size() + piece[1].size(); }
  /// Bytes [at, at + len) of the stream as (up to) two runs of memory.
  std::array<std::span<Byte>, 2> parts(std::size_t at, std::size_t len) const noexcept {
    const std::size_t first = piece[0].size();
    if (at + len <= first) return {piece[0].subspan(at, len), {}};
    if (at >= first) return {piece[1].subspan(at - first, len), {}};
    return {piece[0].subspan(at), piece[1].subspan(0, len - (first - at))};
  }
  /// Bytes [at, at + len) of the stream (len <= one payload), as a pointer into the pieces
  /// when they lie in one, else copied into `scratch`.
  Byte* span_at(std::size_t at, std::size_t len, unsigned char* scratch) const {
    const auto [a, b] = parts(at, len);
    if (b.empty()) return a.data();
    std::memcpy(scratch, a.data(), a.size());
    std::memcpy(scratch + a.size(), b.data(), b.size());
    return scratch;
  }
};
using send_pieces = byte_pieces<const unsigned char>;
using receive_pieces = byte_pieces<unsigned char>;
template <class Byte>
inline byte_pieces<Byte> one_piece(Byte* data, std::size_t len) {
  byte_pieces<Byte> p;
  p.piece[0] = {data, len};
  return p;
}

inline void copy_into_pieces(const receive_pieces& r, std::size_t at, const unsigned char* d,
                             std::size_t len) {
  for (const std::span<unsigned char> part : r.parts(at, len)) {
    if (part.empty()) continue;  // an absent piece's pointer is null: no memcpy of it, even of 0
    std::memcpy(part.data(), d, part.size());
    d += part.size();
  }
}

/// The sizes a stream's messages take: mailbox messages and staged pieces hold whole units of
/// `unit` bytes (an element that a combining `use` takes whole).
struct stream_steps {
  std::size_t chunk, piece;
  explicit stream_steps(std::size_t unit) noexcept
      : chunk(mailbox_payload_bytes / unit * unit), piece(mailbox_staged_piece / unit * unit) {}
};

/// The sending end of one stream: one message per step. `receiver_copies`: the receiver
/// copies the stream into place (stream_receiver's `into`), so a piece may be lent instead of
/// staged (detail/mailbox.hpp, "Pieces read from the sender's memory").
class stream_sender {
 public:
  stream_sender(collective_group& g, proc_t to, const send_pieces& data, stream_steps steps,
                bool receiver_copies)
      : g_(g), to_(to), data_(data), steps_(steps),
        staged_(to >= 0 && data.total() >= mailbox_staged_threshold), done_(to < 0),
        receiver_copies_(receiver_copies) {}
  bool done() const noexcept { return done_; }
  void step() {
    const std::size_t total = data_.total();
    if (at_ < plain_until_ || !staged_) {  // a mailbox message
      const std::size_t end = staged_ ? plain_until_ : total;
      const std::size_t len = std::min(steps_.chunk, end - at_);
      unsigned char scratch[mailbox_payload_bytes];
      mailbox_send(g_, to_, data_.span_at(at_, len, scratch), len);
      at_ += len;
    } else {  // a staged piece (or, without staging space, the announcement that it is not)
      const std::size_t len = std::min(steps_.piece, total - at_);
      const auto [a, b] = data_.parts(at_, len);
      if (mailbox_send_staged(g_, to_, a.data(), a.size(), b.data(), b.size(), receiver_copies_))
        at_ += len;
      else
        plain_until_ = at_ + len;
    }
    done_ = at_ == total;
  }

 private:
  collective_group& g_;
  proc_t to_;
  send_pieces data_;
  stream_steps steps_;
  bool staged_;
  bool done_;
  bool receiver_copies_;
  std::size_t at_ = 0;
  std::size_t plain_until_ = 0;  ///< a piece that goes in mailbox messages ends here
};

/// The receiving end: `use(at, data, len)` takes each message's bytes, whole units. `into`:
/// where `use` copies them (a copying receiver), for pieces read straight there; nullptr
/// for a combining one.
template <class Use>
class stream_receiver {
 public:
  stream_receiver(collective_group& g, proc_t from, std::size_t total, stream_steps steps, Use& use,
                  const receive_pieces* into)
      : g_(g), from_(from), total_(total), steps_(steps), use_(use), into_(into),
        staged_(from >= 0 && total >= mailbox_staged_threshold), done_(from < 0) {}
  bool done() const noexcept { return done_; }
  void step() {
    if (at_ < plain_until_ || !staged_) {
      const std::size_t end = staged_ ? plain_until_ : total_;
      const std::size_t len = std::min(steps_.chunk, end - at_);
      receive_chunk<unsigned char>(g_, from_, len, [&](const unsigned char* d) { use_(at_, d, len); });
      at_ += len;
    } else {
      const std::size_t len = std::min(steps_.piece, total_ - at_);
      piece_destination destination;
      if (into_ != nullptr) destination = into_->parts(at_, len);
      const unsigned char* d = nullptr;
      switch (mailbox_receive_staged(g_, from_, len, fetched_,
                                     into_ != nullptr ? &destination : nullptr, &d)) {
        case staged_arrival::in_messages: plain_until_ = at_ + len; return;
        case staged_arrival::at_bytes: use_(at_, d, len); break;
        case staged_arrival::placed: break;
      }
      mailbox_release(g_, from_);
      at_ += len;
    }
    done_ = at_ == total_;
  }

 private:
  collective_group& g_;
  proc_t from_;
  std::size_t total_;
  stream_steps steps_;
  Use& use_;
  const receive_pieces* into_;
  bool staged_;
  bool done_;
  std::size_t at_ = 0;
  std::size_t plain_until_ = 0;
  std::vector<unsigned char> fetched_;  ///< a piece fetched from an unmapped segment
};

/// Send a stream to rank `to` while receiving one of `receive_len` bytes from rank `from`
/// (either rank may be -1: nothing that way). Every stream is at least one message, so a
/// member expecting bytes from one that sends none is told (collective mismatch) rather than
/// left waiting. `into`: where `use` copies the received stream, when it does; the streams of
/// one call copy at both ends or at neither (both members run the same algorithm), so it also
/// says whether `to` copies what we send. A copying exchange may leave its sources lent: the
/// collective ends with mailbox_settle_sources.
template <class Use>
inline void exchange_streams(collective_group& g, proc_t to, const send_pieces& send, proc_t from,
                             std::size_t receive_len, std::size_t unit, Use use,
                             const receive_pieces* into = nullptr) {
  const stream_steps steps(unit);
  stream_sender out(g, to, send, steps, into != nullptr);
  stream_receiver<Use> in(g, from, receive_len, steps, use, into);
  while (!out.done() || !in.done()) {
    if (!out.done()) out.step();
    if (!in.done()) in.step();
  }
}

}  // namespace splitc::detail
