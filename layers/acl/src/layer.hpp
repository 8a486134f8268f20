// The ACL message-passing layer's state and the pieces its three parts share (README.md):
// the synchronous rendezvous (rendezvous.cpp), the asynchronous pool (pool.cpp) and the global
// operations on the synchronous primitives (global.cpp). Everything mutable lives in one
// object per processor (splitc::per_processor), so that the layer also runs on the sim, whose
// virtual processors share statics.
#pragma once

#include <aclmpl.h>

#include <splitc/splitc.hpp>
#include <splitc/wait.hpp>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <string>
#include <set>
#include <vector>

namespace splitc::acl {

/// Messages of the program and of the layer's own global operations (synchronous: the
/// asynchronous pool carries the program's alone) never match each other.
enum class context : std::uint8_t { user = 0, global = 1 };

/// Settings (SPLITC_ACL_POOL_SLOTS, SPLITC_ACL_SLOT_BYTES): the asynchronous pool's size.
struct settings {
  int pool_slots;
  std::size_t slot_bytes;
};
settings settings_from_environment();

// ---- the synchronous rendezvous (seed Fig. 1) ---------------------------------------------

/// A receiver's request, as it sits in the sender's table (one block per receiver, one writer),
/// in the spread heap: a receiver whose sender's segment is mapped here (smp, peers on one
/// host) writes it with stores, the sequence last with release, as ACL wrote it with puts;
/// others by a short active message whose handler does the same.
struct request_block {
  std::uint64_t buffer;     ///< the receive buffer's address on the receiver
  std::uint64_t capacity;   ///< its length
  std::uint64_t tag;        ///< tag_word(tag or ACLMPL_ANY_TAG, context)
  std::uint64_t sequence;   ///< the receiver's count of requests to this sender (last)
};

/// A sender's announcement that it waits in a synchronous send with no request for it: what
/// an ACLMPL_ANY_NODE receive matches, and what reveals two synchronous sends to each other.
struct announcement {
  int sender;
  std::int32_t tag;
  context ctx;
  std::uint64_t send_number;    ///< the sender's count of synchronous sends to this processor
  bool receiving_from_me;       ///< the sender has a receive posted to (or open for) this one
};

/// A receive this processor has posted to one sender: filled in by the data's handlers.
struct posted_receive {
  char* buffer = nullptr;
  std::size_t capacity = 0;
  std::size_t arrived = 0;
  bool done = false;
  std::int32_t tag = 0;         ///< the message's tag, once it arrived
};

// ---- the asynchronous pool (seed Fig. 2) --------------------------------------------------

enum class slot_state : std::uint8_t { empty, done, received };

/// A slot's header: written by the handler that lands the slot's data, data first.
struct slot_header {
  slot_state state = slot_state::empty;
  int source = 0;
  std::int32_t tag = 0;
  std::uint64_t sequence = 0;   ///< the sender's count of asynchronous sends to this processor
  std::size_t length = 0;
  bool pulled = false;          ///< longer than a slot: the data stay with the sender
  std::uint64_t sender_buffer = 0;
  std::uint64_t sender_mcb = 0;
};

/// A message moved out of the pool when it was reset: the overflow list, in arrival order.
struct overflow_message {
  slot_header header;
  std::vector<char> data;       ///< empty for a pulled message
};

/// A message control block (ACLMPL_mcb is its index in the processor's table).
struct mcb {
  bool in_use = false;
  bool is_send = false;
  bool done = false;
  bool freed = false;           ///< ACLMPL_free_mcb called before completion
  bool handler_run = false;
  int node = 0;                 ///< destination, or the source asked for (maybe ANY_NODE)
  std::int32_t tag = 0;
  const char* send_buffer = nullptr;
  char* receive_buffer = nullptr;
  std::size_t length = 0;       ///< send: the message; receive: the buffer's capacity
  std::size_t bytes = 0;        ///< received (or sent) bytes
  int source = -1;              ///< receive: the message's sender
  std::int32_t message_tag = 0; ///< receive: the message's tag
  ACLMPL_handler handler = nullptr;
  void* handler_arg = nullptr;
};

struct state {
  settings config{};
  handler_id h_request{}, h_announce{}, h_data_medium{}, h_data_long{}, h_data_empty{};
  handler_id h_slot_medium{}, h_slot_long{}, h_slot_pulled{}, h_pulled_done{};
  handler_id h_pool_wait{}, h_pool_wake{};

