// Split-phase collectives: every collective started with a counter and completed by sync or
// is_sync, on the world and on split teams; many in flight at once on one team (completed in
// issue order) and on overlapping teams (world, a split of it, a split of that) interleaved
// with blocking collectives on the same teams; progress driven by polling alone; results
// checked against the sequential answers. Argument: the largest element count per member.
#include "harness.hpp"
#include "per_pair.hpp"

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {

using splitc::team;

std::size_t max_count = 3000;

std::int64_t value(int q, std::size_t i, int salt) {
  return static_cast<std::int64_t>(q) * 1000003 + static_cast<std::int64_t>(i) * 7 + salt;
}

/// Sum over the team's members of value(member, i, salt).
std::int64_t team_sum(const team& t, std::size_t i, int salt, int upto = -1) {
  std::int64_t s = 0;
  for (int k = 0; k < t.size() && (upto < 0 || k <= upto); ++k) s += value(t.proc(k), i, salt);
  return s;
}

void every_collective(const team& t, int salt) {
  const int n = t.size(), r = t.rank();
  const auto un = static_cast<std::size_t>(n);
  for (std::size_t count : {std::size_t{1}, splitc_tests::per_pair(n, 300), splitc_tests::per_pair(n, max_count)}) {
    splitc::counter done;
    std::vector<std::int64_t> mine(count), bc(count), all_sum(count), one(count), inc(count),
        exc(count), gathered(count * un, -1), all(count * un, -1), scattered(count, -1),
        send(count * un), received(count * un, -1), block(count, -1);
    for (std::size_t i = 0; i < count; ++i)
      mine[i] = bc[i] = all_sum[i] = one[i] = inc[i] = exc[i] = value(t.proc(r), i, salt);
    for (std::size_t k = 0; k < count * un; ++k) send[k] = value(t.proc(r), k, salt);
    const int root = n - 1;
    // Everything in flight at once on one team.
    splitc::barrier(t, done);
    splitc::broadcast(t, std::span<std::int64_t>(bc), root, done);
    splitc::reduce_to_all(t, std::span<std::int64_t>(all_sum), splitc::ops::add{}, done);
    splitc::reduce_to_one(t, std::span<std::int64_t>(one), splitc::ops::add{}, done);
    splitc::scan(t, std::span<std::int64_t>(inc), splitc::ops::add{}, done);
    splitc::exclusive_scan(t, std::span<std::int64_t>(exc), splitc::ops::add{}, std::int64_t{0}, done);
    splitc::gather(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(gathered), root, done);
    splitc::all_gather(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(all), done);
    splitc::all_to_all(t, std::span<const std::int64_t>(send), std::span<std::int64_t>(received), done);
    splitc::reduce_scatter(t, std::span<const std::int64_t>(send), std::span<std::int64_t>(block),
                           splitc::ops::add{}, done);
    CHECK(done.value() >= 0);
    splitc::sync(done);
    CHECK(splitc::is_sync(done));
    // scatter needs the gathered data at the root: after the gather.
    std::vector<std::int64_t> source(count * un);
    for (int q = 0; q < n; ++q)
      for (std::size_t i = 0; i < count; ++i) source[static_cast<std::size_t>(q) * count + i] = value(t.proc(q), i, salt);
    splitc::scatter(t, std::span<const std::int64_t>(source), std::span<std::int64_t>(scattered), root, done);
    // Progress by polling alone.
    while (!splitc::is_sync(done)) splitc::poll();
    for (std::size_t i = 0; i < count; ++i) {
      CHECK_MSG(bc[i] == value(t.proc(root), i, salt), "broadcast {} of {}", i, count);
      CHECK_MSG(all_sum[i] == team_sum(t, i, salt), "reduce_to_all {} of {}", i, count);
      if (r == 0) CHECK_MSG(one[i] == team_sum(t, i, salt), "reduce_to_one {}", i);
      CHECK_MSG(inc[i] == team_sum(t, i, salt, r), "scan {}", i);
      CHECK_MSG(exc[i] == (r == 0 ? 0 : team_sum(t, i, salt, r - 1)), "exclusive_scan {}", i);
      CHECK_MSG(scattered[i] == mine[i], "scatter {}", i);
      std::int64_t s = 0;
      for (int q = 0; q < n; ++q) s += value(t.proc(q), static_cast<std::size_t>(r) * count + i, salt);
      CHECK_MSG(block[i] == s, "reduce_scatter {}", i);
    }
    CHECK_MSG(all == source, "all_gather of {}", count);
    if (r == root) CHECK_MSG(gathered == source, "gather of {}", count);
    for (int q = 0; q < n; ++q)
      for (std::size_t i = 0; i < count; ++i)
        CHECK_MSG(received[static_cast<std::size_t>(q) * count + i] ==
                      value(t.proc(q), static_cast<std::size_t>(r) * count + i, salt),
                  "all_to_all {} from rank {}", i, q);
  }
  // Vector forms.
  std::vector<std::size_t> counts(un);
  const std::size_t most = splitc_tests::per_pair(n, 400);  // 400 up to 128 members
  for (int q = 0; q < n; ++q) counts[static_cast<std::size_t>(q)] = static_cast<std::size_t>(q * 53 + salt) % most;
  const std::size_t total = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  std::vector<std::size_t> at(un + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), at.begin() + 1);
  std::vector<std::int64_t> mine(counts[static_cast<std::size_t>(r)]), expect(total), all(total, -1),
      gathered(r == 0 ? total : 0, -1), part(mine.size(), -1), in(total), out(mine.size(), -1),
      back(total, -1);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = value(t.proc(r), i, salt);
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < counts[static_cast<std::size_t>(q)]; ++i)
      expect[at[static_cast<std::size_t>(q)] + i] = value(t.proc(q), i, salt);
  for (std::size_t k = 0; k < total; ++k) in[k] = value(t.proc(r), k, salt);
  // all_to_allv with every member sending its counts[q] to q and receiving counts[r] from each.
  std::vector<std::size_t> receive_counts(un, counts[static_cast<std::size_t>(r)]);
  std::vector<std::int64_t> a2a_send(total), a2a_back(counts[static_cast<std::size_t>(r)] * un, -1);
  for (std::size_t k = 0; k < total; ++k) a2a_send[k] = value(t.proc(r), k, salt + 1);
  splitc::counter done;
  const std::span<const std::size_t> cs(counts);
  splitc::all_gatherv(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(all), cs, done);
  splitc::gatherv(t, std::span<const std::int64_t>(mine), std::span<std::int64_t>(gathered), cs, 0, done);
  splitc::scatterv(t, std::span<const std::int64_t>(expect), cs, std::span<std::int64_t>(part), 0, done);
  splitc::reduce_scatterv(t, std::span<const std::int64_t>(in), std::span<std::int64_t>(out), cs,
                          splitc::ops::add{}, done);
  splitc::all_to_allv(t, std::span<const std::int64_t>(a2a_send), cs, std::span<std::int64_t>(a2a_back),
                      std::span<const std::size_t>(receive_counts), done);
  splitc::sync(done);
  CHECK(all == expect);
  if (r == 0) CHECK(gathered == expect);
  CHECK(part == mine);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t s = 0;
    for (int q = 0; q < n; ++q) s += value(t.proc(q), at[static_cast<std::size_t>(r)] + i, salt);
    CHECK_MSG(out[i] == s, "reduce_scatterv {}", i);
  }
  for (int q = 0; q < n; ++q)
    for (std::size_t i = 0; i < counts[static_cast<std::size_t>(r)]; ++i)
      CHECK_MSG(a2a_back[static_cast<std::size_t>(q) * counts[static_cast<std::size_t>(r)] + i] ==
                    value(t.proc(q), at[static_cast<std::size_t>(r)] + i, salt + 1),
                "all_to_allv {} from rank {}", i, q);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  if (argc > 1) max_count = static_cast<std::size_t>(std::atol(argv[1]));
  const int me = splitc::myproc(), P = splitc::procs();
  team world = team::world();
  every_collective(world, 1);
  team part = world.split(me % 3, me);
  team half = part.split(part.rank() % 2, -part.rank());
  every_collective(part, 2);
  every_collective(half, 3);

  // Overlapping teams in flight together, with blocking collectives between: each team's
  // collectives complete in issue order, independently of the other teams'.
  constexpr int rounds = 20;
  std::vector<std::int64_t> w(rounds), p(rounds), h(rounds);
  splitc::counter on_world, on_part, on_half;
  for (int k = 0; k < rounds; ++k) {
    w[static_cast<std::size_t>(k)] = me + k;
    p[static_cast<std::size_t>(k)] = me * k;
    h[static_cast<std::size_t>(k)] = k;
    splitc::reduce_to_all(world, std::span<std::int64_t>(&w[static_cast<std::size_t>(k)], 1), splitc::ops::add{}, on_world);
    splitc::reduce_to_all(half, std::span<std::int64_t>(&h[static_cast<std::size_t>(k)], 1), splitc::ops::add{}, on_half);
    splitc::scan(part, std::span<std::int64_t>(&p[static_cast<std::size_t>(k)], 1), splitc::ops::add{}, on_part);
    if (k % 7 == 3) {
      // A blocking collective on the part completes the part's split-phase ones first.
      const std::int64_t b = splitc::reduce_to_all(part, std::int64_t{1}, splitc::ops::add{});
      CHECK(b == part.size());
      CHECK(splitc::is_sync(on_part));
    }
  }
  splitc::sync(on_half);
  splitc::sync(on_world);
  splitc::sync(on_part);
  for (int k = 0; k < rounds; ++k) {
    CHECK(w[static_cast<std::size_t>(k)] == static_cast<std::int64_t>(P) * (P - 1) / 2 + static_cast<std::int64_t>(P) * k);
    CHECK(h[static_cast<std::size_t>(k)] == static_cast<std::int64_t>(half.size()) * k);
    std::int64_t upto = 0;
    for (int q = 0; q <= part.rank(); ++q) upto += static_cast<std::int64_t>(part.proc(q)) * k;
    CHECK(p[static_cast<std::size_t>(k)] == upto);
  }
  // Left in flight at destroy and at finalize: both complete them.
  splitc::counter late;
  std::int64_t x = 1, y = 1;
  const int half_size = half.size();
  splitc::reduce_to_all(half, std::span<std::int64_t>(&x, 1), splitc::ops::add{}, late);
  half.destroy();
  CHECK(x == half_size);
  splitc::reduce_to_all(std::span<std::int64_t>(&y, 1), splitc::ops::add{}, late);
  part.destroy();
  splitc::sync(late);
  CHECK(y == P);
  return harness::pass("split_phase");
}
