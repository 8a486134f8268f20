// The ACL layer's per-processor state, its settings, joining and leaving the job, and the
// calls that are splitc's own (self, partition size, sync, time).
#include "layer.hpp"

#include <splitc/collectives.hpp>
#include <splitc/per_processor.hpp>
#include <splitc/port/env.hpp>

#include <fmt/format.h>

#include <memory>

namespace splitc::acl {
namespace {

splitc::per_processor<std::unique_ptr<state>> the_state;

}  // namespace

state& st() {
  auto& slot = the_state.get();
  if (!slot) fatal_error("ACLMPL: a call before ACLMPL_init (or after ACLMPL_finalize)");
  return *slot;
}

/// The default slot: 4 KiB, or the backend's medium limit where smaller (A8: the CM-5 ports
/// compose medium messages above their own limit).
settings settings_from_environment() {
  namespace env = splitc::port::env;
  settings s{};
  const long slots = env::acl_pool_slots.get();
  if (slots < 1 || slots > 65536)
    fatal_error(fmt::format("SPLITC_ACL_POOL_SLOTS={} is not in 1..65536", slots));
  s.pool_slots = static_cast<int>(slots);
  s.slot_bytes = env::acl_slot_bytes.get();
  if (s.slot_bytes < 8 || s.slot_bytes > (std::size_t{1} << 24))
    fatal_error(fmt::format("SPLITC_ACL_SLOT_BYTES={} is not in 8..16M", s.slot_bytes));
  s.slot_bytes = (s.slot_bytes + 7) & ~std::size_t{7};
  return s;
}

void start_layer(int& argc, char**& argv) {
  splitc::init(argc, argv);
  auto& slot = the_state.get();
  slot = std::make_unique<state>();
  state& s = *slot;
  s.config = settings_from_environment();
  start_rendezvous(s);
  start_pool(s);
  splitc::barrier();  // every pool ready before the first fetch-and-increment
}

void stop_layer() {
  state& s = st();
  // Every asynchronous send of this processor taken by its receiver (the pulled ones), then
  // every message of the job that is answered by no one (announcements, pool messages) landed.
  wait_in_layer("ACLMPL_finalize (asynchronous sends not yet received)", [&] {
    for (const mcb& b : s.mcbs)
      if (b.in_use && b.is_send && !b.done) return false;
    return true;
  });
  for (;;) {
    const auto unlanded = static_cast<std::int64_t>(s.slot_sends + s.announcements_sent) -
                          static_cast<std::int64_t>(s.slot_arrivals + s.announce_arrivals);
    if (reduce_to_all(unlanded, ops::add{}) == 0) break;
  }
  stop_pool(s);
  stop_rendezvous(s);
  the_state.get().reset();
}

[[noreturn]] void fail(const char* call, const std::string& why) {
  fatal_error(fmt::format("{}: {}", call, why));
}

void check_node(int node, bool wildcard_allowed, const char* call) {
  if (wildcard_allowed && node == ACLMPL_ANY_NODE) return;
  if (node < 0 || node >= procs())
    fail(call, fmt::format("node {} is not a processor of this partition (0..{}{})", node,
                           procs() - 1, wildcard_allowed ? ", or ACLMPL_ANY_NODE" : ""));
}

void check_tag(int tag, bool wildcard_allowed, const char* call) {
  if (wildcard_allowed && tag == ACLMPL_ANY_TAG) return;
  if (tag < 0)
    fail(call, fmt::format("tag {} is negative{}", tag,
                           wildcard_allowed ? " and not ACLMPL_ANY_TAG" : ""));
}

void check_length(int length, const char* call) {
  if (length < 0) fail(call, fmt::format("length {} is negative", length));
}

}  // namespace splitc::acl

using namespace splitc::acl;

extern "C" {

void ACLMPL_init(int* argc, char*** argv) {
  static int no_argc = 1;
  static char self_exe[] = "/proc/self/exe";
  static char* no_argv_storage[] = {self_exe, nullptr};
  static char** no_argv = no_argv_storage;
  int& c = argc != nullptr ? *argc : no_argc;
  char**& v = argv != nullptr ? *argv : no_argv;
  start_layer(c, v);
}

void ACLMPL_finalize(void) {
  stop_layer();
  splitc::finalize();
}

int ACLMPL_self_address(void) {
  st();
  return splitc::myproc();
}

int ACLMPL_partition_size(void) {
  st();
  return splitc::procs();
}

void ACLMPL_sync_with_nodes(void) {
  st();
  splitc::barrier();
}

double ACLMPL_time(void) { return splitc::get_seconds(); }

int ACLMPL_bytes_received(void) { return st().last_bytes; }
int ACLMPL_msg_sender(void) { return st().last_sender; }
int ACLMPL_msg_tag(void) { return st().last_tag; }

}  // extern "C"
