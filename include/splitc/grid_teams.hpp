// Teams derived from a spread array's processor layout: the rows and the columns of the
// processor grid of a 2-D block-cyclic distribution (layout::blocked_cyclic_2d, Split-C's
// `T M[n/(r*b1)][m/(c*b2)][r][c]::[b1][b2]`). With r * c == PROCS, processor p owns the blocks
// (bi, bj) with bi mod r == p / c and bj mod c == p mod c: grid row p / c, grid column p mod c.
// The row team of p holds the owners of the block rows p owns blocks in, ranked by grid
// column; the column team the owners of its block columns, ranked by grid row. Both are
// collective over the world (team::split), and are destroyed like any team.
#pragma once

#include <splitc/errors.hpp>
#include <splitc/spread_array.hpp>
#include <splitc/team.hpp>

namespace splitc {

namespace detail {
inline void check_processor_grid(const layout::blocked_cyclic_2d& l, const char* what) {
  if (l.r * l.c != static_cast<std::size_t>(procs())) [[unlikely]]
    fatal_error(std::string(what) + ": the layout's processor grid (r x c = " +
                std::to_string(l.r) + " x " + std::to_string(l.c) + ") does not have PROCS (" +
                std::to_string(procs()) + ") processors");
}
}  // namespace detail

/// This processor's row of the layout's processor grid.
inline team grid_row_team(const layout::blocked_cyclic_2d& l) {
  detail::check_processor_grid(l, "grid_row_team");
  const auto c = static_cast<proc_t>(l.c);
  return team::world().split(myproc() / c, myproc() % c);
}
/// This processor's column of the layout's processor grid.
inline team grid_column_team(const layout::blocked_cyclic_2d& l) {
  detail::check_processor_grid(l, "grid_column_team");
  const auto c = static_cast<proc_t>(l.c);
  return team::world().split(myproc() % c, myproc() / c);
}
template <class T>
inline team grid_row_team(const spread_array<T, layout::blocked_cyclic_2d>& a) {
  return grid_row_team(a.layout());
}
template <class T>
inline team grid_column_team(const spread_array<T, layout::blocked_cyclic_2d>& a) {
  return grid_column_team(a.layout());
}

}  // namespace splitc
