// Porting kit: one copy between processes of one host for memory the sender does not map
// (Linux cross-memory attach, process_vm_writev/readv): a long message into a peer's malloc'd
// or static memory goes straight into place, where a ring would copy it twice (into the ring,
// out of it); a collective's receiver reads its sender's block straight into its destination.
// Issues 43 and 41. Used by the smp backend (backends/smp.hpp).
//
// The kernel allows it between processes that may ptrace each other: the same user and, under
// Yama's ptrace_scope 1, a declared tracer -- open_to_peers() declares any (as Open MPI's
// shared-memory transport does for the same purpose). Where the kernel refuses anyway
// (ptrace_scope 2 or 3, a container's seccomp filter), write() says so once and the caller
// keeps its other path.
#pragma once

#include <sys/types.h>

#include <cstddef>

namespace splitc::port {

class cross_memory {
 public:
  /// Let processes of this user read and write this one's memory (PR_SET_PTRACER_ANY; a
  /// no-op where Yama is absent).
  static void open_to_peers() noexcept;

  /// Copy `len` bytes at `src` here to `dst` in process `pid`. False when not done (the
  /// kernel refused, or `dst` is not writable there): the caller sends the bytes another
  /// way. After a refusal for want of permission or of the call itself, usable() is false.
  bool write(pid_t pid, const void* src, std::size_t len, void* dst) noexcept;
  /// Copy `len` bytes at `src` in process `pid` to `dst` here (process_vm_readv), as write.
  bool read(pid_t pid, const void* src, std::size_t len, void* dst) noexcept;

  bool usable() const noexcept { return usable_; }
  /// Bytes written and read so far (tests check the path was taken).
  std::size_t bytes_written() const noexcept { return written_; }
  std::size_t bytes_read() const noexcept { return read_; }

 private:
  bool usable_ = true;
  std::size_t written_ = 0;
  std::size_t read_ = 0;
};

}  // namespace splitc::port
