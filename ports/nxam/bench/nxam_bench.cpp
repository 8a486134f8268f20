// splitc-<port>-bench: the NXAM ports' active-message round trip next to the
// message passing under it, in the same job and the same two processes:
//
//   raw MPI     MPI_Send / MPI_Recv of 8 bytes on MPI_COMM_WORLD (the MPI the
//               emulation runs on)
//   MPI polled  the same with the receive posted ahead (MPI_Irecv) and tested
//               (MPI_Test) until it is done: how NXAM receives, in raw MPI
//   raw layer   NX csend / crecv of 8 bytes (MPL: mpc_bsend / mpc_brecv), on
//               the emulation
//   splitc      am_request of 4 words to processor 1, whose handler replies;
//               processor 0 polls until the reply has run (splitc-bench's
//               "AM round trip")
//
// Each run times --iters round trips of each in turn (MPI, MPI polled, layer, splitc);
// the table gives medians over --runs runs and the per-run ratios' median
// and range. The ratios answer issue 16's bar (AM round trip ÷ raw MPI
// ping-pong, same run) and the seed's "the AM layer adds 13–35 % over
// message passing" (AM round trip ÷ the layer's own round trip); docs/ports.md
// "## Paragon" has the command and the numbers. Run it with
// `splitc-run --backend nx -n 2 splitc-nx-bench`.
#include <splitc/splitc.hpp>

#include <mpi.h>
#if defined(SPLITC_BACKEND_NX) || defined(SPLITC_BACKEND_NX_MPICH)
#include <nx.h>
#define NXAM_BENCH_LAYER "NX csend/crecv"
#else
#include <mpl.h>
#define NXAM_BENCH_LAYER "MPL bsend/brecv"
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

int runs = 15;
long iters = 20000;
constexpr int ping_type = 7;  // a message type NXAM does not use (it uses 1000 and 2000 on)
constexpr int ping_tag = 7;

double now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

volatile long pongs = 0;
splitc::handler_id pong_handler;

void on_pong(const splitc::am_message&) { pongs = pongs + 1; }
void on_echo(const splitc::am_message& m) { splitc::am_reply(m, pong_handler, m.args[0]); }

/// The layer's own blocking round trip of 8 bytes.
void layer_send(long* word, int peer) {
#if defined(SPLITC_BACKEND_NX) || defined(SPLITC_BACKEND_NX_MPICH)
  csend(ping_type, reinterpret_cast<char*>(word), 8, peer, 0);
#else
  mpc_bsend(reinterpret_cast<char*>(word), 8, peer, ping_type);
#endif
}
void layer_receive(long* word, int peer) {
#if defined(SPLITC_BACKEND_NX) || defined(SPLITC_BACKEND_NX_MPICH)
  (void)peer;
  crecv(ping_type, reinterpret_cast<char*>(word), 8);
#else
  int source = peer, type = ping_type, bytes = 0;
  mpc_brecv(reinterpret_cast<char*>(word), 8, &source, &type, &bytes);
#endif
}

/// Processor 0's time per round trip of `round_trip`; processor 1 answers
/// with `answer` (nullptr: it serves active messages in the barrier).
template <class RoundTrip, class Answer>
double timed(RoundTrip round_trip, Answer answer) {
  splitc::barrier();
  double t = 0;
  if (splitc::myproc() == 0) {
    const double t0 = now_ns();
    for (long i = 0; i < iters; ++i) round_trip(i);
    t = (now_ns() - t0) / static_cast<double>(iters);
  } else {
    for (long i = 0; i < iters; ++i) answer(i);
  }
  splitc::barrier();
  return t;
}

