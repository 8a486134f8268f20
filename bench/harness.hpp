// What every part of splitc-bench shares: the options, the measuring policy,
// the rows measured so far, processor 0's control of processor 1 (which
// serves active messages while processor 0 measures), the raw cache-line
// ping-pong (the machine's cross-core limit), the Open MPI reference program
// and progress on stderr.
#pragma once

#include "config.hpp"
#include "mpi_link.hpp"
#include "timing.hpp"

#include <splitc/splitc.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

using u64 = std::uint64_t;
constexpr std::size_t KiB = 1024;
constexpr std::size_t MiB = 1024 * KiB;

/// One measured number. `impl` says whose: "splitc", "mpi" (Open MPI's
/// equivalent) or "machine" (the raw limit: ping-pong, memcpy, plain C).
struct row {
  std::string part, name, impl = "splitc";
  std::size_t size = 8;
  double value = NAN;
  std::string unit = "ns";
  std::string reference;  ///< name of the row the ratio is taken against
  double reference_value = NAN;
  double ratio = NAN;     ///< value / reference_value
  summary stats;
  // On the sim: the seed's published figure for the selected machine
  // (bench/seed_figures.def), in this row's unit, and value / it.
  double seed_value = NAN;
  double seed_ratio = NAN;
  std::string seed_key = {};       ///< its key in seed_figures.def ("barrier@p4")
  std::string seed_citation = {};  ///< where it is published
};

/// Where processor 1's targets are, as processor 0 sees them.
struct targets {
  splitc::global_ptr<u64> heap;           ///< processor 1's spread heap
  splitc::global_ptr<u64> outside;        ///< processor 1's static array (outside the segments)
  splitc::global_ptr<void> heap_bulk;
  splitc::global_ptr<void> outside_bulk;  ///< processor 1's malloc'd buffer
  unsigned char* peer_bulk_local = nullptr;  ///< heap_bulk's local address (AM long)
  unsigned char* src = nullptr;           ///< processor 0's buffers
  unsigned char* dst = nullptr;
};

struct context {
  config cfg;
  policy pol;
  std::string mode;  ///< "smoke", "quick" or "default"
  int rounds = 1;
  targets t;
  std::vector<row> rows;  ///< processor 0: everything measured
  mpi_link mpi;
  mpi_link shmem;  ///< OpenSHMEM's reference (the one-sided rows of "atomics" and "waits")
  double pingpong_start = NAN;  ///< processor 0: raw round trip at the start (ns)
  std::vector<std::string> written;  ///< processor 0: files written (plots, data)
  bool have_gnuplot = false;
  std::string sim_machine;  ///< the machine the sim charges for ("" off the sim)

  bool selected(const std::string& part) const;
  /// Keep a measured row; on the sim, with the seed's figure for it.
  void add(row r);
  /// The row `name` (of `impl`, at `size`) of `part`, or nullptr.
  const row* find(const std::string& part, const std::string& name, std::size_t size = 8,
                  const std::string& impl = "splitc") const;
  double value(const std::string& part, const std::string& name, std::size_t size = 8,
               const std::string& impl = "splitc") const {
    const row* r = find(part, name, size, impl);
    return r != nullptr ? r->value : NAN;
  }

  /// Processor 0: progress on stderr ("which part, which size").
  void progress(const std::string& part, const std::string& what) const;
  /// Processor 0, in a part that processor 1 serves: put processor 1 to
  /// sleep, run Open MPI's equivalents, wake processor 1. Returns the
  /// answers (empty when MPI is not available).
  std::vector<mpi_result> mpi_round(const std::vector<mpi_command>& cmds, bool served) {
    return reference_round(mpi, cmds, served);
  }
  /// The same with OpenSHMEM's reference program.
  std::vector<mpi_result> shmem_round(const std::vector<mpi_command>& cmds, bool served) {
    return reference_round(shmem, cmds, served);
  }
  std::vector<mpi_result> reference_round(mpi_link& link, const std::vector<mpi_command>& cmds,
                                          bool served);
  /// Lockstep plan for the MPI side and for collectives in this mode.
  long mpi_iters(std::size_t size) const;
  int mpi_runs() const;
  /// Iterations of the windowed Isend/Irecv bandwidth (one event = a window).
  long mpi_window_iters(std::size_t size) const;
};

// ---- processor 0 → processor 1 -----------------------------------------------

void register_handlers();
/// Processor 1: serve active messages and commands until processor 0 says stop.
void serve();
/// Processor 0: processor 1 serves while `measure` runs; everyone else waits in
/// the barrier that ends it. Call on every processor.
void served_part(const std::function<void()>& measure);
/// After processor 0's round of a reference program (Open MPI's, OpenSHMEM's), on every
/// processor: the others wait for it quietly (a split-phase barrier tested every millisecond),
/// so that their waiting takes no CPU from the reference's processes, as the idle reference
/// program's takes none from splitc's. Then every processor keeps busy together for 5 ms
/// (all-reduces until all agree the time is up) before anything is timed: processes that
/// slept meanwhile may wake on one core, and the kernel takes a few milliseconds to spread
/// them again (a 64 KiB gather timed at once took 5-15x its time). On a virtual clock (the
/// sim), a barrier: the host's time may not decide how far the virtual clocks run.
void quiet_barrier();

enum class command_kind : u64 { none = 0, stop, pingpong, store_sync, nap, wake };
void command(command_kind c, u64 arg = 0);
void wait_done();
/// Returns once processor 1 has run every request sent before it.
void flush();
void wait_for(const std::atomic<u64>& a, u64 want);

/// Handlers and counters the parts' active messages use.
struct handler_set {
  splitc::handler_id sink, echo, pong, cmd, flush, flushed, done, medium, longm;
};
extern handler_set H;
extern std::atomic<u64> pongs;
extern u64 pongs_expected;
extern unsigned char* medium_sink;

/// The raw cache-line ping-pong between processors 0 and 1 through their
/// mapped segments (absent when the backend has no direct path).
bool have_pingpong();
member pingpong_member(const std::string& key);
void setup_pingpong(unsigned char* region_base);

/// Spread-heap layout of this program's region (offsets from its page-aligned
/// start, the same address on every processor).
constexpr std::size_t off_ping = 0;
constexpr std::size_t off_pong = 256;
constexpr std::size_t off_publish = 1024;
constexpr std::size_t off_scalars = 4096;
constexpr std::size_t off_bulk = 2 * MiB;
/// N in "N operations, then sync()" (get, put) and "N requests, then wait for
/// the N replies" (AM send+receive).
constexpr int block_ops = 256;

/// Whether rows of local computation (memcpy, Table 7's pointer arithmetic)
/// mean anything on this clock: always on the host's; on the sim only when it
/// charges the CPU time used (SPLITC_SIM_TIME=measured), as in deterministic
/// mode such work takes no virtual time.
bool local_work_is_timed();
/// Processor 0: the line a part prints in place of rows that do not apply.
void print_not_applicable(const std::string& what);

/// Median of each row (by part, name, impl, size) over the rounds.
std::vector<row> median_over_rounds(const std::vector<std::vector<row>>& rounds);

std::string load_average();
std::string cpu_model();

}  // namespace bench
