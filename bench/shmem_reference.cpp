// splitc-bench-shmem-reference: the OpenSHMEM side of splitc-bench's one-sided rows (issue 42:
// atomics, waiting on memory). splitc-bench's processor 0 starts it under oshrun as a child and
// drives it as it drives the Open MPI reference (bench/mpi_reference.cpp, the same protocol):
// one command per line on PE 0's standard input,
//
//   <op> <size> <iters> <runs>      e.g. "fetch_add 8 1000 20"
//   quit
//
// answered on its standard output by "@R <op> <size> <ns per operation> <95% CI / mean>
// <runs kept>", "@X <message>", then "@E". PE 0 measures against PE 1:
//
//   fetch_add       shmem_long_atomic_fetch_add on PE 1's word
//   compare_swap    shmem_long_atomic_compare_swap on PE 1's word (a failing one: the word
//                   never holds the value expected, as in splitc-bench's row)
//   add             shmem_long_atomic_add + shmem_quiet (non-fetching, completed)
//   wait_pingpong   a round trip of flags: PE 0 puts a flag into PE 1 (shmem_long_p), PE 1's
//                   shmem_long_wait_until sees it and puts one back, PE 0 waits for it
//   signal_pingpong the same with <size> bytes of data before each flag: shmem_putmem,
//                   shmem_fence, shmem_long_p (OpenSHMEM 1.4 has no shmem_put_signal: this is
//                   its signalled put)
//   iget64          shmem_iget64 of <size>/8 longs at a stride of two from PE 1 (at most 64 KiB)
//   rows_put        64 rows of <size>/64 bytes into every other row of PE 1 (shmem_putmem
//                   each), then shmem_quiet (at most 64 KiB)
//   put_quiet       one shmem_putmem of <size> bytes + shmem_quiet (at most 64 KiB)
//
// With --selftest it runs every operation once by itself (the ctest smoke test). Between
// commands PE 1 sleeps in a polling loop on a command word (1 ms naps), and between rounds
// splitc-bench stops the whole job (bench/mpi_link.hpp), so the idle program takes no CPU
// from the splitc processors measuring meanwhile.
#define SPLITC_BENCH_HOST_CLOCK_ONLY 1  // no splitc in this program: the host's clock
#include "lockstep.hpp"

#include <shmem.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

namespace {

struct command {
  char op[32] = {};
  long size = 0;
  long iters = 0;
  int runs = 0;
  int quit = 0;
};

// Symmetric, in the symmetric heap (shmem_malloc): the command PE 0 hands to the others, and
// the words the rows use. (Not static data: Open MPI's UCX reaches a PE's static data only
// through that PE's own progress, so a put to a napping PE, or a row on static words, would
// wait for or measure that.)
struct symmetric {
  command shared_command;
  long command_number;
  long word, flag_in, flag_back;
  unsigned char data_in[4096], data_back[4096];
  unsigned char region[2 * 65536];  // the transfers' target: rows go to every other row
};
symmetric* sym = nullptr;

const char* const selftest_commands[] = {"fetch_add 8 1 1",       "compare_swap 8 1 1",
                                         "add 8 1 1",             "wait_pingpong 8 1 1",
                                         "signal_pingpong 64 1 1", "iget64 64 1 1",
                                         "rows_put 4096 1 1",     "put_quiet 64 1 1",
                                         "quit"};
bool selftest = false;
int selftest_next = 0;

/// PE 0 reads the next command and puts it to every PE; the others nap until it comes.
bool next_command(int me, int P, command& c, long& seen) {
  if (me == 0) {
    char line[256];
    c = command{};
    if (selftest) {
      std::snprintf(line, sizeof line, "%s\n", selftest_commands[selftest_next++]);
    } else if (std::fgets(line, sizeof line, stdin) == nullptr) {
      std::strcpy(line, "quit");
    }
    if (std::strncmp(line, "quit", 4) == 0) {
      c.quit = 1;
    } else if (std::sscanf(line, "%31s %ld %ld %d", c.op, &c.size, &c.iters, &c.runs) != 4) {
      std::printf("@X cannot parse: %s@E\n", line);
      std::fflush(stdout);
      c.op[0] = '\0';
    }
    for (int pe = 1; pe < P; ++pe) {
      shmem_putmem(&sym->shared_command, &c, sizeof c, pe);
      shmem_fence();
      shmem_long_atomic_set(&sym->command_number, seen + 1, pe);
    }
    shmem_quiet();
    ++seen;
  } else {
    while (shmem_long_atomic_fetch(&sym->command_number, me) == seen) {
      timespec t{0, 1000000};
      nanosleep(&t, nullptr);
    }
    ++seen;
    c = sym->shared_command;
  }
  return c.quit == 0;
}

}  // namespace

