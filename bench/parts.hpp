// The parts of splitc-bench, one idea per file in bench/parts/. Each is
// called on every processor (a collective step of the program); processor 0
// adds its rows to the context and prints its tables.
#pragma once

#include "harness.hpp"

#include <string>
#include <vector>

namespace bench {

void part_limits(context& ctx);       ///< parts/machine_limits.cpp
void part_table4(context& ctx);       ///< parts/table4.cpp
void part_table7(context& ctx);       ///< parts/pointers.cpp
void part_collectives(context& ctx);  ///< parts/collectives.cpp (Tables 8–11)
void part_atomics(context& ctx);      ///< parts/atomics.cpp
void part_waits(context& ctx);        ///< parts/waits.cpp
void part_teams(context& ctx);        ///< parts/teams.cpp (issue 41's collectives)
void part_transfers(context& ctx);    ///< parts/transfers.cpp (strided and indexed)
void part_figures(context& ctx);      ///< parts/figures.cpp (Figures 10–15)

struct part_info {
  const char* name;
  const char* what;
};
/// Every name --only accepts, in the order the program runs them.
inline const std::vector<part_info>& part_names() {
  static const std::vector<part_info> v = {
      {"limits", "the machine's limits (raw cache-line ping-pong, memcpy) next to Open MPI's "
                 "ping-pong and bandwidth"},
      {"table4", "Table 4: overhead and latency of AM and of store, get, put, read, write"},
      {"table7", "Table 7: spread-pointer index and increment, for_my_1d/2d iterations"},
      {"collectives", "Tables 8–11: barrier, broadcast, reduce to one, reduce to all, scan"},
      {"atomics", "fetch_and_add, compare-and-swap and add on a peer's spread heap, atomic-"
                  "procedure round trip, beside OpenSHMEM's and Open MPI's"},
      {"teams", "gather, scatter, all-gather(v), all-to-all(v), reduce-scatter on the world and "
                "all-reduce, all-gather, all-to-all on a half team, 8 B and 64 KiB per member"},
      {"waits", "a flag ping-pong by write + wait_until against the raw one through the mapped "
                "segment and OpenSHMEM's; 64 B + signal by put_signal against OpenSHMEM's"},
      {"transfers", "a 2-D strided put of 64 rows of 1 KiB against the contiguous put, a "
                    "strided get of longs, an indexed get against single gets; beside "
                    "OpenSHMEM (iget64, putmem) and Open MPI (MPI_Put of a vector type)"},
      {"fig10", "Figure 10: bandwidth of active messages (medium, long) and of bulk transfers "
                "to memory outside the segments"},
      {"fig11", "Figure 11: bandwidth of bulk_store"},
      {"fig12", "Figure 12: bandwidth of bulk_get"},
      {"fig13", "Figure 13: bandwidth of bulk_put"},
      {"fig14", "Figure 14: bandwidth of bulk_read"},
      {"fig15", "Figure 15: bandwidth of bulk_write"},
  };
  return v;
}

}  // namespace bench
