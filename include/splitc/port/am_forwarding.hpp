// Porting kit: the six sends of the boundary (am.hpp: request_/reply_ short, medium, long) from
// one send of the backend's own. A backend whose layer sends every kind of message through one
// call derives from am_forwarding<itself> and defines
//
//   am_status send(proc_t dest, bool is_request, am_kind kind, handler_id h, const am_word* args,
//                  int nargs, const void* src, std::size_t len, void* dst);
//
// (src and len are the payload of a medium or long message, dst where a long one lands; a short
// one passes nullptr, 0, nullptr), and, if it sends short messages by a path of their own,
//
//   am_status send_short(proc_t dest, bool is_request, handler_id h, const am_word* args,
//                        int nargs);
//
// A reply goes to the request's source. Everything here is always inlined and the kind and
// direction are constants, so the calls compile to the backend's own as if written out (inlined
// only as the compiler chose, the two extra levels cost smp's send 1 ns: Table 4's
// am_send_overhead 4.9 -> 6.0 ns).
#pragma once

#include <splitc/port/am.hpp>

#include <cstddef>

namespace splitc::port {

template <class Backend>
class am_forwarding {
 public:
  [[gnu::always_inline]] am_status request_short(proc_t p, handler_id h, const am_word* a,
                                                 int n) {
    return short_to(p, true, h, a, n);
  }
  [[gnu::always_inline]] am_status request_medium(proc_t p, handler_id h, const am_word* a,
                                                  int n, const void* src, std::size_t len) {
    return self().send(p, true, am_kind::medium_msg, h, a, n, src, len, nullptr);
  }
  [[gnu::always_inline]] am_status request_long(proc_t p, handler_id h, const am_word* a, int n,
                                                const void* src, std::size_t len, void* dst) {
    return self().send(p, true, am_kind::long_msg, h, a, n, src, len, dst);
  }
  [[gnu::always_inline]] am_status reply_short(const am_message& t, handler_id h,
                                               const am_word* a, int n) {
    return short_to(t.source, false, h, a, n);
  }
  [[gnu::always_inline]] am_status reply_medium(const am_message& t, handler_id h,
                                                const am_word* a, int n, const void* src,
                                                std::size_t len) {
    return self().send(t.source, false, am_kind::medium_msg, h, a, n, src, len, nullptr);
  }
  [[gnu::always_inline]] am_status reply_long(const am_message& t, handler_id h,
                                              const am_word* a, int n, const void* src,
                                              std::size_t len, void* dst) {
    return self().send(t.source, false, am_kind::long_msg, h, a, n, src, len, dst);
  }

 private:
  [[gnu::always_inline]] Backend& self() noexcept { return static_cast<Backend&>(*this); }

  [[gnu::always_inline]] am_status short_to(proc_t p, bool is_request, handler_id h,
                                            const am_word* a, int n) {
    if constexpr (requires(Backend& b) { b.send_short(p, is_request, h, a, n); })
      return self().send_short(p, is_request, h, a, n);
    else
      return self().send(p, is_request, am_kind::short_msg, h, a, n, nullptr, 0, nullptr);
  }
};

}  // namespace splitc::port
