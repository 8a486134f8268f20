// What a team's creation commits on the sim. A team of P members has channels of 4 slots of
// 1 KiB per sender on each member (P > 64): 4 KiB per pair, 256 MiB at P = 256. Its creation
// must zero their sequence words; on the sim's ports it gives the channels' whole pages back
// instead (PORTING.md, discard_segment_pages), so that memory is taken only where messages
// land. Reading a word of every slot would commit every page of them, reads included on this
// machine's kernel (docs/sim.md, "Scaling"). Run at P = 256: the growth of the process's
// resident memory across a split of the world and a barrier on the new team must stay under
// a quarter of the channels' size; the team must work, and so must a second one created after
// the first was destroyed (which the spread heap may give the first one's place, its pages
// given back again).
#include <splitc/splitc.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace {

long resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

/// Every member's rank summed over the team, by its own all-reduce: the team works.
bool team_works(const splitc::team& t) {
  const long n = t.size();
  return splitc::reduce_to_all(t, static_cast<long>(t.rank()), splitc::ops::add{}) ==
         n * (n - 1) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const long P = splitc::procs();
  bool ok = true;
  splitc::barrier();
  const long before = resident_kib();
  splitc::team all = splitc::team::world().split(0, splitc::myproc());
  splitc::barrier(all);
  const long after = resident_kib();
  ok = team_works(all) && ok;
  all.destroy();
  // A second team after the first one's end: perhaps in the same place, used before.
  splitc::team again = splitc::team::world().split(0, P - 1 - splitc::myproc());
  ok = team_works(again) && again.proc(0) == P - 1 && ok;
  again.destroy();
  const long channels_kib = P * P * 4;
  if (before < 0 || after < 0) {
    std::printf("FAIL: processor %d found no VmRSS line in /proc/self/status\n", splitc::myproc());
    ok = false;
  } else if (splitc::myproc() == 0) {
    std::printf("a team of %ld: %ld KiB more resident after its creation (its channels: %ld KiB)\n",
                P, after - before, channels_kib);
    if (after - before >= channels_kib / 4) {
      std::printf("FAIL: the creation touched the channels' pages\n");
      ok = false;
    }
  }
  ok = splitc::reduce_to_all(ok ? 1 : 0, splitc::ops::logical_and{}) == 1;
  if (splitc::myproc() == 0 && ok) std::printf("PASS team_channels_memory\n");
  splitc::finalize();
  return ok ? 0 : 1;
}
