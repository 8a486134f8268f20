// splitc-exchange-floor: what this host's CPU and kernel charge for moving a block between two
// processes of one host, without splitc -- the floor under a collective's stream on smp
// (docs/performance.md, "Teams and the collectives beyond the seed's", "On an Intel Xeon").
// Two processes (fork) share one mapping; in every repetition each sends one block of --size
// bytes to the other and receives the other's, in lockstep on a flag word each:
//
//   two copies, both ways      each copies its block into its own staging area of the mapping
//                              and copies the peer's out (as splitc's staged streams do): the
//                              copy out reads lines the other core has just written
//   two copies, one way        the same with only process 0 sending (a gather's or scatter's
//                              shape)
//   one copy of a stable block each copies the peer's block out of the mapping, a block
//                              nobody writes between repetitions (a copy from the source in
//                              place: what one copy would read)
//   process_vm_readv           each reads the peer's private source block by cross-memory
//                              attach (one copy by the kernel, as Open MPI's vader does with
//                              CMA); skipped, with the reason, where the kernel refuses
//
// Timed as the reference programs are (lockstep.hpp: the seed's loop minus an empty loop, runs
// after a barrier of the two, the seed's filter), printed as ns per exchange with the 95%
// confidence interval. No splitc: the numbers are the machine's. The cross-memory set-up is
// port::cross_memory's (PR_SET_PTRACER_ANY), written out here to keep the program free of splitc.
//   splitc-exchange-floor [--size BYTES] [--iters N] [--runs N]
#define SPLITC_BENCH_HOST_CLOCK_ONLY 1  // no splitc in this program: the host's clock
#include "lockstep.hpp"

#include <CLI/CLI.hpp>

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace {

enum class way { two_copies_both, two_copies_one, stable_copy, cross_memory };

struct alignas(64) word {
  std::atomic<long> value{0};
};

/// What the two processes share besides the staging areas: each one's flag and barrier count,
/// private source address and process id, and whether cross-memory attach worked (each on its
/// own line).
struct shared_state {
  word posted[2];
  word arrived[2];
  word source[2];
  word pid[2];
  word cross_memory_failed;
};

constexpr std::size_t staging_slots = 4;  // a block's slot changes every repetition

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "splitc-exchange-floor: %s: %s\n", what, std::strerror(errno));
  std::exit(1);
}

/// The other process: the child's id in the parent, the parent's in the child.
pid_t child_pid = 0, parent_pid = 0;

/// Whether the other process still runs (a crash of one must not leave the other spinning).
bool peer_alive() {
  if (child_pid > 0) return waitpid(child_pid, nullptr, WNOHANG) == 0;
  return getppid() == parent_pid;
}

void wait_for(const word& w, long at_least) {
  for (unsigned long spins = 1; w.value.load(std::memory_order_acquire) < at_least; ++spins) {
    __builtin_ia32_pause();
    if (spins % (1UL << 22) == 0 && !peer_alive()) {
      std::fprintf(stderr, "splitc-exchange-floor: process %d: the other process ended early\n",
                   child_pid > 0 ? 0 : 1);
      std::exit(1);
    }
  }
}

