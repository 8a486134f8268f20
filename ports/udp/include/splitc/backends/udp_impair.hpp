// A seeded impairment layer in the udp backend's send path, for tests:
// drop, duplicate, reorder and delay datagrams. Off unless SPLITC_UDP_IMPAIR
// is set, e.g.
//
//   SPLITC_UDP_IMPAIR="drop=0.05,dup=0.02,reorder=0.05,delay=100,jitter=50,seed=7"
//
// drop, dup, reorder: probabilities per datagram; reorder holds a datagram
// back for a random time up to `window` us (default 300) so later ones
// overtake it; delay: fixed us added to every datagram; jitter: random us
// added on top; seed: the generator's seed (mixed with the processor number,
// so runs are reproducible). Held datagrams are released from poll and send.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <vector>

namespace splitc::backends::udp {

class impairment {
 public:
  struct settings {
    double drop = 0, dup = 0, reorder = 0;
    std::uint64_t delay_ns = 0, jitter_ns = 0, window_ns = 300'000;
    std::uint64_t seed = 1;
  };
  /// Parse a specification; throws std::invalid_argument naming what is wrong.
  static settings parse(const std::string& spec);

  impairment(const settings& s, int myproc);

  /// Decide the fate of one datagram: returns how many copies to send now
  /// (0, 1 or 2); copies to send later are kept here.
  int submit(int peer, const unsigned char* data, std::size_t len, std::uint64_t now);

  /// Send (through `send(peer, data, len)`) every held datagram that is due.
  template <class Send>
  void release(std::uint64_t now, Send&& send) {
    while (!held_.empty() && held_.top().at <= now) {
      held item = held_.top();
      held_.pop();
      send(item.peer, item.data->data(), item.data->size());
    }
  }
  bool holding() const noexcept { return !held_.empty(); }

  /// Datagrams dropped, sent twice, held back (delay or reordering), and of those held back,
  /// moved past later ones (reorder, and every second copy).
  std::uint64_t dropped = 0, duplicated = 0, delayed = 0, reordered = 0;

 private:
  struct held {
    std::uint64_t at;
    std::uint64_t order;
    int peer;
    std::shared_ptr<std::vector<unsigned char>> data;
    bool operator>(const held& o) const noexcept {
      return at != o.at ? at > o.at : order > o.order;
    }
  };
  double uniform() noexcept;
  std::uint64_t hold_time(bool reorder) noexcept;

  settings s_;
  std::uint64_t state_;
  std::uint64_t order_ = 0;
  std::priority_queue<held, std::vector<held>, std::greater<held>> held_;
};

}  // namespace splitc::backends::udp
