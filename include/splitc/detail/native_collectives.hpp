// The core's use of a backend's native collectives (am.hpp: has_native_barrier,
// has_native_reduce; the CM-5's control network): which element types and
// operators map onto the layer's, the agreement check every collective starts
// with on such a backend, and the calls themselves. Without those members none
// of this is compiled and the collectives run on the mailbox trees alone.
//
// Agreement: a native collective cannot see that processors called different
// collectives (the mailbox trees compare signatures in every message). So on a
// backend with native reductions every collective -- native or not -- begins with
// one native OR of a 32-bit word made from its signature, element count and root:
// (h << 16) | (~h & 0xffff) for a 16-bit hash h. The OR has a bit set in both
// halves exactly when two processors' hashes differ; then everyone (all see the
// same OR) takes the tree path, whose signature check reports the mismatch in its
// usual words. Otherwise all took the same decision about the native path.
//
// finalize: its barrier is never native here but the mailboxes' own, signed with how many
// native collectives its processor has passed. A processor that skipped one of them before
// finalize leaves the others waiting in it, where no signature arrives; so while a processor
// waits in a native collective, it judges the messages waiting in its world mailbox
// (judge_native_wait): a sender that has passed this collective signs finalize's messages
// with its number; one signed with another count names a sender that skipped it, or a
// receiver that called one more (issue 45).
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/detail/context.hpp>
#include <splitc/detail/messaging.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

namespace splitc {
namespace ops {
struct add;
struct max;
struct min;
struct bit_or;
struct bit_and;
struct bit_xor;
struct logical_or;
struct logical_xor;
struct logical_and;
}  // namespace ops

namespace detail {

/// The native element type of T, if the layer's words can carry it.
template <class T>
constexpr std::optional<native_element> native_element_of() {
  if constexpr (std::is_same_v<T, float>) return native_element::float32;
  else if constexpr (std::is_same_v<T, double>) return native_element::float64;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 4)
    return std::is_signed_v<T> ? native_element::int32 : native_element::uint32;
  else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) == 8)
    return std::is_signed_v<T> ? native_element::int64 : native_element::uint64;
  else return std::nullopt;
}

/// The native operator of Op on T, if any (the logical ones on integers: their
/// operands are already 0 or 1, prepare_operands).
template <class T, class Op>
constexpr std::optional<native_op> native_op_of() {
  if constexpr (std::is_same_v<Op, ops::add>) return native_op::add;
  else if constexpr (std::is_same_v<Op, ops::max>) return native_op::max;
  else if constexpr (std::is_same_v<Op, ops::min>) return native_op::min;
  else if constexpr (std::is_integral_v<T> &&
                     (std::is_same_v<Op, ops::bit_or> || std::is_same_v<Op, ops::logical_or>))
    return native_op::bit_or;
  else if constexpr (std::is_integral_v<T> &&
                     (std::is_same_v<Op, ops::bit_and> || std::is_same_v<Op, ops::logical_and>))
    return native_op::bit_and;
  else if constexpr (std::is_integral_v<T> &&
                     (std::is_same_v<Op, ops::bit_xor> || std::is_same_v<Op, ops::logical_xor>))
    return native_op::bit_xor;
  else return std::nullopt;
}

/// Whether the active backend combines T with Op natively in `what`.
template <class T, class Op, class B = active_backend>
constexpr bool native_reduction_of(native_collective what) {
  if constexpr (has_native_reduce<B>) {
    constexpr auto e = native_element_of<T>();
    constexpr auto op = native_op_of<T, Op>();
    if constexpr (e.has_value() && op.has_value()) return B::native_reduces(what, *e, *op);
  }
  (void)what;
  return false;
}

/// While this processor waits in a native collective: a message in its world mailbox signed by
/// finalize with a count of native collectives passed other than this one's number ends the
/// job, naming its sender (src/mailbox.cpp).
void judge_native_wait(context& c);

/// What the backend runs while it waits in the control network (on entering it and after each
/// delivery there): the core's progress and judge_native_wait; true while sends are still
/// queued.
inline am_progress native_progress(context& c) {
  return {&c, [](void* self) {
            auto& c = *static_cast<context*>(self);
            (void)progress(c);
            judge_native_wait(c);
            return !c.pending.empty();
          }};
}