/// The exchange of `kind`, timed on processor `me` (both run the same lockstep schedule).
bench::summary measure(way kind, int me, std::size_t size, const bench::lockstep_plan& plan,
                       shared_state& s, unsigned char* mapping,
                       std::vector<unsigned char>& source, std::vector<unsigned char>& into,
                       long& step, long& barriers) {
  const std::size_t area = staging_slots * size;
  unsigned char* mine = mapping + static_cast<std::size_t>(me) * area;
  const unsigned char* peers = mapping + static_cast<std::size_t>(1 - me) * area;
  const auto peer_source = reinterpret_cast<unsigned char*>(s.source[1 - me].value.load());
  const auto peer_pid = static_cast<pid_t>(s.pid[1 - me].value.load());
  auto barrier = [&] {
    s.arrived[me].value.store(++barriers, std::memory_order_release);
    wait_for(s.arrived[1 - me], barriers);
  };
  auto one = [&](long) {
    ++step;
    const std::size_t slot = (static_cast<std::size_t>(step) % staging_slots) * size;
    const bool sends = kind == way::two_copies_both || (kind == way::two_copies_one && me == 0);
    if (sends) std::memcpy(mine + slot, source.data(), size);
    s.posted[me].value.store(step, std::memory_order_release);
    wait_for(s.posted[1 - me], step);
    switch (kind) {
      case way::two_copies_both: std::memcpy(into.data(), peers + slot, size); break;
      case way::two_copies_one: if (me == 1) std::memcpy(into.data(), peers + slot, size); break;
      case way::stable_copy: std::memcpy(into.data(), peers, size); break;
      case way::cross_memory: {
        iovec local{into.data(), size}, remote{peer_source, size};
        if (process_vm_readv(peer_pid, &local, 1, &remote, 1, 0) != static_cast<ssize_t>(size))
          s.cross_memory_failed.value.store(errno == 0 ? -1 : errno);
        break;
      }
    }
  };
  return bench::lockstep(plan, barrier, one);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The cost of moving a block between two processes of this host, without splitc"};
  std::size_t size = 65536;
  bench::lockstep_plan plan{200, 30};
  app.add_option("--size", size, "bytes of each block")
      ->check(CLI::Range(std::size_t{64}, std::size_t{1} << 30));
  app.add_option("--iters", plan.iters, "exchanges per timed run")->check(CLI::PositiveNumber);
  app.add_option("--runs", plan.runs, "timed runs of each way (one more is thrown out)")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);

  const std::size_t area = staging_slots * size;
  const std::size_t state_at = (2 * area + 63) / 64 * 64;  // shared_state's lines are aligned
  void* m = mmap(nullptr, state_at + sizeof(shared_state), PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) die("mmap of the shared staging areas");
  auto* mapping = static_cast<unsigned char*>(m);
  std::memset(mapping, 1, 2 * area);  // committed before timing
  auto* s = new (mapping + state_at) shared_state;
#ifdef PR_SET_PTRACER
  (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);  // cross-memory attach under Yama
#endif
  parent_pid = getpid();
  const pid_t child = fork();
  if (child < 0) die("fork");
  child_pid = child;  // 0 in the child
  const int me = child == 0 ? 1 : 0;
  std::vector<unsigned char> source(size, static_cast<unsigned char>(me + 1)), into(size);
  s->source[me].value.store(reinterpret_cast<long>(source.data()));
  s->pid[me].value.store(getpid(), std::memory_order_release);
  wait_for(s->pid[1 - me], 1);

  struct row { way kind; const char* name; };
  const row rows[] = {{way::two_copies_both, "two copies through shared staging, both ways"},
                      {way::two_copies_one, "two copies through shared staging, one way"},
                      {way::stable_copy, "one copy of a block nobody writes, both ways"},
                      {way::cross_memory, "process_vm_readv of the peer's block, both ways"}};
  long step = 0, barriers = 0;
  if (me == 0)
    std::printf("splitc-exchange-floor: 2 processes, blocks of %zu bytes; ns per exchange, mean of"
                " %d runs of %ld (95%% CI)\n", size, plan.runs, plan.iters);
  for (const row& r : rows) {
    const bench::summary t =
        measure(r.kind, me, size, plan, *s, mapping, source, into, step, barriers);
    if (me != 0) continue;
    if (r.kind == way::cross_memory && s->cross_memory_failed.value.load() != 0) {
      const long e = s->cross_memory_failed.value.load();
      std::printf("  %-50s not measured: the kernel refused (%s)\n", r.name,
                  e > 0 ? std::strerror(static_cast<int>(e)) : "a short copy");
      continue;
    }
    std::printf("  %-50s %10.0f  (±%.1f%%, %d kept)\n", r.name, t.mean, 100 * t.ci_rel, t.kept);
  }
  if (me == 1) return 0;
  int status = 0;
  if (waitpid(child, &status, 0) < 0) die("waitpid");
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
