// Error: misuse of teams and their collectives ends the job with a message naming the
// processors and the cause, never a hang. Four processors; processors 1 and 3 form a team by
// splitting the world with color me % 2 (processor 0 and 2 the other). The argument picks the
// mistake:
//   kind      on the odd team, rank 0 calls all_gather and rank 1 broadcast
//   counts    on the odd team, all_gatherv with counts the members disagree on
//   staged    on the odd team, all_gather of 3000 ints by rank 0 (long enough to travel staged)
//             and of 10 by rank 1
//   lengths   the same with 3000 and 4000 ints: both staged (or, on smp, read from the
//             sender's memory), their lengths differ
//   size      all_gather into a result too small for the team
//   vcounts   on the odd team, a split-phase reduce_scatterv whose counts (rank 1's) add up
//             to less than its data, behind a collective still in flight: reported at the
//             call, before it returns
//   split_size  the same with a split-phase all_gather into a result too small
//   empty     a collective on the empty team that no_color gives
//   world     team::destroy on the world
#include "harness.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::string mistake = argc > 1 ? argv[1] : "kind";
  const int me = splitc::myproc();
  splitc::team odd = splitc::team::world().split(me % 2, me);
  std::vector<int> mine{me, me}, all(4, -1);
  if (mistake == "kind" && me % 2 == 1) {
    if (odd.rank() == 0)
      splitc::all_gather(odd, std::span<const int>(mine), std::span<int>(all));
    else
      splitc::broadcast(odd, std::span<int>(mine), 0);
  } else if (mistake == "counts" && me % 2 == 1) {
    std::vector<std::size_t> counts{2, odd.rank() == 0 ? std::size_t{2} : std::size_t{1}};
    splitc::all_gatherv(odd, std::span<const int>(mine.data(), counts[static_cast<std::size_t>(odd.rank())]),
                        std::span<int>(all), std::span<const std::size_t>(counts));
  } else if (mistake == "staged" && me % 2 == 1) {
    std::vector<int> block(odd.rank() == 0 ? 3000 : 10, me), both(2 * block.size());
    splitc::all_gather(odd, std::span<const int>(block), std::span<int>(both));
  } else if (mistake == "lengths" && me % 2 == 1) {
    std::vector<int> block(odd.rank() == 0 ? 3000 : 4000, me), both(2 * block.size());
    splitc::all_gather(odd, std::span<const int>(block), std::span<int>(both));
  } else if (mistake == "size" && me == 3) {
    std::vector<int> small(3);
    splitc::all_gather(odd, std::span<const int>(mine), std::span<int>(small));
  } else if ((mistake == "vcounts" || mistake == "split_size") && me == 3) {
    // A barrier ahead of it on the team, which processor 1 never joins, keeps the collective
    // from starting at once: only a check made at the call can report it before it returns.
    splitc::counter ahead, done;
    splitc::barrier(odd, ahead);
    if (mistake == "vcounts") {
      std::vector<std::size_t> counts{2, 1};
      std::vector<int> out(1);
      splitc::reduce_scatterv(odd, std::span<const int>(all), std::span<int>(out),
                              std::span<const std::size_t>(counts), splitc::ops::add{}, done);
    } else {
      std::vector<int> small(3);
      splitc::all_gather(odd, std::span<const int>(mine), std::span<int>(small), done);
    }
    std::printf("processor %d: %s started\n", me, mistake.c_str());
    std::fflush(stdout);
    splitc::sync(done);
  } else if (mistake == "empty") {
    splitc::team none = splitc::team::world().split(me == 2 ? splitc::team::no_color : 0, me);
    if (me == 2) splitc::barrier(none);
  } else if (mistake == "world" && me == 1) {
    splitc::team w = splitc::team::world();
    w.destroy();
  }
  splitc::barrier();
  return harness::pass("xf_team");
}