int main(int argc, char** argv) {
  shmem_init();
  const int me = shmem_my_pe(), P = shmem_n_pes();
  sym = static_cast<symmetric*>(shmem_malloc(sizeof(symmetric)));
  *sym = symmetric{};
  shmem_barrier_all();
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--selftest") == 0) selftest = true;
  if (me == 0) {
    std::printf("@READY %d\n", P);
    std::fflush(stdout);
  }
  const int peer = P > 1 ? 1 : 0;
  auto barrier = [] { shmem_barrier_all(); };
  command c;
  long seen = 0;
  while (next_command(me, P, c, seen)) {
    if (c.op[0] == '\0') continue;
    const std::string op = c.op;
    const bench::lockstep_plan plan{std::max(1L, c.iters), std::max(1, c.runs)};
    long got = 0, round = 0;
    sym->word = 0;
    sym->flag_in = sym->flag_back = 0;
    shmem_barrier_all();
    bench::summary s{};
    bool known = true;
    if (op == "fetch_add") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me == 0) got += shmem_long_atomic_fetch_add(&sym->word, 1, peer);
      });
    } else if (op == "compare_swap") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me == 0) got += shmem_long_atomic_compare_swap(&sym->word, -1, 5, peer);
      });
    } else if (op == "add") {
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        shmem_long_atomic_add(&sym->word, 1, peer);
        shmem_quiet();
      });
    } else if (op == "wait_pingpong") {
      s = bench::lockstep(plan, barrier, [&](long) {
        ++round;
        if (me == 0) {
          shmem_long_p(&sym->flag_in, round, peer);
          shmem_long_wait_until(&sym->flag_back, SHMEM_CMP_EQ, round);
        } else if (me == peer) {
          shmem_long_wait_until(&sym->flag_in, SHMEM_CMP_EQ, round);
          shmem_long_p(&sym->flag_back, round, 0);
        }
      });
    } else if (op == "signal_pingpong") {
      const std::size_t n = static_cast<std::size_t>(std::clamp(c.size, 0L, 4096L));
      unsigned char data[4096] = {};
      s = bench::lockstep(plan, barrier, [&](long) {
        ++round;
        if (me == 0) {
          shmem_putmem(sym->data_in, data, n, peer);
          shmem_fence();
          shmem_long_p(&sym->flag_in, round, peer);
          shmem_long_wait_until(&sym->flag_back, SHMEM_CMP_EQ, round);
        } else if (me == peer) {
          shmem_long_wait_until(&sym->flag_in, SHMEM_CMP_EQ, round);
          shmem_putmem(sym->data_back, data, n, 0);
          shmem_fence();
          shmem_long_p(&sym->flag_back, round, 0);
        }
      });
    } else if (op == "iget64") {
      const std::size_t n = static_cast<std::size_t>(std::clamp(c.size, 8L, 65536L)) / 8;
      static long into[8192];
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me == 0) shmem_iget64(into, sym->region, 1, 2, n, peer);
      });
    } else if (op == "rows_put" || op == "put_quiet") {
      const std::size_t n = static_cast<std::size_t>(std::clamp(c.size, 64L, 65536L));
      static unsigned char source[65536];
      const bool rows = op == "rows_put";
      s = bench::lockstep(plan, barrier, [&](long) {
        if (me != 0) return;
        if (rows) {
          const std::size_t row = n / 64;
          for (std::size_t r = 0; r < 64; ++r)
            shmem_putmem(sym->region + 2 * r * row, source + r * row, row, peer);
        } else {
          shmem_putmem(sym->region, source, n, peer);
        }
        shmem_quiet();
      });
    } else {
      known = false;
    }
    if (me == 0) {
      if (known)
        std::printf("@R %s %ld %.6g %.4g %d\n", c.op, c.size, s.mean, s.ci_rel, s.kept);
      else
        std::printf("@X unknown operation %s\n", c.op);
      std::printf("@E\n");
      std::fflush(stdout);
    }
    if (got == -12345) std::printf("%ld\n", got);  // keeps the fetched values alive
  }
  shmem_barrier_all();
  shmem_free(sym);
  shmem_finalize();
  return 0;
}