/// One native collective, counted (finalize's signature carries the count).
class in_native_collective {
 public:
  explicit in_native_collective(context& c) noexcept : c_(c) {}
  ~in_native_collective() { ++c_.native_collectives_passed; }
  in_native_collective(const in_native_collective&) = delete;
  in_native_collective& operator=(const in_native_collective&) = delete;

 private:
  context& c_;
};

/// Before a native collective: what this processor queued leaves first, and the root
/// announcements it owes (the layer may wait without polling the core for a while).
inline void native_flush(context& c) {
  while (!c.pending.empty()) (void)progress(c);
  if (c.mail.owed_count != 0) [[unlikely]] send_owed_announcements(c, c.mail);
}

/// The agreement check (above): true when every processor called this collective
/// with the same signature, `count` and `root`.
/// (B is the active backend: a template, so that other backends never see the calls.)
template <class B = active_backend>
inline bool native_agree(context& c, std::uint64_t signature, std::uint64_t count, proc_t root) {
  if constexpr (has_native_reduce<B>) {
    std::uint64_t h = signature ^ (count + 1) * 0x9E3779B97F4A7C15ULL ^
                      static_cast<std::uint64_t>(root + 1) * 0xD1B54A32D192ED03ULL;
    h ^= h >> 32;
    h ^= h >> 16;
    const std::uint32_t h16 = static_cast<std::uint32_t>(h) & 0xffffu;
    const std::uint32_t word = h16 << 16 | (~h16 & 0xffffu);
    native_flush(c);
    B& backend = c.backend;
    const in_native_collective counted(c);
    const auto r = static_cast<std::uint32_t>(
        backend.native_combine(c.sink(), native_progress(c), native_collective::reduce_to_all,
                                 native_element::uint32, native_op::bit_or, word));
    return ((r >> 16) & (r & 0xffffu)) == 0;
  }
  (void)c, (void)signature, (void)count, (void)root;
  return false;
}

/// One value combined natively (native_reduction_of<T, Op>(what) must hold).
template <class T, class Op, class B = active_backend>
inline T native_combine(context& c, native_collective what, T value) {
  am_word bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  B& backend = c.backend;
  const in_native_collective counted(c);
  bits = backend.native_combine(c.sink(), native_progress(c), what, *native_element_of<T>(),
                                  *native_op_of<T, Op>(), bits);
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

/// The start of every reduction and scan on a backend with native reductions:
/// the agreement check, then, when everyone agreed and the layer combines T with
/// Op, the collective itself on one element (`in` to `*out`). True when done.
template <native_collective What, class T, class Op, class B = active_backend>
inline bool native_try(context& c, std::uint64_t signature, std::span<T> in, T* out) {
  if constexpr (has_native_reduce<B>) {
    if (!native_agree<B>(c, signature, in.size(), 0)) return false;
    if constexpr (native_reduction_of<T, Op, B>(What)) {
      if (in.size() == 1) {
        *out = native_combine<T, Op, B>(c, What, in[0]);
        return true;
      }
    }
  }
  (void)c, (void)signature, (void)in, (void)out;
  return false;
}

/// The start of a broadcast on such a backend: the agreement check, then a
/// broadcast of at most native_broadcast_bytes natively. True when done.
template <class B = active_backend>
inline bool native_try_broadcast(context& c, std::uint64_t signature, void* data, std::size_t len,
                                 std::size_t count, proc_t root) {
  if constexpr (has_native_reduce<B>) {
    if (!native_agree<B>(c, signature, count, root)) return false;
    if (len > B::native_broadcast_bytes) return false;
    B& backend = c.backend;
    const in_native_collective counted(c);
    backend.native_broadcast(c.sink(), native_progress(c), data, len, root);
    return true;
  }
  (void)c, (void)signature, (void)data, (void)len, (void)count, (void)root;
  return false;
}

/// splitc::barrier() on a native barrier.
template <class B = active_backend>
inline void native_barrier(context& c) {
  native_flush(c);
  B& backend = c.backend;
  const in_native_collective counted(c);
  backend.native_barrier(c.sink(), native_progress(c));
}

}  // namespace detail
}  // namespace splitc
