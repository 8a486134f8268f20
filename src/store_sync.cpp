// all_store_sync (seed 003 §5.2): the global sum of bytes stored minus bytes
// received is computed until it is zero; then each processor takes what it
// saw off its own counters (rather than zeroing them), so a store that a fast
// processor issues right after returning is never lost.
#include <splitc/detail/wait.hpp>
#include <splitc/global_memory.hpp>

#include <vector>

namespace splitc {

void all_store_sync() {
  auto& c = detail::ctx();
  if (c.frame.active) detail::wait_in_handler(c, "all_store_sync");
  struct tally {
    std::int64_t sent, received;
  };
  std::vector<tally> all(static_cast<std::size_t>(c.procs));
  for (;;) {
    const tally mine{c.store_sent.value(), detail::library_store_counter(c)->value()};
    c.backend.bootstrap_exchange(&mine, sizeof mine, all.data(), c.sink());
    std::int64_t in_flight = 0;
    for (const tally& t : all) in_flight += t.sent - t.received;
    if (in_flight == 0) {
      c.store_sent.add_local(-mine.sent);
      detail::library_store_counter(c)->add_shared(-mine.received);
      return;
    }
    detail::progress(c);
  }
}

}  // namespace splitc
