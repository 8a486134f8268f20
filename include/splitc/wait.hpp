// splitc::wait_until: wait, running the progress engine (handlers run), until a condition of
// the program's own holds — the loop every splitc wait uses: it backs off (spin, yield, sleep)
// while nothing arrives, lets the other processors run on the sim (whose deadlock report names
// `what`), and ends the job if called inside a handler. For layers built on splitc (an MPI's
// Wait, a message queue's receive) whose completion is set by their handlers.
#pragma once

#include <splitc/detail/context.hpp>
#include <splitc/detail/wait.hpp>

#include <utility>

namespace splitc {

/// Poll until `done()` is true; `what` names the wait in reports ("MPI_Wait").
template <class Done>
inline void wait_until(const char* what, Done&& done) {
  detail::wait_until(detail::ctx(), what, std::forward<Done>(done));
}

}  // namespace splitc
