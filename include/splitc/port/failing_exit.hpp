// Porting kit: the abort path for a process that leaves on its own. A
// splitc error ends the job through fatal_error (src/errors.cpp, which calls
// a backend's abort_job); a plain exit(3) or a return from main with a
// non-zero status does not pass there. A backend whose launcher would not
// notice (an MPI job waits for the missing process) installs this hook, so
// the peers are not left waiting forever (src/port/failing_exit.cpp).
#pragma once

namespace splitc::port {

/// Once per process: at a non-zero exit while `layer_up()`, write "splitc:
/// processor R: exit status S; ending the <job_words>" on stderr and call
/// `end_job(S)` (e.g. MPI_Abort). R is SPLITC_MYPROC.
void end_job_on_failing_exit(bool (*layer_up)() noexcept, void (*end_job)(int status) noexcept,
                             const char* job_words);

}  // namespace splitc::port