void report(const char* what, const std::vector<double>& ns, const std::vector<double>& ratio,
            const char* over) {
  auto [lo, hi] = std::minmax_element(ratio.begin(), ratio.end());
  std::printf("%-34s %10.1f   %6.3f [%.3f-%.3f] %s\n", what, median(ns), median(ratio), *lo, *hi,
              over);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--iters") == 0 && i + 1 < argc) iters = std::atol(argv[++i]);
  }
  const int me = splitc::myproc();
  if (splitc::procs() != 2 || runs < 1 || iters < 1) {
    if (me == 0) std::fprintf(stderr, "splitc-%s-bench: run it with 2 processors (--runs N >= 1, --iters N >= 1)\n", splitc::backend_name());
    splitc::finalize();
    return 2;
  }
  const int peer = 1 - me;
  const splitc::handler_id echo = splitc::register_handler(on_echo);
  pong_handler = splitc::register_handler(on_pong);
  long word = 0;

  auto mpi_trip = [&](long) {
    MPI_Send(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD);
    MPI_Recv(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  };
  auto mpi_answer = [&](long) {
    MPI_Recv(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD);
  };
  // Polled: the next receive is posted before the send, then tested.
  auto polled_receive = [&] {
    MPI_Request r;
    MPI_Irecv(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD, &r);
    return r;
  };
  auto polled_wait = [](MPI_Request& r) {
    int done = 0;
    while (!done) MPI_Test(&r, &done, MPI_STATUS_IGNORE);
  };
  auto polled_trip = [&](long) {
    MPI_Request r = polled_receive();
    MPI_Send(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD);
    polled_wait(r);
  };
  auto polled_answer = [&](long) {
    MPI_Request r = polled_receive();
    polled_wait(r);
    MPI_Send(&word, 8, MPI_BYTE, peer, ping_tag, MPI_COMM_WORLD);
  };
  auto layer_trip = [&](long) {
    layer_send(&word, peer);
    layer_receive(&word, peer);
  };
  auto layer_answer = [&](long) {
    layer_receive(&word, peer);
    layer_send(&word, peer);
  };
  long expected = 0;
  auto am_trip = [&](long i) {
    splitc::am_request(1, echo, static_cast<splitc::am_word>(i), splitc::am_word{1},
                       splitc::am_word{2}, splitc::am_word{3});
    ++expected;
    while (pongs != expected) splitc::poll();
  };
  // Processor 1 has nothing to do in the loop: it answers the active
  // messages from inside the barrier after it, which polls until processor 0
  // arrives there.
  auto serve = [](long) {};

  std::vector<double> mpi, polled, layer, am, polled_mpi, am_mpi, am_polled, am_layer, layer_mpi;
  for (int k = 0; k <= runs; ++k) {  // run 0 warms up
    const double a = timed(mpi_trip, mpi_answer);
    const double d = timed(polled_trip, polled_answer);
    const double b = timed(layer_trip, layer_answer);
    const double c = timed(am_trip, serve);
    if (k == 0 || me != 0) continue;
    mpi.push_back(a);
    polled.push_back(d);
    layer.push_back(b);
    am.push_back(c);
    polled_mpi.push_back(d / a);
    am_mpi.push_back(c / a);
    am_polled.push_back(c / d);
    am_layer.push_back(c / b);
    layer_mpi.push_back(b / a);
  }
  if (me == 0) {
    std::printf("splitc-%s-bench: 2 processors, %d runs of %ld round trips each, medians; "
                "ratios: median [range] of the runs' ratios\n",
                splitc::backend_name(), runs, iters);
    std::printf("%-34s %10s   %s\n", "round trip", "ns", "ratio");
    std::printf("%-34s %10.1f\n", "MPI_Send/MPI_Recv, 8 bytes", median(mpi));
    report("MPI_Send/MPI_Irecv+Test, 8 bytes", polled, polled_mpi, "(÷ MPI)");
    report(NXAM_BENCH_LAYER ", 8 bytes", layer, layer_mpi, "(÷ MPI)");
    report("splitc AM (4 words)", am, am_mpi, "(÷ MPI)");
    report("splitc AM (4 words)", am, am_polled, "(÷ MPI polled)");
    report("splitc AM (4 words)", am, am_layer, "(÷ " NXAM_BENCH_LAYER ")");
  }
  splitc::finalize();
  return 0;
}
