// Teams: ordered subsets of the processors that run collectives among themselves (the rows
// and columns of a processor grid, the processes of one host, the halves of a
// divide-and-conquer). A member is numbered by its rank in the team; MYPROC and PROCS stay the
// world's.
//
//   team::world()              every processor, rank == processor
//   t.split(color, key)        collective over t: one new team per color, ranked by key, then
//                              by rank in t; color team::no_color gives no team (an empty one)
//   t.split_by_host()          collective over t: the members of t on this host (sharing memory)
//   grid_rows / grid_columns   (grid_teams.hpp) the rows and columns of a 2-D block-cyclic
//                              spread array's processor grid
//   t.destroy()                collective over t: frees its channels
//
// Every collective of collectives.hpp and exchanges.hpp takes a team as its first argument.
// A team has its own mailbox channels (a region of the spread heap, the same address on every
// member), so collectives on different teams never wait behind each other's messages; teams
// nest to any depth. On one team, every member calls the same collectives in the same order.
// A team is a handle that cannot be copied (moved, it stays one team); destroying it is
// collective, and a team that is never destroyed keeps its channels until the job ends.
#pragma once

#include <splitc/detail/mailbox.hpp>
#include <splitc/runtime.hpp>
#include <splitc/spread_ptr.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace splitc {

namespace detail {
/// What a member keeps of a team (not the world's): its members and its channels.
struct team_state {
  std::vector<proc_t> members;  ///< rank -> processor
  proc_t rank = 0;              ///< this processor's
  mailbox_state mail;           ///< the team's channels, numbered by rank
  spread_ptr<void> region;      ///< the channels' memory (the leader frees it)
};
}  // namespace detail

class team {
 public:
  /// Color of split()'s members that join no team.
  static constexpr int no_color = -1;

  /// Every processor of the job.
  static team world() noexcept { return team(kind::world); }

  /// An empty team (what split() gives a processor that named no_color).
  team() noexcept = default;
  team(team&&) noexcept = default;
  team& operator=(team&&) noexcept = default;
  team(const team&) = delete;
  team& operator=(const team&) = delete;
  ~team() = default;

  /// Collective over this team: the members that name the same non-negative color form a new
  /// team, ranked by `key` and then by their rank here. A member naming no_color gets an empty
  /// team.
  [[nodiscard]] team split(int color, int key) const;
  /// Collective over this team: its members on this processor's host, ranked as here. A host is
  /// what the backend reports as processes sharing memory (the network backends' same-host
  /// groups: with that layer off, each process is a host of its own); on a backend that reports
  /// nothing, the processes whose host names are equal.
  [[nodiscard]] team split_by_host() const;
  /// Collective over the team: every member must call it; the channels are freed once every
  /// member's messages on them are consumed. The world cannot be destroyed; an empty team's
  /// destroy does nothing.
  void destroy();

  /// False for an empty team.
  [[nodiscard]] bool valid() const noexcept { return kind_ != kind::none; }
  explicit operator bool() const noexcept { return valid(); }
  [[nodiscard]] bool is_world() const noexcept { return kind_ == kind::world; }
  /// Members (0 for an empty team).
  [[nodiscard]] proc_t size() const noexcept;
  /// This processor's rank.
  [[nodiscard]] proc_t rank() const noexcept;
  /// The processor of a rank (rank in 0..size()-1).
  [[nodiscard]] proc_t proc(proc_t rank) const;
  /// The rank of a processor, or -1 when it is not a member.
  [[nodiscard]] proc_t rank_of(proc_t processor) const noexcept;

  /// The channels of one collective call (collectives.hpp); fails on an empty team. A blocking
  /// call first completes the team's split-phase collectives in flight; a split-phase one
  /// queues behind them (detail/split_phase.hpp). The checks earlier broadcasts left are made
  /// first, unless a blocking broadcast of the world asks to leave them to checked_broadcast
  /// (`broadcast`).
  [[nodiscard]] detail::collective_group group(const char* what, std::uint64_t signature,
                                               bool split_phase = false,
                                               bool broadcast = false) const;

  /// A team of the given members (ranked as listed) whose channels `state` already holds.
  explicit team(std::unique_ptr<detail::team_state> state) noexcept
      : kind_(kind::member), state_(std::move(state)) {}

 private:
  enum class kind : unsigned char { none, world, member };
  explicit team(kind k) noexcept : kind_(k) {}
  kind kind_ = kind::none;
  std::unique_ptr<detail::team_state> state_;
};

}  // namespace splitc
