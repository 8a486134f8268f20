// Porting kit: the same address layout in every process. Split-C's global
// data segment assumes static data at the same address on every processor,
// so splitc's launchers start a job with address-space randomisation off
// (unless --keep-aslr or SPLITC_KEEP_ASLR), and a process started by a
// foreign launcher (a plain mpirun) may re-execute itself once without it.
// (src/port/address_space.cpp)
#pragma once

namespace splitc::port {

/// Turn randomisation off for what this process executes next (and what
/// that starts): personality(ADDR_NO_RANDOMIZE). False if the kernel refused.
bool disable_randomisation() noexcept;

/// Is randomisation on for this process?
bool randomisation_on() noexcept;

/// The command prefix that does the same for a program started through a
/// shell on another host (where this process's personality does not reach).
inline constexpr const char* no_randomisation_command = "setarch -R";

/// Re-execute this program (`argv`, through /proc/self/exe) once with
/// randomisation off, before any layer is initialised. Returns, and the
/// process carries on as it is, when randomisation is already off, the
/// executable is not position-independent (its static data does not move),
/// SPLITC_KEEP_ASLR is set, it has re-executed already (SPLITC_REEXECED), or
/// the kernel refuses. Code that ran before the call runs twice.
void reexec_without_randomisation(char** argv);

}  // namespace splitc::port
