// The seeded impairment layer (udp_impair.hpp).
#include <splitc/backends/udp_impair.hpp>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace splitc::backends::udp {

impairment::settings impairment::parse(const std::string& spec) {
  settings s;
  std::stringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("'" + item + "' is not name=value");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || v < 0)
      throw std::invalid_argument("'" + value + "' is not a number (in '" + item + "')");
    auto probability = [&](double& p) {
      if (v > 1) throw std::invalid_argument(name + " is a probability (0..1)");
      p = v;
    };
    if (name == "drop") {
      probability(s.drop);
    } else if (name == "dup") {
      probability(s.dup);
    } else if (name == "reorder") {
      probability(s.reorder);
    } else if (name == "delay") {
      s.delay_ns = static_cast<std::uint64_t>(v * 1000);
    } else if (name == "jitter") {
      s.jitter_ns = static_cast<std::uint64_t>(v * 1000);
    } else if (name == "window") {
      s.window_ns = static_cast<std::uint64_t>(v * 1000);
    } else if (name == "seed") {
      s.seed = static_cast<std::uint64_t>(v);
    } else {
      throw std::invalid_argument("unknown setting '" + name +
                                  "' (drop, dup, reorder, delay, jitter, window, seed)");
    }
  }
  return s;
}

impairment::impairment(const settings& s, int myproc)
    : s_(s), state_(s.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(myproc) + 1) {}

double impairment::uniform() noexcept {
  // splitmix64
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

std::uint64_t impairment::hold_time(bool reorder) noexcept {
  std::uint64_t t = s_.delay_ns;
  if (s_.jitter_ns != 0) t += static_cast<std::uint64_t>(uniform() * static_cast<double>(s_.jitter_ns));
  if (reorder) t += 1 + static_cast<std::uint64_t>(uniform() * static_cast<double>(s_.window_ns));
  return t;
}

int impairment::submit(int peer, const unsigned char* data, std::size_t len, std::uint64_t now) {
  if (s_.drop > 0 && uniform() < s_.drop) {
    ++dropped;
    return 0;
  }
  const int copies = s_.dup > 0 && uniform() < s_.dup ? 2 : 1;
  if (copies == 2) ++duplicated;
  int now_copies = 0;
  std::shared_ptr<std::vector<unsigned char>> copy;
  for (int c = 0; c < copies; ++c) {
    const bool reorder = (s_.reorder > 0 && uniform() < s_.reorder) || c == 1;
    const std::uint64_t t = hold_time(reorder);
    if (t == 0) {
      ++now_copies;
      continue;
    }
    if (!copy) copy = std::make_shared<std::vector<unsigned char>>(data, data + len);
    held_.push(held{now + t, order_++, peer, copy});
    ++delayed;
    if (reorder) ++reordered;
  }
  return now_copies;
}

}  // namespace splitc::backends::udp
