// Split-phase collectives: a collective started now and completed on a counter (the Split-C
// way, as `:=` completes on one), while the program computes. Each runs the same algorithm as
// its blocking form, on a fiber of its own (Boost.Context, src/split_phase.cpp): where the
// blocking form would wait, the fiber gives the processor back, and every poll -- splitc::poll,
// is_sync, sync, any wait of the runtime -- resumes each collective in flight once.
//
// Ordering rule (as MPI's non-blocking collectives): on one team, collectives -- split-phase or
// blocking -- run in the order they were issued, the same order on every member; a blocking
// collective on a team first completes that team's split-phase ones. Collectives on different
// teams progress independently, in any number.
#pragma once

#include <splitc/counter.hpp>
#include <splitc/detail/mailbox.hpp>

#include <functional>

namespace splitc::detail {

struct context;

/// Start `body` on `g`'s channels, completing on `done` (one operation in flight on it until
/// body returns). `g` must be a split-phase group (native off).
void start_split_phase(const collective_group& g, counter& done,
                       std::function<void(collective_group&)> body);
/// Wait until no split-phase collective on `channels` is in flight.
void finish_split_phase(context& c, const mailbox_state& channels);
/// Wait until none at all is in flight (finalize), then give back their stacks.
void finish_every_split_phase(context& c);
void release_split_phase(context& c);
/// From the progress engine: resume each collective in flight that may run. Non-zero when
/// they moved (sent or consumed a message, or finished): the wait that polled must not back
/// off into sleeping while they work.
int run_split_phase(context& c);

}  // namespace splitc::detail