  // Rendezvous, as a sender: the receivers' requests (P blocks of the spread heap, at the same
  // address everywhere) and what was consumed of them.
  spread_ptr<void> request_memory{};
  request_block* requests = nullptr;            ///< per receiver
  std::vector<std::uint64_t> consumed;          ///< per receiver
  std::vector<std::uint64_t> sends_to;          ///< per receiver: synchronous sends started
  // As a receiver: requests posted, receives in progress, announcements.
  std::vector<std::uint64_t> requests_to;       ///< per sender
  std::vector<posted_receive> receiving;        ///< per sender
  std::vector<std::uint64_t> received_from;     ///< per sender: last send number completed
  std::vector<bool> announced;                  ///< per sender: a live announcement is held
  std::vector<announcement> announcements;      ///< per sender (valid where announced)
  std::deque<int> announce_order;               ///< senders in announcement order
  /// The receive half of the synchronous operation in progress: its source (ANY_NODE while
  /// open), or -2 when there is none. Travels in announcements (deadlock detection).
  int receive_half = -2;
  std::int32_t receive_half_tag = 0;
  /// Announcements and pool messages sent and landed: ACLMPL_finalize waits until every one
  /// sent in the job has landed, so that none arrives after the layer stopped.
  std::uint64_t announcements_sent = 0, announce_arrivals = 0;
  std::uint64_t slot_sends = 0, slot_arrivals = 0;

  // The pool: this processor's fetch-and-increment word and slot data (in the spread heap, at
  // the same address on every processor), the slots' headers, the overflow list.
  spread_ptr<void> pool_memory{};
  std::uint64_t* fai = nullptr;
  char* slot_data = nullptr;
  std::vector<slot_header> slots;
  std::list<overflow_message> overflow;
  std::vector<std::uint64_t> async_sends_to;    ///< per receiver
  std::vector<std::uint64_t> arrived_upto;      ///< per sender: every sequence below arrived
  std::vector<std::set<std::uint64_t>> arrived_early;  ///< per sender: beyond the gap
  std::uint64_t arrivals = 0;                   ///< count, to rescan only when it changed
  std::uint64_t scanned_arrivals = ~std::uint64_t{0};
  std::vector<int> pool_waiters;                ///< senders that found this pool full
  std::vector<bool> pool_woken;                 ///< per receiver: its pool was reset
  std::list<int> posted;                        ///< asynchronous receives, in post order
  bool posted_changed = false;
  std::deque<mcb> mcbs;                         ///< a deque: references stay valid
  std::vector<int> free_mcbs;
  std::vector<int> to_notify;                   ///< completed mcbs whose handler is due

  // The last receive's particulars (ACLMPL_bytes_received, _msg_sender, _msg_tag).
  int last_bytes = 0, last_sender = -1;
  std::int32_t last_tag = 0;
};

state& st();
void start_layer(int& argc, char**& argv);
void stop_layer();

/// An address as an active message's argument word, and back.
inline std::uint64_t word_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
template <class T>
inline T* pointer_of(std::uint64_t w) { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(w)); }
inline std::uint64_t tag_word(std::int32_t tag, context c) {
  return static_cast<std::uint32_t>(tag) | static_cast<std::uint64_t>(c) << 32;
}
inline std::int32_t tag_of(std::uint64_t w) { return static_cast<std::int32_t>(w & 0xffffffffu); }
inline context context_of(std::uint64_t w) { return static_cast<context>((w >> 32) & 0xff); }
inline bool tag_matches(std::int32_t pattern, std::int32_t tag) {
  return pattern == ACLMPL_ANY_TAG || pattern == tag;
}

/// Every wait of the layer: poll until done(), keeping the pool moving meanwhile (what
/// arrives is matched against the posted asynchronous receives, handlers of completed
/// messages run).
void progress_pool();
template <class Done>
void wait_in_layer(const char* what, Done done) {
  splitc::wait_until(what, [&] {
    progress_pool();
    return done();
  });
}

/// Register the handlers and size the tables of each part (collective).
void start_rendezvous(state& s);
void start_pool(state& s);
void stop_rendezvous(state& s);
void stop_pool(state& s);

/// The synchronous operation at the heart of send_block, receive_block and send_and_receive:
/// a receive half (source, tag; null buffer when absent) and a send half, done together.
struct receive_half {
  int source;
  std::int32_t tag;
  void* buffer;
  std::size_t capacity;
};
struct send_half {
  int destination;
  std::int32_t tag;
  const void* buffer;
  std::size_t length;
};
/// Returns the bytes received (0 without a receive half).
std::size_t rendezvous(const receive_half* r, const send_half* s, context c, const char* call);

/// Whether a synchronous sender announced a message this (user) receive would match.
bool sync_message_pending(const state& s, int node, std::int32_t tag);
/// Whether an asynchronous message that arrived would match.
bool async_message_pending(state& s, int node, std::int32_t tag);

/// Argument checks shared by the calls: a processor number and a tag; end the job naming the
/// call and the value.
void check_node(int node, bool wildcard_allowed, const char* call);
void check_tag(int tag, bool wildcard_allowed, const char* call);
void check_length(int length, const char* call);
[[noreturn]] void fail(const char* call, const std::string& why);

}  // namespace splitc::acl
