// The launcher check (include/splitc/port/launcher_check.hpp).
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/launcher_check.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace splitc::port {
namespace {

long env_long(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atol(v) : 0;
}

/// A foreign MPI-style launcher that started this process as one of several.
struct foreign_launcher {
  const char* who = nullptr;   ///< for the message
  const char* size = nullptr;  ///< its job-size variable
  const char* rank = nullptr;  ///< its rank variable
  unsigned kind = 0;           ///< which one (launcher_check.hpp)
};

foreign_launcher detect() {
  // Slurm first: srun may also speak PMI (--mpi=pmi2). SLURM_NTASKS alone is
  // set in a whole allocation (a batch script run once): only a job step
  // started by srun counts.
  if (env_long("SLURM_STEP_NUM_TASKS") > 1 && std::getenv("SLURM_PROCID") != nullptr)
    return {"Slurm's srun", "SLURM_STEP_NUM_TASKS", "SLURM_PROCID", slurm};
  if (env_long("OMPI_COMM_WORLD_SIZE") > 1)
    return {"Open MPI's mpirun (or oshrun)", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK",
            open_mpi};
  if (env_long("PMI_SIZE") > 1)
    return {"MPICH's mpiexec (Hydra) or another PMI launcher", "PMI_SIZE", "PMI_RANK", pmi};
  return {};
}

/// Before refusing a process that an MPI-style launcher started: let that launcher finish
/// starting its job before every process ends it. MPICH's Hydra died of SIGPIPE, losing the
/// message and exiting 141, in 3 of 60 runs where the processes exited within milliseconds
/// of starting (none in 60 with a 100 ms pause); it also exited 70 with no output at all
/// (smp.supervision.launcher_mpich and hpam's, under a CPU hog). An error path: the pause
/// costs a correct program nothing.
void let_launcher_settle(const foreign_launcher& f) {
  if (f.who != nullptr) std::this_thread::sleep_for(std::chrono::milliseconds(500));
}

}  // namespace

void announce_launcher(const char* backend) { setenv(env::launched_by.name, backend, 1); }

void check_launcher(const char* backend, unsigned foreign_launchers) {
  const std::string by = env::launched_by.get();
  const foreign_launcher f = detect();
  // Name this process by the foreign launcher's rank if ours has not (there is no other yet).
  if (f.who != nullptr && !env::myproc.is_set())
    if (const char* rank = std::getenv(f.rank)) setenv(env::myproc.name, rank, 1);
  if (!by.empty() && by != backend) {
    // Our launcher of another backend: under mpirun or Hydra for the MPI backends.
    let_launcher_settle(f);
    detail::fail(
        "this program is linked with backend '{}' but was started by the launcher of backend "
        "'{}' (splitc-run --backend {}); start it with splitc-run --backend {}",
        backend, by, by, backend);
  }
  // Started by our own launcher: that launcher may itself run under another
  // (an MPI backend's is mpirun, shmem's oshrun); it has said who it is.
  if (!by.empty() && foreign_launchers == 0) return;
  if (f.who == nullptr || (f.kind & foreign_launchers) != 0) return;
  let_launcher_settle(f);
  detail::fail(
      "this program is linked with backend '{}' but was started by {} as one of {} processes "
      "({}={}); it would run as separate jobs of one: start it with splitc-run --backend {}",
      backend, f.who, env_long(f.size), f.size, env_long(f.size), backend);
}

std::optional<std::string> linked_backend(const std::string& program_file) {
  const int fd = ::open(program_file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return std::nullopt;
  const std::string_view file(static_cast<const char*>(map), static_cast<std::size_t>(st.st_size));
  std::optional<std::string> found;
  for (std::size_t at = file.find(linked_backend_tag); at != std::string_view::npos && !found;
       at = file.find(linked_backend_tag, at + 1)) {
    // A name of letters, digits and '_', then the NUL that ends the string.
    std::size_t end = at + linked_backend_tag.size();
    while (end < file.size() && (std::isalnum(static_cast<unsigned char>(file[end])) || file[end] == '_'))
      ++end;
    if (end < file.size() && file[end] == '\0' && end > at + linked_backend_tag.size())
      found = std::string(file.substr(at + linked_backend_tag.size(), end - at - linked_backend_tag.size()));
  }
  ::munmap(map, static_cast<std::size_t>(st.st_size));
  return found;
}

}  // namespace splitc::port
