// Starting and ending a splitc program, process identity, polling, barrier
// and the user-visible active-message interface.
#pragma once

#include <splitc/global_ptr.hpp>
#include <splitc/port/am.hpp>
#include <splitc/detail/context.hpp>
#include <splitc/detail/messaging.hpp>

#include <array>
#include <cstddef>
#include <type_traits>

namespace splitc {

/// Join the job. Under splitc-run every process joins its place; started
/// plainly a program is a job of one, unless SPLITC_PROCS=N asks for N
/// processes, in which case this call launches them and never returns.
void init(int& argc, char**& argv);
/// Leave the job: a barrier, then the backend shuts down. A process that
/// exits after init() without finalize() is an error (the others would wait
/// for it forever): the job ends with a message naming it.
void finalize();
bool initialized() noexcept;

/// This processor's number (MYPROC) and the number of processors (PROCS).
inline proc_t myproc() noexcept { return detail::ctx().myproc; }
inline proc_t procs() noexcept { return detail::ctx().procs; }

/// Deliver arrived messages and move queued ones. Call it in loops that wait
/// on conditions of your own; never from inside a handler.
void poll();

/// Collective: no processor leaves before all have entered.
void barrier();

/// Seconds on the job's clock: the host's monotonic clock, or the layer's own
/// virtual clock where it has one (the sim backend: each processor's virtual
/// time). For timing; comparable between calls on one processor.
double get_seconds() noexcept;

/// The name of the backend this program was built against.
const char* backend_name() noexcept;

/// This processor's segment (the memory peers can reach directly), minus the
/// part the runtime keeps for itself. Same address on every processor.
segment_info my_segment() noexcept;

// ---- active messages for programs -------------------------------------------

/// The largest payloads programs' medium and long messages may carry: the
/// backend's own limits, or what the core composes above them (at least 4 KiB
/// and 64 KiB; PORTING.md 1.2).
inline constexpr std::size_t am_medium_limit = detail::medium_limit;
inline constexpr std::size_t am_long_limit = detail::long_limit;
/// The size to cut a stream of long messages into: the backend's own long limit
/// where it has long messages (one of its packets each, as bulk transfers are
/// cut), else am_long_limit. Larger pieces are composed from the backend's
/// short messages: correct, but a packet per few words.
inline constexpr std::size_t am_long_piece =
    detail::native_long > 0 ? detail::native_long : detail::long_limit;

/// Register a handler. Collective: every process registers the same
/// functions in the same order (checked), and no message can reach a handler
/// before every process has registered it. Handlers run inside poll, must
/// not block, and a request handler may reply at most once.
handler_id register_handler(handler_fn fn);

template <class... Words>
  requires(sizeof...(Words) <= am_max_args && (std::is_convertible_v<Words, am_word> && ...))
inline void am_request(proc_t p, handler_id h, Words... words) {
  auto& c = detail::ctx();
  const std::array<am_word, sizeof...(Words) == 0 ? 1 : sizeof...(Words)> a{
      static_cast<am_word>(words)...};
  detail::check_am_target(c, p, h);
  detail::request_inlined(c, am_kind::short_msg, p, h, a.data(), sizeof...(Words));
}
template <class... Words>
  requires(sizeof...(Words) <= am_max_args && (std::is_convertible_v<Words, am_word> && ...))
inline void am_request_medium(proc_t p, handler_id h, const void* payload, std::size_t len,
                              Words... words) {
  auto& c = detail::ctx();
  const std::array<am_word, sizeof...(Words) == 0 ? 1 : sizeof...(Words)> a{
      static_cast<am_word>(words)...};
  detail::check_am_target(c, p, h);
  detail::check_am_length(c, len, detail::medium_limit, "am_request_medium");
  detail::request_inlined(c, am_kind::medium_msg, p, h, a.data(), sizeof...(Words), payload, len);
}
template <class... Words>
  requires(sizeof...(Words) <= am_max_args && (std::is_convertible_v<Words, am_word> && ...))
inline void am_request_long(proc_t p, handler_id h, const void* payload, std::size_t len,
                            void* destination, Words... words) {
  auto& c = detail::ctx();
  const std::array<am_word, sizeof...(Words) == 0 ? 1 : sizeof...(Words)> a{
      static_cast<am_word>(words)...};
  detail::check_am_target(c, p, h);
  detail::check_am_length(c, len, detail::long_limit, "am_request_long");
  // `destination` names a place at p: p's copy of it where segments lie apart (global_ptr.hpp).
  detail::request_inlined(c, am_kind::long_msg, p, h, a.data(), sizeof...(Words), payload, len,
                          detail::placed(p, destination));
}
template <class... Words>
  requires(sizeof...(Words) <= am_max_args && (std::is_convertible_v<Words, am_word> && ...))
inline void am_reply(const am_message& token, handler_id h, Words... words) {
  auto& c = detail::ctx();
  const std::array<am_word, sizeof...(Words) == 0 ? 1 : sizeof...(Words)> a{
      static_cast<am_word>(words)...};
  detail::check_am_target(c, token.source, h);
  detail::reply_inlined(c, token, am_kind::short_msg, h, a.data(), sizeof...(Words));
}
template <class... Words>
  requires(sizeof...(Words) <= am_max_args && (std::is_convertible_v<Words, am_word> && ...))
inline void am_reply_medium(const am_message& token, handler_id h, const void* payload,
                            std::size_t len, Words... words) {
  auto& c = detail::ctx();
  const std::array<am_word, sizeof...(Words) == 0 ? 1 : sizeof...(Words)> a{
      static_cast<am_word>(words)...};
  detail::check_am_target(c, token.source, h);
  detail::check_am_length(c, len, detail::medium_limit, "am_reply_medium");
  detail::reply_inlined(c, token, am_kind::medium_msg, h, a.data(), sizeof...(Words), payload,
                        len);
}

}  // namespace splitc
