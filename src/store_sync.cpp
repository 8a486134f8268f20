// all_store_sync (seed 003 §5.2): the global sum of bytes stored minus bytes
// received is computed until it is zero; then each processor takes what it
// saw off its own counters (rather than zeroing them), so a store that a fast
// processor issues right after returning is never lost. reset_store_sync
// takes what arrived off both counts of its processor, so no user call
// unbalances the sums.
#include <splitc/collectives.hpp>
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>


namespace splitc {

void all_store_sync() {
  auto& c = detail::ctx();
  if (c.frame.active) detail::wait_in_handler(c, "all_store_sync");
  for (;;) {
    const std::int64_t sent = c.store_sent_bytes.value();
    const std::int64_t received = detail::library_store_counter(c)->value();
    if (reduce_to_all(sent - received, ops::add{}) == 0) {
      c.store_sent_bytes.add_local(-sent);
      detail::library_store_counter(c)->add_shared(-received);
      return;
    }
    detail::progress(c);
  }
}

void reset_store_sync() {
  auto& c = detail::ctx();
  counter& received = *detail::library_store_counter(c);
  // A store arriving between the read and the subtraction stays counted:
  // exactly what was read is taken off, from both counts.
  const std::int64_t seen = received.value();
  received.add_shared(-seen);
  c.store_sent_bytes.add_local(-seen);
}

}  // namespace splitc
