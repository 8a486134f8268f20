// Composed messages: what the core sends when the backend's own forms cannot
// carry a message -- more argument words than caps.max_args, a medium payload
// on a layer without medium messages (or larger than its max_medium), a long
// payload without long messages. The message is cut into short requests of
// the backend's width to the built-in `fragment` handler and reassembled at
// the receiver, in any arrival order (layers such as the CM-5's network do not
// keep order), then delivered to its handler as if it had arrived whole.
//
// A composed reply cannot be several replies (strict request/reply layers
// allow one), so its fragments travel as requests marked "deliver as a
// reply"; from inside a handler they are queued and leave from the progress
// engine, like any message a handler sends when the backend has no room.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/backend.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace splitc::detail {

/// What the backend carries natively.
inline constexpr int native_args = active_backend::caps.max_args;
inline constexpr std::size_t native_medium =
    has_medium_messages<active_backend> ? active_backend::caps.max_medium : 0;
inline constexpr std::size_t native_long =
    has_long_messages<active_backend> ? active_backend::caps.max_long : 0;

/// What the core offers above any backend: the native limit, or at least this
/// much through composed messages (the collectives' mailbox messages need 1 KiB;
/// bulk transfers are cut into long messages of long_limit bytes).
inline constexpr std::size_t medium_limit = std::max<std::size_t>(native_medium, 4096);
inline constexpr std::size_t long_limit = std::max<std::size_t>(native_long, 64 * 1024);

/// Whether a message goes to the backend as it is.
constexpr bool fits_natively(am_kind kind, int nargs, std::size_t len) noexcept {
  if (nargs > native_args) return false;
  switch (kind) {
    case am_kind::short_msg: return true;
    case am_kind::medium_msg: return has_medium_messages<active_backend> && len <= native_medium;
    default: return has_long_messages<active_backend> && len <= native_long;
  }
}

/// A composed message being reassembled at its receiver.
struct partial_message {
  bool have_envelope = false;
  handler_id handler{};
  am_kind kind = am_kind::short_msg;
  bool is_request = true;
  int nargs = 0;
  std::size_t length = 0;
  void* destination = nullptr;
  std::uint32_t fragments_seen = 0;
  std::vector<am_word> stream;  ///< the argument words, then the payload
};

/// Per-process state of composed messages.
struct compose_state {
  std::uint32_t next_id = 0;
  std::unordered_map<std::uint64_t, partial_message> partial;  ///< by (source, id)
};

}  // namespace splitc::detail
