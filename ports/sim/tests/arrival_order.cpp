// A race-sensitive program (sim): every processor sends a request to
// processor 0, which records the order they arrive in. The order is the race;
// the program is correct whatever it is (every sender counted once), and
// prints it so that tests can compare runs: with one seed in deterministic
// mode the order (and the virtual time) is the same every time, and over
// many seeds more than one order appears.
#include <splitc/splitc.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {
splitc::per_processor<std::vector<int>> arrivals;
splitc::handler_id h_arrive;

void on_arrive(const splitc::am_message& m) { arrivals->push_back(static_cast<int>(m.args[0])); }
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  h_arrive = splitc::register_handler(on_arrive);
  const int P = splitc::procs();
  for (int round = 0; round < 3; ++round) {
    if (splitc::myproc() != 0) splitc::am_request(0, h_arrive, splitc::myproc());
    if (splitc::myproc() == 0)
      while (static_cast<int>(arrivals->size()) < (round + 1) * (P - 1)) splitc::poll();
    splitc::barrier();
  }
  if (splitc::myproc() == 0) {
    std::vector<int> seen(static_cast<std::size_t>(P), 0);
    std::string order;
    for (int a : *arrivals) {
      ++seen[static_cast<std::size_t>(a)];
      order += std::to_string(a) + " ";
    }
    for (int q = 1; q < P; ++q)
      if (seen[static_cast<std::size_t>(q)] != 3) {
        std::printf("FAIL arrival_order: processor %d arrived %d times\n", q, seen[q]);
        return 1;
      }
    std::printf("order %s\nvirtual %.9f\nPASS arrival_order\n", order.c_str(), splitc::get_seconds());
  }
  splitc::finalize();
  return 0;
}
