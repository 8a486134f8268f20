// Global memory: read, write, get, put and store of one value (seed §3.1),
// inlined as the seed's Figure 2 inlines them. A local target costs a branch;
// a target in a peer's segment on a backend with direct access costs a load
// or store plus an address translation; anything else travels as an active
// message (seed §4.1.1, Figures 3–5).
//
// Ordering (seed 003 §4.2): read and write wait for themselves, so they
// complete in issue order; gets and puts are ordered only by sync(); stores
// are counted in bytes at the receiver and completed with store_sync(n) or
// all_store_sync(), which mix (seed 003 §5.2).
#pragma once

#include <splitc/counter.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/detail/context.hpp>
#include <splitc/detail/messaging.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_ptr.hpp>

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace splitc {

/// Types the global-memory operations move: anything trivially copyable.
template <class T>
concept transferable = std::is_trivially_copyable_v<T> && !std::is_void_v<T>;

namespace detail {

[[gnu::cold, noreturn]] void bad_processor(context& c, proc_t p, const char* op);
[[gnu::cold, noreturn]] void null_target(context& c, proc_t p, const char* op);

/// Validate a remote target (the local case was checked by the caller).
inline void check_remote(context& c, proc_t p, const void* addr, const char* op) {
  if (static_cast<unsigned>(p) >= static_cast<unsigned>(c.procs)) [[unlikely]]
    bad_processor(c, p, op);
  if (addr == nullptr) [[unlikely]] null_target(c, p, op);
}

/// Where this process can load/store [addr, addr+len) of processor p, or nullptr: the
/// backend's answer for the range in one question where it has one (has_direct_range), else
/// direct_address of the range's first and last bytes. Always inlined, as the backends'
/// direct_range is: it is a mapped access's whole cost (am_tail_called, below).
template <class B>
[[gnu::always_inline]] inline void* direct_in(const B& backend, proc_t p, const void* addr,
                                              std::size_t len) noexcept {
  if constexpr (!B::caps.direct_access) {
    return nullptr;
  } else if constexpr (has_direct_range<B>) {
    return backend.direct_range(p, addr, len);
  } else {
    void* d = backend.direct_address(p, addr);
    const void* last = static_cast<const char*>(addr) + len - 1;
    if (d != nullptr && (len <= 1 || backend.direct_address(p, last) != nullptr)) return d;
    return nullptr;
  }
}
[[gnu::always_inline]] inline void* direct(context& c, proc_t p, const void* addr,
                                           std::size_t len) noexcept {
  return direct_in(c.backend, p, addr, len);
}

// One-sided transfers through the backend's RMA members (am.hpp, has_rma), for
// targets the layer reaches; used from the main line only (a handler may not
// wait for a layer's room). The slow paths wait for room, polling.
template <class Attempt>
[[gnu::noinline]] void rma_retry(context& c, Attempt attempt) {
  port::backoff wait;
  while (attempt() != am_status::ok) {
    if (progress(c) != 0) wait.reset();
    wait.pause();
  }
}

template <class B>
inline bool rma_get(B& b, context& c, void* dst, proc_t p, const void* src, std::size_t len,
                    counter& ctr) {
  if constexpr (has_rma<B>) {
    if (!c.frame.active && b.rma_reaches(p, src, len)) {
      if constexpr (!has_rma_get_in_call<B>) ctr.add_local(1);
      if (b.rma_get(dst, p, src, len, ctr) != am_status::ok) [[unlikely]]
        rma_retry(c, [&] { return b.rma_get(dst, p, src, len, ctr); });
      return true;
    }
  }
  return false;
}
template <class B>
inline bool rma_put(B& b, context& c, proc_t p, void* dst, const void* src, std::size_t len,
                    counter& ctr) {
  if constexpr (has_rma<B>) {
    if (!c.frame.active && b.rma_reaches(p, dst, len)) {
      ctr.add_local(1);
      if (b.rma_put(p, dst, src, len, ctr) != am_status::ok) [[unlikely]]
        rma_retry(c, [&] { return b.rma_put(p, dst, src, len, ctr); });
      return true;
    }
  }
  return false;
}

/// How long a put's source stays as it was: for the call only (put, bulk_put:
/// docs/api.md promises the source has been read when they return), or until the
/// put's counter reaches zero (bulk_write, which waits for that itself): then a
/// backend with zero-copy long messages may send from it in place
/// (has_zero_copy_long).
enum class source_lifetime : bool { call, until_sync };

// Active-message paths for transfers longer than am_inline_bytes, cut into
// long-message fragments (src/global_memory.cpp).
void get_am(context& c, void* dst, proc_t p, const void* src, std::size_t len, counter& ctr);
void put_am(context& c, proc_t p, void* dst, const void* src, std::size_t len, counter& ctr,
            source_lifetime source);
void store_am(context& c, proc_t p, void* dst, const void* src, std::size_t len,
              counter* remote_counter);

/// Up to this many bytes travel inside one short message: three words of
/// addressing, then the data in the remaining argument words (five on most
/// backends, one word on a four-word layer such as the CM-5's).
inline constexpr std::size_t am_inline_bytes =
    static_cast<std::size_t>(native_args - 3) * sizeof(am_word);
inline am_word as_word(const void* p) noexcept { return reinterpret_cast<std::uintptr_t>(p); }

/// One short message (addressing words a0, a1 = len, a2; then the data).
/// Inlined into each operation: `len` is a constant there, so the copy is
/// a few fixed-size moves, not a call (it is half the sender's cost of a
/// one-word store otherwise).
[[gnu::always_inline]] inline void request_with_data(context& c, proc_t p, builtin handler,
                                                     am_word a0, std::size_t len, am_word a2,
                                                     const void* data) {
  am_word a[am_max_args];
  a[0] = a0;
  a[1] = len;
  a[2] = a2;
  const int data_words = static_cast<int>((len + 7) / 8);
  if (len % 8 != 0) a[2 + data_words] = 0;  // no stray bytes on the wire
  std::memcpy(&a[3], data, len);
  request(c, am_kind::short_msg, p, id(handler), a, 3 + data_words);
}

[[gnu::always_inline]] inline void get_remote(context& c, void* dst, proc_t p, const void* src,
                                              std::size_t len, counter& ctr) {
  if (len > am_inline_bytes) return get_am(c, dst, p, src, len, ctr);
  const am_word a[4] = {as_word(src), len, as_word(dst), as_word(&ctr)};
  ctr.add_local(1);
  request(c, am_kind::short_msg, p, id(builtin::get_request), a, 4);
}
[[gnu::always_inline]] inline void put_remote(context& c, proc_t p, void* dst, const void* src,
                                              std::size_t len, counter& ctr,
                                              source_lifetime source) {
  if (len > am_inline_bytes) return put_am(c, p, dst, src, len, ctr, source);
  ctr.add_local(1);
  request_with_data(c, p, builtin::put_request, as_word(dst), len, as_word(&ctr), src);
}
[[gnu::always_inline]] inline void store_remote(context& c, proc_t p, void* dst, const void* src,
                                                std::size_t len, counter* remote_counter) {
  if (len > am_inline_bytes) return store_am(c, p, dst, src, len, remote_counter);
  request_with_data(c, p, builtin::store, as_word(dst), len, as_word(remote_counter), src);
}

/// The library's byte counter for stores into this processor. A store names
/// the receiver's counter by 0 for this one (wherever the receiver keeps it:
/// context::shared), or by the address of the program's own counter, which
/// must be the same on the receiver.
inline counter* library_store_counter(context& c) noexcept { return &c.shared->store_received; }

/// A store through the backend's RMA store member (has_rma_store), for targets
/// the layer reaches and bytes counted on the library's counter; from the main
/// line only, as rma_put.
template <class B>
inline bool rma_store(B& b, context& c, proc_t p, void* dst, const void* src, std::size_t len,
                      const counter& received) {
  if constexpr (has_rma_store<B>) {
    if (&received == library_store_counter(c) && !c.frame.active && b.rma_reaches(p, dst, len)) {
      if (b.rma_store(p, dst, src, len) != am_status::ok) [[unlikely]]
        rma_retry(c, [&] { return b.rma_store(p, dst, src, len); });
      return true;
    }
  }
  return false;
}

// The active-message tails as calls, where am_tail_called (below): on a backend with RMA
// members, or with direct access to its own host's peers only, the one-sided or mapped path is
// the common one, and the whole get or put is inlined into the program's call (get_value,
// put_value) with the rarer tail out of line.
[[gnu::noinline]] inline void get_remote_call(context& c, void* dst, proc_t p, const void* src,
                                              std::size_t len, counter& ctr) {
  get_remote(c, dst, p, src, len, ctr);
}
[[gnu::noinline]] inline void put_remote_call(context& c, proc_t p, void* dst, const void* src,
                                              std::size_t len, counter& ctr,
                                              source_lifetime source) {
  put_remote(c, p, dst, src, len, ctr, source);
}
/// The short put's tail with its data already in words (put_bytes_as): had the call taken the
/// program's value by address, the value would have lived in memory, stored at every put, for
/// the call's sake alone (smp's mapped put 1.00 -> 1.24 ns).
[[gnu::noinline]] inline void put_short_call(context& c, proc_t p, void* dst, const am_word* data,
                                             std::size_t len, counter& ctr) {
  ctr.add_local(1);
  request_with_data(c, p, builtin::put_request, as_word(dst), len, as_word(&ctr), data);
}

/// A local or mapped copy of len bytes; of one Value where the program's call names its type
/// (get_value, put_value). A scalar goes by a load and a store of its type, which the compiler
/// knows changes no other kind of object; a memcpy's store may change any, so after it the
/// runtime's pointer was loaded and tested again (a mapped get and its sync loaded it twice).
template <class Value>
[[gnu::always_inline]] inline void copy_in(void* dst, const void* src, std::size_t len) noexcept {
  if constexpr (std::is_scalar_v<Value> && !std::is_volatile_v<Value>)
    *static_cast<Value*>(dst) = *static_cast<const Value*>(src);
  else std::memcpy(dst, src, len);
}

/// A get of len bytes by the first path that reaches the target: a local copy, a
/// mapped peer segment, the layer's RMA, an active message (inlined, or a call:
/// CallTail). True when the bytes have moved (a local or mapped copy), false when the
/// transfer is counted on ctr: read and write then test their counter only when it may
/// count, so that a mapped read does not reload it after the copy. Value: copy_in's.
template <bool CallTail, class Value = void>
[[gnu::always_inline]] inline bool get_bytes_as(context& c, void* dst, proc_t p, const void* src,
                                                std::size_t len, counter& ctr, const char* op) {
  if (p == c.myproc) [[likely]] {
    if (src == nullptr) [[unlikely]] null_target(c, p, op);
    copy_in<Value>(dst, src, len);
    return true;
  }
  check_remote(c, p, src, op);
  if (void* d = direct(c, p, src, len)) {
    copy_in<Value>(dst, d, len);
    return true;
  }
  if (rma_get(c.backend, c, dst, p, src, len, ctr)) return false;
  if constexpr (CallTail) get_remote_call(c, dst, p, src, len, ctr);
  else get_remote(c, dst, p, src, len, ctr);
  return false;
}
inline bool get_bytes(context& c, void* dst, proc_t p, const void* src, std::size_t len,
                      counter& ctr, const char* op) {
  return get_bytes_as<false>(c, dst, p, src, len, ctr, op);
}

/// A put, as get_bytes_as gets.
template <bool CallTail, class Value = void>
[[gnu::always_inline]] inline bool put_bytes_as(context& c, proc_t p, void* dst, const void* src,
                                                std::size_t len, counter& ctr, const char* op,
                                                source_lifetime source) {
  if (p == c.myproc) [[likely]] {
    if (dst == nullptr) [[unlikely]] null_target(c, p, op);
    copy_in<Value>(dst, src, len);
    return true;
  }
  check_remote(c, p, dst, op);
  if (void* d = direct(c, p, dst, len)) {
    copy_in<Value>(d, src, len);
    return true;
  }
  if (rma_put(c.backend, c, p, dst, src, len, ctr)) return false;
  if constexpr (CallTail) {
    if (len <= am_inline_bytes) {
      am_word words[am_inline_bytes / sizeof(am_word)] = {};
      std::memcpy(words, src, len);
      put_short_call(c, p, dst, words, len, ctr);
    } else {
      put_remote_call(c, p, dst, src, len, ctr, source);
    }
  } else {
    put_remote(c, p, dst, src, len, ctr, source);
  }
  return false;
}
inline bool put_bytes(context& c, proc_t p, void* dst, const void* src, std::size_t len,
                      counter& ctr, const char* op,
                      source_lifetime source = source_lifetime::call) {
  return put_bytes_as<false>(c, p, dst, src, len, ctr, op, source);
}

/// Whether the program's get, put, read and write inline their one-sided or mapped path and
/// call the active-message tail (get_remote_call, put_short_call): on a backend with RMA
/// members, or with direct access to the peers of its own host only (has_host_members: udp and
/// mpi under the same-host layer), whose mapped path must stay a few instructions. Elsewhere the
/// whole path is inlined, the message too, as the seed's Figure 2 inlines it: on smp, where every
/// peer is mapped, a call for the message to memory outside the segments cost 8-11 ns (1.12-1.23x
/// on Table 4's rows). Left to GCC's limits instead, a mapped read's direct test, or the whole
/// get, became a call as a program's unit grew (shmem's read of a mapped peer 1.2 -> 2.1 ns;
/// mpi's and udp's reads called direct_in: docs/ports.md, "The mapped path inlined").
template <class B = active_backend>
inline constexpr bool am_tail_called =
    has_rma<B> || (B::caps.direct_access && has_host_members<B>);

/// One value's get or put, as the program's get, put, read and write make it: whole, inlined,
/// the active-message tail a call where am_tail_called, a local or mapped copy by the value's
/// type (copy_in). True when the bytes have moved (get_bytes_as).
template <class T, class B = active_backend>
[[gnu::always_inline]] inline bool get_value(context& c, T* dst, proc_t p, const T* src,
                                             counter& ctr, const char* op) {
  return get_bytes_as<am_tail_called<B>, T>(c, dst, p, src, sizeof(T), ctr, op);
}
template <class T, class B = active_backend>
[[gnu::always_inline]] inline bool put_value(context& c, proc_t p, T* dst, const T* src,
                                             counter& ctr, const char* op) {
  return put_bytes_as<am_tail_called<B>, T>(c, p, dst, src, sizeof(T), ctr, op,
                                            source_lifetime::call);
}

/// Before a wait for the gets and puts counted on ctr: the backend's RMA
/// transfers completed without a poll, where it can (has_rma_flush).
template <class B = active_backend>
inline void flush_rma(context& c, const counter& ctr) {
  if constexpr (has_rma_flush<B>) {
    B& backend = c.backend;
    if (ctr.value() != 0 && !c.frame.active) backend.rma_flush();
  }
}

/// sync()'s wait, out of line: the program's sync inlines only the test that
/// nothing is outstanding (every get and put done already: on smp always).
[[gnu::noinline]] inline void sync_wait(context& c, counter& ctr, const char* what) {
  flush_rma(c, ctr);
  wait_until(c, what, [&] { return ctr.value() == 0; });
}

inline void store_bytes(context& c, proc_t p, void* dst, const void* src, std::size_t len,
                        counter& received, counter& sent, const char* op) {
  sent.add_local(static_cast<std::int64_t>(len));
  if (p == c.myproc) [[likely]] {
    if (dst == nullptr) [[unlikely]] null_target(c, p, op);
    std::memcpy(dst, src, len);
    received.add_shared(static_cast<std::int64_t>(len));
    return;
  }
  check_remote(c, p, dst, op);
  if (void* d = direct(c, p, dst, len)) {
    if (void* rc = direct(c, p, &received, sizeof(counter))) {
      std::memcpy(d, src, len);
      static_cast<counter*>(rc)->add_shared(static_cast<std::int64_t>(len));
      return;
    }
  }
  if (rma_store(c.backend, c, p, dst, src, len, received)) return;
  // The library's counter travels as 0: the receiver's own may be elsewhere
  // (context::shared). The program's own is named by the receiver's copy (placed).
  store_remote(c, p, dst, src, len,
               &received == library_store_counter(c) ? nullptr : placed(p, &received));
}

}  // namespace detail

// ---- direct access ---------------------------------------------------------

/// Where this processor can load and store the object `p` names: its own
/// memory, or a peer's segment mapped here (every peer on smp; peers on the
/// same host under the network backends' same-host layer). nullptr when the
/// object is reached only through messages (another host, memory outside the
/// segment, the layer off). Plain loads and stores through it are not ordered
/// with the owner's other accesses: use it for data the program synchronises
/// (a barrier, a flag written last), as UPC++'s global_ptr::local() is used.
template <class T>
inline T* direct_pointer(global_ptr<T> p) noexcept {
  auto& c = detail::ctx();
  if (p.proc() == c.myproc) return p.address();
  if (static_cast<unsigned>(p.proc()) >= static_cast<unsigned>(c.procs) || p.address() == nullptr)
    return nullptr;
  return static_cast<T*>(detail::direct(c, p.proc(), p.address(), sizeof(T)));
}

// ---- get / put: split-phase, completed by sync() ------------------------
// These and read and write are always inlined, as the seed's global-memory routines are (its
// §3.2: "unlike global memory routines, the bulk transfer routines are not inlined"): a
// mapped access is then a few instructions in the program's loop, not a call GCC's limits chose.

template <transferable T>
[[gnu::always_inline]] inline void get(T* dst, global_ptr<T> src, counter& ctr) {
  auto& c = detail::ctx();
  detail::get_value(c, dst, src.proc(), src.address(), ctr, "get");
}
template <transferable T>
[[gnu::always_inline]] inline void get(T* dst, global_ptr<T> src) {
  auto& c = detail::ctx();
  detail::get_value(c, dst, src.proc(), src.address(), c.get_put, "get");
}
template <transferable T>
[[gnu::always_inline]] inline void put(global_ptr<T> dst, const T& value, counter& ctr) {
  auto& c = detail::ctx();
  detail::put_value(c, dst.proc(), dst.address(), &value, ctr, "put");
}
template <transferable T>
[[gnu::always_inline]] inline void put(global_ptr<T> dst, const T& value) {
  auto& c = detail::ctx();
  detail::put_value(c, dst.proc(), dst.address(), &value, c.get_put, "put");
}

// ---- read / write: blocking; each waits only for itself ------------------

template <transferable T>
[[gnu::always_inline]] inline std::remove_const_t<T> read(global_ptr<T> src) {
  auto& c = detail::ctx();
  std::remove_const_t<T> value;
  if (src.proc() == c.myproc && src.address() != nullptr) [[likely]] {
    detail::copy_in<std::remove_const_t<T>>(&value, src.address(), sizeof(T));
    return value;
  }
  counter mine;
  if (!detail::get_value(c, &value, src.proc(), src.address(), mine, "read") &&
      mine.value() != 0)
    detail::sync_wait(c, mine, "read");
  return value;
}
template <transferable T>
[[gnu::always_inline]] inline void write(global_ptr<T> dst, const T& value) {
  auto& c = detail::ctx();
  if (dst.proc() == c.myproc && dst.address() != nullptr) [[likely]] {
    detail::copy_in<T>(dst.address(), &value, sizeof(T));
    return;
  }
  counter mine;
  if (!detail::put_value(c, dst.proc(), dst.address(), &value, mine, "write") &&
      mine.value() != 0)
    detail::sync_wait(c, mine, "write");
}

// ---- store: one-way; counted in bytes at the receiver --------------------

template <transferable T>
inline void store(global_ptr<T> dst, const T& value) {
  auto& c = detail::ctx();
  detail::store_bytes(c, dst.proc(), dst.address(), &value, sizeof(T),
                      *detail::library_store_counter(c), c.store_sent_bytes, "store");
}
/// `received` names a counter at the same address on the receiver (a static
/// or spread-heap counter); `sent` is counted here.
template <transferable T>
inline void store(global_ptr<T> dst, const T& value, counter& received, counter& sent) {
  auto& c = detail::ctx();
  detail::store_bytes(c, dst.proc(), dst.address(), &value, sizeof(T), received, sent, "store");
}

// ---- completion -----------------------------------------------------------

/// Wait for every get and put issued with the library counter.
inline void sync() {
  auto& c = detail::ctx();
  if (c.get_put.value() != 0) detail::sync_wait(c, c.get_put, "sync");
}
inline bool is_sync() {
  auto& c = detail::ctx();
  if (c.get_put.value() != 0) detail::poll_in_loop(c);
  return c.get_put.value() == 0;
}
inline void sync(counter& ctr) {
  auto& c = detail::ctx();
  if (ctr.value() != 0) detail::sync_wait(c, ctr, "sync_ctr");
}
inline bool is_sync(counter& ctr) {
  auto& c = detail::ctx();
  if (ctr.value() != 0) detail::poll_in_loop(c);
  return ctr.value() == 0;
}
inline void sync_ctr(counter& ctr) { sync(ctr); }
inline bool is_sync_ctr(counter& ctr) { return is_sync(ctr); }

namespace detail {
[[gnu::cold, noreturn]] void bad_count(context& c, long long n, const char* what, const char* op);

/// store_sync and is_store_sync under the name the program called.
inline void store_sync_as(context& c, std::int64_t bytes, counter& received, counter& sent,
                          const char* op) {
  if (bytes < 0) [[unlikely]] bad_count(c, bytes, "byte count", op);
  wait_until(c, op, [&] { return received.value() >= bytes; });
  received.add_shared(-bytes);
  sent.add_local(-bytes);
}
inline bool is_store_sync_as(context& c, std::int64_t bytes, counter& received, counter& sent,
                             const char* op) {
  if (bytes < 0) [[unlikely]] bad_count(c, bytes, "byte count", op);
  if (received.value() < bytes) poll_in_loop(c);
  if (received.value() < bytes) return false;
  received.add_shared(-bytes);
  sent.add_local(-bytes);
  return true;
}
}  // namespace detail

/// Wait until `bytes` have been stored into this processor, then take them
/// off both counters (so store_sync and all_store_sync mix). A negative
/// count is a fatal error.
inline void store_sync(std::int64_t bytes, counter& received, counter& sent) {
  detail::store_sync_as(detail::ctx(), bytes, received, sent, "store_sync");
}
inline bool is_store_sync(std::int64_t bytes, counter& received, counter& sent) {
  return detail::is_store_sync_as(detail::ctx(), bytes, received, sent, "is_store_sync");
}
inline void store_sync(std::int64_t bytes) {
  auto& c = detail::ctx();
  detail::store_sync_as(c, bytes, *detail::library_store_counter(c), c.store_sent_bytes,
                        "store_sync");
}
inline bool is_store_sync(std::int64_t bytes) {
  auto& c = detail::ctx();
  return detail::is_store_sync_as(c, bytes, *detail::library_store_counter(c), c.store_sent_bytes,
                                  "is_store_sync");
}
/// Collective: returns once every store issued by any processor has arrived.
void all_store_sync();
/// Forget the bytes stored into this processor so far (Split-C's
/// reset_store_sync): the received count the program sees goes to zero. The
/// same bytes are taken off this processor's sent count, as store_sync takes
/// them, so all_store_sync still balances (stores in flight at the reset
/// are counted when they arrive).
void reset_store_sync();

// ---- dereference proxy ------------------------------------------------------

/// What `*gp` and `gp[i]` yield: reading converts, assignment writes. As in
/// Split-C, a compound assignment or an increment through a global pointer
/// is a read followed by a write (two operations, not an atomic one: use
/// splitc/atomics.hpp for that). `ref.member(&S::field)` is the field of a
/// struct element (gp->field cannot yield a proxy in C++); `&ref` gives the
/// pointer back.
template <class T>
class global_ref {
 public:
  explicit global_ref(global_ptr<T> p) noexcept : p_(p) {}
  operator std::remove_const_t<T>() const { return read(p_); }
  const global_ref& operator=(const std::remove_const_t<T>& value) const
    requires(!std::is_const_v<T>)
  {
    write(p_, value);
    return *this;
  }
  const global_ref& operator=(const global_ref& other) const
    requires(!std::is_const_v<T>)
  {
    write(p_, static_cast<T>(other));
    return *this;
  }
  global_ptr<T> operator&() const noexcept { return p_; }

  /// The field `m` of the struct this refers to, as a reference (an array
  /// field: &ref.member is not available, use member_of(&ref, m)).
  template <class M, class S>
    requires(detail::data_member_of<T, M, S> && !std::is_array_v<M>)
  global_ref<detail::member_type<T, M>> member(M S::* m) const noexcept {
    return global_ref<detail::member_type<T, M>>(member_of(p_, m));
  }

  // Compound assignment: read, combine locally, write back.
#define SPLITC_COMPOUND(op)                                                   \
  template <class U>                                                          \
    requires(!std::is_const_v<T> && requires(T& a, const U& b) { a op b; })   \
  const global_ref& operator op(const U& rhs) const {                         \
    T value = read(p_);                                                       \
    value op rhs;                                                             \
    write(p_, value);                                                         \
    return *this;                                                             \
  }
  SPLITC_COMPOUND(+=)
  SPLITC_COMPOUND(-=)
  SPLITC_COMPOUND(*=)
  SPLITC_COMPOUND(/=)
  SPLITC_COMPOUND(%=)
  SPLITC_COMPOUND(&=)
  SPLITC_COMPOUND(|=)
  SPLITC_COMPOUND(^=)
  SPLITC_COMPOUND(<<=)
  SPLITC_COMPOUND(>>=)
#undef SPLITC_COMPOUND

  /// ++*gp, --*gp: read, step, write; the reference again.
  const global_ref& operator++() const
    requires(!std::is_const_v<T> && requires(T& a) { ++a; })
  {
    T value = read(p_);
    ++value;
    write(p_, value);
    return *this;
  }
  const global_ref& operator--() const
    requires(!std::is_const_v<T> && requires(T& a) { --a; })
  {
    T value = read(p_);
    --value;
    write(p_, value);
    return *this;
  }
  /// (*gp)++, (*gp)--: read, step, write; the value read.
  T operator++(int) const
    requires(!std::is_const_v<T> && requires(T& a) { ++a; })
  {
    T value = read(p_);
    const T old = value;
    ++value;
    write(p_, value);
    return old;
  }
  T operator--(int) const
    requires(!std::is_const_v<T> && requires(T& a) { --a; })
  {
    T value = read(p_);
    const T old = value;
    --value;
    write(p_, value);
    return old;
  }

 private:
  global_ptr<T> p_;
};

// ---- what must not be written -------------------------------------------------

namespace detail {
template <class>
inline constexpr bool always_false = false;
}  // namespace detail

/// store(gp, *other): a store's value must be local (Split-C's `:-` stores a
/// local value); read the remote one first.
template <class T, class U>
void store(global_ptr<T>, const global_ref<U>&) {
  static_assert(detail::always_false<U>,
                "splitc::store: the value stored must be local, not a remote reference; read it "
                "first (T v = *gp;) and store v");
}
template <class T, class U>
void store(global_ptr<T>, const global_ref<U>&, counter&, counter&) {
  static_assert(detail::always_false<U>,
                "splitc::store: the value stored must be local, not a remote reference; read it "
                "first (T v = *gp;) and store v");
}
/// put(gp, *other): likewise, a put sends a local value.
template <class T, class U>
void put(global_ptr<T>, const global_ref<U>&) {
  static_assert(detail::always_false<U>,
                "splitc::put: the value put must be local, not a remote reference; read it first "
                "(T v = *gp;) and put v");
}
template <class T, class U>
void put(global_ptr<T>, const global_ref<U>&, counter&) {
  static_assert(detail::always_false<U>,
                "splitc::put: the value put must be local, not a remote reference; read it first "
                "(T v = *gp;) and put v");
}

}  // namespace splitc
