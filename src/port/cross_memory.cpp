// Porting kit: one copy between processes of one host (port/cross_memory.hpp).
#include <splitc/port/cross_memory.hpp>

#include <sys/prctl.h>
#include <sys/uio.h>

#include <cerrno>

namespace splitc::port {

void cross_memory::open_to_peers() noexcept {
#ifdef PR_SET_PTRACER
  (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
}

bool cross_memory::write(pid_t pid, const void* src, std::size_t len, void* dst) noexcept {
  if (!usable_ || pid <= 0) return false;
  std::size_t done = 0;
  while (done < len) {
    iovec local{const_cast<char*>(static_cast<const char*>(src)) + done, len - done};
    iovec remote{static_cast<char*>(dst) + done, len - done};
    const ssize_t n = process_vm_writev(pid, &local, 1, &remote, 1, 0);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // EFAULT: this destination (the ring's copy then faults at the receiver, which reports
    // it); anything else: the kernel will not do it for this job.
    if (n == 0 || errno != EFAULT) usable_ = false;
    return false;
  }
  written_ += len;
  return true;
}

}  // namespace splitc::port
