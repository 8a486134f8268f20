// Atomic operations and atomic procedures over active messages (see
// atomics.hpp): the owner applies the operation inside a handler and replies
// with the old value or the procedure's result.
#include <splitc/atomics.hpp>
#include <splitc/errors.hpp>

#include "am_words.hpp"

#include <cstring>

namespace splitc::detail {

void function_anchor() {}

namespace {

using am_words::word;
using am_words::as;

/// Argument bytes that fit a short request's words after the call's five.
constexpr std::size_t short_argument_bytes = 3 * sizeof(am_word);


/// A few bytes of arguments or result: the common sizes (one word, one
/// int) as fixed-size moves, not a call to memcpy.
void copy_small(void* dst, const void* src, std::size_t len) noexcept {
  switch (len) {
    case 0: break;
    case 8: std::memcpy(dst, src, 8); break;
    case 4: std::memcpy(dst, src, 4); break;
    default: std::memcpy(dst, src, len); break;
  }
}

template <atomic_value T>
std::uint64_t apply_as(void* target, amo op, std::uint64_t a, std::uint64_t b) noexcept {
  return to_bits(cpu_amo(static_cast<T*>(target), op, from_bits<T>(a), from_bits<T>(b)));
}
std::uint64_t apply(void* target, amo_type type, amo op, std::uint64_t a, std::uint64_t b) {
  switch (type) {
    case amo_type::i32: return apply_as<std::int32_t>(target, op, a, b);
    case amo_type::i64: return apply_as<std::int64_t>(target, op, a, b);
    case amo_type::u32: return apply_as<std::uint32_t>(target, op, a, b);
    case amo_type::u64: return apply_as<std::uint64_t>(target, op, a, b);
    case amo_type::f32: return apply_as<float>(target, op, a, b);
    case amo_type::f64: return apply_as<double>(target, op, a, b);
  }
  fail("an atomic request names word type {}, which no atomic has", static_cast<int>(type));
}
std::size_t size_of(amo_type type) noexcept {
  return type == amo_type::i32 || type == amo_type::u32 || type == amo_type::f32 ? 4 : 8;
}

// (target, op | type << 8, a, b, result, done) -> atomic_done(result, done, old, size)
void on_atomic_request(const am_message& m) {
  const auto op = static_cast<amo>(m.args[1] & 0xff);
  const auto type = static_cast<amo_type>((m.args[1] >> 8) & 0xff);
  const am_word a[4] = {m.args[4], m.args[5], apply(as<void>(m.args[0]), type, op, m.args[2], m.args[3]),
                        size_of(type)};
  reply(running(), m, am_kind::short_msg, id(builtin::atomic_done), a, 4);
}
// (result, done, old, size): the old value's `size` bytes to `result` (none if null)
void on_atomic_done(const am_message& m) {
  if (void* result = as<void>(m.args[0])) {
    if (m.args[3] == 4) {
      const auto bits = static_cast<std::uint32_t>(m.args[2]);
      std::memcpy(result, &bits, 4);
    } else {
      std::memcpy(result, &m.args[2], 8);
    }
  }
  as<counter>(m.args[1])->add_local(-1);
}

// Short form: (runner, function, target, result, done, args...); medium: the same, args in payload.
void on_procedure_call(const am_message& m) {
  const atomic_call call{static_cast<std::int64_t>(m.args[0]), static_cast<std::int64_t>(m.args[1]),
                         as<void>(m.args[2]), as<void>(m.args[3]), as<counter>(m.args[4])};
  const void* args = m.kind == am_kind::medium_msg ? m.payload : static_cast<const void*>(&m.args[5]);
  context& c = running();
  if (c.procedure_result.size() < medium_limit) [[unlikely]]
    c.procedure_result.resize(medium_limit);
  // A small result is written straight into the reply's words (zeroed, so
  // no stray bytes travel after it).
  am_word a[am_max_args] = {m.args[3], m.args[4], 0};
  const std::size_t n =
      function_at<atomic_runner>(call.runner)(call, args, &a[3], c.procedure_result.data());
  if (n <= procedure_small_result) {
    a[2] = n;
    reply(c, m, am_kind::short_msg, id(builtin::procedure_result), a,
          3 + static_cast<int>((n + 7) / 8));
  } else {
    a[2] = n;
    reply(c, m, am_kind::medium_msg, id(builtin::procedure_result), a, 3,
          c.procedure_result.data(), n);
  }
}
// (result, done, length, bytes...) or medium (result, done, length) + bytes
void on_procedure_result(const am_message& m) {
  const void* bytes = m.kind == am_kind::medium_msg ? m.payload : static_cast<const void*>(&m.args[3]);
  copy_small(as<void>(m.args[0]), bytes, m.args[2]);
  as<counter>(m.args[1])->add_local(-1);
}

}  // namespace

void register_atomic_handlers(context& c) {
  c.handlers[static_cast<std::size_t>(builtin::atomic_request)] = on_atomic_request;
  c.handlers[static_cast<std::size_t>(builtin::atomic_done)] = on_atomic_done;
  c.handlers[static_cast<std::size_t>(builtin::procedure_call)] = on_procedure_call;
  c.handlers[static_cast<std::size_t>(builtin::procedure_result)] = on_procedure_result;
}

void amo_request(context& c, proc_t p, void* target, amo_type type, amo op, std::uint64_t a,
                 std::uint64_t b, void* result, counter& done) {
  done.add_local(1);
  const am_word args[6] = {word(target),
                           static_cast<am_word>(op) | static_cast<am_word>(type) << 8, a, b,
                           word(result), word(&done)};
  request(c, am_kind::short_msg, p, id(builtin::atomic_request), args, 6);
}

void atomic_call_am(context& c, proc_t owner, const atomic_call& call, const void* args,
                    std::size_t args_bytes) {
  am_word a[am_max_args] = {static_cast<am_word>(call.runner), static_cast<am_word>(call.function),
                            word(call.target), word(call.result), word(call.done)};
  if (args_bytes <= short_argument_bytes) {
    copy_small(&a[5], args, args_bytes);
    request(c, am_kind::short_msg, owner, id(builtin::procedure_call), a,
            5 + static_cast<int>((args_bytes + 7) / 8));
    return;
  }
  if (args_bytes > medium_limit)
    fail("atomic: {} bytes of arguments exceed the backend's medium-message limit of {}",
         args_bytes, medium_limit);
  request(c, am_kind::medium_msg, owner, id(builtin::procedure_call), a, 5, args, args_bytes);
}

}  // namespace splitc::detail
