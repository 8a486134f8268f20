// Porting kit: starting a job's processes and supervising them, for every
// backend whose launcher starts the processes itself (smp and udp through
// run_job, udp's hosts file and labelled output; src/port/supervisor.cpp).
// A backend whose processes another launcher starts (mpirun) uses
// external_launch.hpp instead.
//
// Every process gets SPLITC_JOB (the supervisor's process id), SPLITC_MYPROC
// and SPLITC_PROCS, runs with address-space randomisation off unless asked
// (address_space.hpp), and dies with the supervisor (PDEATHSIG). The first
// process that dies or exits non-zero is named on stderr ("splitc-run:
// processor R (pid N) was killed by signal 9 (Killed); ending the job") and
// the rest of the job is ended: SIGTERM, then SIGKILL half a second later.
// SIGINT, SIGTERM and SIGHUP to the supervisor end the job the same way. The
// job's status is the first failure's (128 + signal for a signal), or 0.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace splitc::port {

/// How the processes start.
struct job_spec {
  int procs = 1;
  bool keep_aslr = false;  ///< leave address-space randomisation on (or SPLITC_KEEP_ASLR)
  /// Variables every process gets (besides SPLITC_JOB, SPLITC_MYPROC, SPLITC_PROCS).
  std::vector<std::pair<std::string, std::string>> environment;
  /// Descriptors every process inherits (when started here, not by a template).
  std::vector<int> inherited_fds;
  /// Empty: fork and exec the program on this host. Otherwise the command
  /// that starts the program on a host ("ssh {host}", "ip netns exec
  /// {host}"; `{host}` and `{rank}` are replaced), run by /bin/sh in a
  /// process group of its own; the command line carries every SPLITC_*
  /// variable (ssh forwards no environment) and turns randomisation off there.
  std::string spawn_template;
  /// The hosts the template's processes go to, round-robin (read_hosts_file).
  std::vector<std::string> hosts;
  /// Forward each process's output line by line (always with a template).
  bool forward_output = false;
  /// Prefix forwarded lines with "[P] " (implies forward_output).
  bool label_output = false;
};

/// What a backend's launcher adds to the supervision.
struct job_hooks {
  /// The job is ending (a failure or an interruption): e.g. tell the
  /// processes through the backend's own channel.
  std::function<void()> ending;
  /// Processors the backend knows are gone (e.g. their connection to the
  /// launcher closed before they finished) although their start command
  /// still runs: after 1.5 s the job ends, naming the first.
  std::function<std::vector<int>()> lost;
};

/// Start `argv` as `spec.procs` processes, supervise them, return the job's status.
int supervise_job(const job_spec& spec, char** argv, const job_hooks& hooks = {});

/// A hosts file: one host per line with an optional slot count ("node1
/// slots=4" or "node1 4"), '#' comments; each host listed once per slot.
/// Ends the job naming the file when it cannot be read or names no host.
std::vector<std::string> read_hosts_file(const std::string& path);

/// "exited with status N" or "was killed by signal N (name)".
std::string describe_exit(int wait_status);
/// The status a job reports for a process: its exit status, or 128 + signal.
int job_exit_code(int wait_status);

}  // namespace splitc::port
