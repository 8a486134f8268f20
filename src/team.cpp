// Teams (team.hpp): what a handle answers, how split() forms new teams and gives them channels
// of their own, and how destroy() frees those once nothing can still arrive in them.
#include <splitc/atomics.hpp>
#include <splitc/backend.hpp>
#include <splitc/detail/split_phase.hpp>
#include <splitc/exchanges.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/spread_heap.hpp>
#include <splitc/team.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <utility>

namespace splitc {

namespace {

using detail::collective_group;
using detail::context;

/// A team's region: the channels (mailbox_state::region_bytes), then one line whose first word
/// counts the members that have finished with the team (destroy).
std::size_t team_region_bytes(std::size_t members) {
  return detail::mailbox_state::region_bytes(members) + 64;
}
std::int64_t* finished_count(unsigned char* region, std::size_t members) {
  return reinterpret_cast<std::int64_t*>(region + detail::mailbox_state::region_bytes(members));
}

/// PORTING.md's optional `discard_segment_pages(at, len)`: whole pages of this processor's
/// segment given back, reading as zero afterwards (the sim engine's ports). Only a team's
/// creation uses it, so it is told apart here rather than in port/am.hpp.
template <class B>
concept has_page_discard =
    requires(void* at, std::size_t len) { B::discard_segment_pages(at, len); };

/// Every acknowledgement word, slot sequence word and the finished count at zero. Only the
/// words not zero already are written: a fresh region's pages stay untouched until used.
/// Where the backend gives pages back as zero, the region's whole pages are given back and only
/// the words outside them are looked at: reading a word of every slot would touch every page
/// of the region (4 MiB on each member of a team of 1024 on the sim, which this machine's
/// kernel commits even for a read: docs/sim.md, "Scaling"). (A template, so that the call of
/// the optional member is compiled only for a backend that has it.)
template <class Backend>
void clear_channels(detail::mailbox_state& m, std::size_t members) {
  std::uintptr_t given_back_from = 0, given_back_to = 0;
  if constexpr (has_page_discard<Backend>) {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(m.region);
    const std::uintptr_t from = (begin + page - 1) & ~(page - 1);
    const std::uintptr_t to = (begin + team_region_bytes(members)) & ~(page - 1);
    if (to > from) {
      Backend::discard_segment_pages(reinterpret_cast<void*>(from), to - from);
      given_back_from = from;
      given_back_to = to;
    }
  }
  auto given_back = [&](const void* word) {
    const auto at = reinterpret_cast<std::uintptr_t>(word);
    return at >= given_back_from && at < given_back_to;
  };
  auto clear = [&](std::atomic<std::uint64_t>& word) {
    if (!given_back(&word) && word.load(std::memory_order_relaxed) != 0)
      word.store(0, std::memory_order_relaxed);
  };
  for (std::size_t q = 0; q < members; ++q) {
    clear(*m.ack_word(q));
    for (std::uint64_t k = 0; k < m.depth(); ++k) clear(m.slot(q, k)->sequence);
  }
  std::int64_t* finished = finished_count(m.region, members);
  if (!given_back(finished) && *finished != 0) *finished = 0;
}

constexpr std::uint64_t split_signature =
    detail::collective_signature<detail::collective_kind::team_split, void, void>;
constexpr std::uint64_t barrier_signature =
    detail::collective_signature<detail::collective_kind::barrier, void, void>;

/// One member's part in a split: its color and key, as every member of the parent sees them.
struct split_entry {
  std::int64_t color;
  std::int64_t key;
};

/// Everyone's value of one word, over the parent's channels.
template <class T>
std::vector<T> exchange_all(collective_group& g, T mine) {
  std::vector<T> all(static_cast<std::size_t>(g.size));
  const std::vector<std::size_t> ones(static_cast<std::size_t>(g.size), 1);
  detail::all_gather_on(g, std::span<const T>(&mine, 1), std::span<T>(all),
                        std::span<const std::size_t>(ones));
  return all;
}

}  // namespace

proc_t team::size() const noexcept {
  switch (kind_) {
    case kind::world: return detail::ctx().procs;
    case kind::member: return static_cast<proc_t>(state_->members.size());
    case kind::none: break;
  }
  return 0;
}

proc_t team::rank() const noexcept {
  switch (kind_) {
    case kind::world: return detail::ctx().myproc;
    case kind::member: return state_->rank;
    case kind::none: break;
  }
  return -1;
}

proc_t team::proc(proc_t r) const {
  if (static_cast<unsigned>(r) >= static_cast<unsigned>(size())) [[unlikely]]
    port::fail("team::proc: rank {} is out of range (the team has ranks 0..{})", r, size() - 1);
  return kind_ == kind::world ? r : state_->members[static_cast<std::size_t>(r)];
}

proc_t team::rank_of(proc_t processor) const noexcept {
  switch (kind_) {
    case kind::world:
      return static_cast<unsigned>(processor) < static_cast<unsigned>(detail::ctx().procs) ? processor : -1;
    case kind::member: {
      const auto& m = state_->members;
      const auto at = std::find(m.begin(), m.end(), processor);
      return at == m.end() ? -1 : static_cast<proc_t>(at - m.begin());
    }
    case kind::none: break;
  }
  return -1;
}

detail::collective_group team::group(const char* what, std::uint64_t signature,
                                     bool split_phase, bool broadcast) const {
  context& c = detail::blocking_context(what);
  // Each group is returned as it is made (copy elision), never built on the stack and copied
  // out: that copy's 16-byte loads of fields just stored 8 bytes at a time cannot be forwarded
  // from the stores, so they waited for every older store to reach the cache -- the last
  // collective's store into a peer's mailbox slot among them, a cross-core transfer. An 8-byte
  // scatter at P = 2 spent 27 % of the root's time there (docs/performance.md).
  switch (kind_) {
    case kind::world: {
      if (!split_phase && c.split_phase_in_flight != 0) detail::finish_split_phase(c, c.mail);
      const auto world = [&] {
        return collective_group{c, c.mail, nullptr, c.myproc, c.procs, signature, -1, !split_phase,
                                split_phase};
      };
      const detail::mailbox_state& m = c.mail;
      if ((!broadcast || split_phase) &&
          (m.unchecked_count | m.owed_count | m.announced_ahead[0] | m.announced_ahead[1]) != 0) {
        collective_group g = world();
        if (broadcast)
          detail::settle_root_check(g);
        else
          detail::settle_before_other_collective(g);
      }
      return world();
    }
    case kind::member: {
      if (!split_phase && c.split_phase_in_flight != 0) detail::finish_split_phase(c, state_->mail);
      // A team's broadcast checks its root before it returns, as a split-phase one does: the
      // world's root may leave it to a later poll (progress.cpp), which cannot see a team's.
      const auto member = [&] {
        return collective_group{c, state_->mail, state_->members.data(), state_->rank,
                                static_cast<proc_t>(state_->members.size()), signature, -1, false,
                                true};
      };
      if (state_->mail.unchecked_count != 0) {
        collective_group g = member();
        detail::settle_root_check(g);
      }
      return member();
    }
    case kind::none: break;
  }
  port::fail("{}: called on an empty team (what split() gives a member that names no_color)", what);
}

team team::split(int color, int key) const {
  auto g = group("team::split", split_signature);
  if (color < 0 && color != no_color) [[unlikely]]
    port::fail("team::split: color {} is negative; the only negative color is team::no_color ({})",
               color, no_color);
  const auto entries = exchange_all(g, split_entry{color, key});
  // My new team: the members of my color, by key and then by rank here.
  std::vector<std::pair<std::int64_t, proc_t>> order;
  if (color >= 0)
    for (proc_t r = 0; r < g.size; ++r)
      if (entries[static_cast<std::size_t>(r)].color == color)
        order.emplace_back(entries[static_cast<std::size_t>(r)].key, r);
  std::sort(order.begin(), order.end());
  auto state = std::make_unique<detail::team_state>();
  for (std::size_t i = 0; i < order.size(); ++i) {
    state->members.push_back(g.proc(order[i].second));
    if (order[i].second == g.rank) state->rank = static_cast<proc_t>(i);
  }
  // Each new team's first member takes room for its channels, the same address everywhere.
  const std::size_t n = order.size();
  std::uint64_t address = 0;
  if (color >= 0 && state->rank == 0) {
    state->region = spread_malloc(static_cast<std::size_t>(g.c.procs), team_region_bytes(n));
    if (state->region == nullptr) [[unlikely]]
      port::fail("team::split: no room in the spread heap for the channels of a team of {} "
                 "({} bytes on every processor; SPLITC_SEGMENT_SIZE sets the segment)",
                 n, team_region_bytes(n));
    address = reinterpret_cast<std::uintptr_t>(state->region.address());
  }
  const auto addresses = exchange_all(g, address);
  if (color >= 0) {
    const proc_t first = order.front().second;
    detail::mailbox_state& m = state->mail;
    m.team_region = addresses[static_cast<std::size_t>(first)];
    // This member's copy of the region (the same offset in every segment: global_ptr.hpp).
    m.region = detail::placed(g.c.myproc, reinterpret_cast<unsigned char*>(static_cast<std::uintptr_t>(m.team_region)));
    m.procs = n;
    m.sent.assign(n, 0);
    m.received.assign(n, 0);
    m.acked_seen.assign(n, 0);
    m.source_read_until.assign(n, 0);
    clear_channels<active_backend>(m, n);
  }
  // Nobody sends into a region its owner has not cleared.
  collective_group b = g;
  b.signature = barrier_signature;
  detail::barrier_on(b);
  if (color < 0) return team();
  return team(std::move(state));
}

team team::split_by_host() const {
  const proc_t me = rank();
  context& c = detail::blocking_context("team::split_by_host");
  // Where the backend knows which processors share memory, the group's first names it.
  if (!c.host_group.empty()) return split(c.host_group.front(), me);
  // Else by host name: the color is the lowest rank whose host name is ours.
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) std::strcpy(name.data(), "localhost");
  auto g = group("team::split_by_host", split_signature);
  std::vector<std::array<char, 256>> names(static_cast<std::size_t>(g.size));
  const std::vector<std::size_t> ones(static_cast<std::size_t>(g.size), 1);
  detail::all_gather_on(g, std::span<const std::array<char, 256>>(&name, 1),
                        std::span<std::array<char, 256>>(names), std::span<const std::size_t>(ones));
  proc_t color = 0;
  while (names[static_cast<std::size_t>(color)] != name) ++color;
  return split(color, me);
}

