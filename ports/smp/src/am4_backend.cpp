// The am4 backend's unordered delivery: everything one poll of the smp rings
// drains is held, shuffled (seeded per processor) and then delivered.
#include <splitc/backends/narrow.hpp>

#include <algorithm>

namespace splitc::backends::narrow {

void am4_backend::hold(void* self, const am_message& m) {
  auto& b = *static_cast<am4_backend*>(self);
  held& h = b.arrived_.emplace_back();
  h.message = m;
  std::memcpy(h.args, m.args, sizeof(am_word) * static_cast<std::size_t>(m.nargs));
}

int am4_backend::poll(am_sink sink) {
  arrived_.clear();
  const int n = smp_.poll(am_sink{this, &am4_backend::hold, sink.handler_count});
  std::shuffle(arrived_.begin(), arrived_.end(), shuffle_);
  // Handlers never poll, so nothing adds to arrived_ while it is delivered.
  for (held& h : arrived_) {
    h.message.args = h.args;
    sink.deliver(sink.context, h.message);
  }
  return n;
}

}  // namespace splitc::backends::narrow
