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

namespace {
/// `len` bytes between `local` here and `remote` in process `pid` by `call` (process_vm_readv
/// or process_vm_writev), resumed after a partial copy or an interruption. False when not all
/// were copied; `usable` becomes false when the kernel will not do it for this job at all.
template <class Call>
bool cross_copy(Call call, bool& usable, pid_t pid, void* local, void* remote, std::size_t len) {
  if (!usable || pid <= 0) return false;
  std::size_t done = 0;
  while (done < len) {
    iovec here{static_cast<char*>(local) + done, len - done};
    iovec there{static_cast<char*>(remote) + done, len - done};
    const ssize_t n = call(pid, &here, 1, &there, 1, 0);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // EFAULT: this address (the caller's other path then reports or fails on it); anything
    // else: the kernel will not do it for this job.
    if (n == 0 || errno != EFAULT) usable = false;
    return false;
  }
  return true;
}
}  // namespace

bool cross_memory::write(pid_t pid, const void* src, std::size_t len, void* dst) noexcept {
  if (!cross_copy(process_vm_writev, usable_, pid, const_cast<void*>(src), dst, len)) return false;
  written_ += len;
  return true;
}

bool cross_memory::read(pid_t pid, const void* src, std::size_t len, void* dst) noexcept {
  if (!cross_copy(process_vm_readv, usable_, pid, dst, const_cast<void*>(src), len)) return false;
  read_ += len;
  return true;
}

}  // namespace splitc::port
