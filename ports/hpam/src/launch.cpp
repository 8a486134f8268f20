// Launching an hpam job (splitc-run --backend hpam): one UDP socket per
// processor bound on 127.0.0.1, inherited by every process, and HPAM's
// variables naming them (emulations/hp/README.md): HPAM_ENDPOINTS,
// HPAM_SOCKETS and HPAM_NODE_FROM=SPLITC_MYPROC, which the porting kit's
// supervisor sets per process. Then the kit runs and supervises the job.
#include <splitc/port/launch.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace splitc::port {

int launch_job(const launch_options& options, char** argv) {
  if (options.procs < 1) fail("splitc-run: the job needs at least one process");
  std::vector<int> sockets;
  std::string endpoints, fds;
  for (int q = 0; q < options.procs; ++q) {
    const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t l = sizeof a;
    if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &l) != 0)
      fail("splitc-run: cannot bind a UDP socket on 127.0.0.1 for processor {}: {}", q,
           std::strerror(errno));
    sockets.push_back(fd);
    if (q > 0) {
      endpoints += ',';
      fds += ',';
    }
    endpoints += "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
    fds += std::to_string(fd);
  }
  job_plan plan;
  plan.environment = {{"HPAM_ENDPOINTS", endpoints},
                      {"HPAM_SOCKETS", fds},
                      {"HPAM_NODE_FROM", std::string(port::env::myproc.name)}};
  plan.inherited_fds = sockets;
  const int status = run_job(options, argv, plan);
  for (int fd : sockets) close(fd);
  return status;
}

}  // namespace splitc::port