void team::destroy() {
  if (kind_ == kind::none) return;
  if (kind_ == kind::world) [[unlikely]]
    port::fail("team::destroy: the world team cannot be destroyed");
  auto g = group("team::destroy", barrier_signature);
  detail::dissemination_barrier(g);
  // Every message this member sent on the team consumed: nothing more arrives in a region.
  detail::mailbox_quiesce(g);
  detail::mailbox_free_staging(state_->mail);
  const std::size_t n = state_->members.size();
  std::int64_t* finished = finished_count(state_->mail.region, n);
  if (state_->rank != 0) {
    fetch_and_add(global_ptr<std::int64_t>(state_->members.front(), finished), std::int64_t{1});
  } else {
    detail::wait_until(g.c, "team::destroy", [&] {
      return std::atomic_ref<std::int64_t>(*finished).load(std::memory_order_acquire) ==
             static_cast<std::int64_t>(n) - 1;
    });
    spread_free(state_->region);
  }
  state_.reset();
  kind_ = kind::none;
}

void barrier(const team& t) {
  auto g = t.group("barrier", barrier_signature);
  detail::barrier_on(g);
}

namespace detail {
void bad_collective_size(collective_group& g, const char* what, const char* which, std::size_t got,
                         std::size_t needed) {
  port::fail("{}: {} holds {} elements where {} are needed (a team of {} members)", what, which,
             got, needed, g.size);
}
}  // namespace detail

}  // namespace splitc
