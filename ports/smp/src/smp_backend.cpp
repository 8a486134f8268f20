// The smp backend's out-of-line parts: attaching to the job's shared memory,
// mapping the segments, polling the rings, the bootstrap barrier.
#include <splitc/backends/smp.hpp>
#include <splitc/port/backoff.hpp>
#include <splitc/port/fail.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/segment.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace splitc::backends::smp {

smp_backend::smp_backend(start_arguments) {
  const long fd = port::env::smp_fd.get(-1);
  if (fd < 0) {
    // Started plainly: a job of one.
    fd_ = create_job_memory(1);
    myproc_ = 0;
  } else {
    fd_ = static_cast<int>(fd);
    myproc_ = static_cast<proc_t>(port::env::myproc.get(-1));
  }

  // The job header tells the geometry.
  job_header header{};
  if (pread(fd_, &header, sizeof header, 0) != static_cast<ssize_t>(sizeof header) ||
      header.magic != job_magic) {
    port::fail("smp: descriptor {} does not hold a splitc job (started by another launcher?)",
                 fd_);
  }
  procs_ = static_cast<proc_t>(header.procs);
  if (myproc_ < 0 || myproc_ >= procs_) {
    port::fail("smp: SPLITC_MYPROC={} is outside the job's {} processors", myproc_, procs_);
  }
  layout_.procs = procs_;
  layout_.segment_size = header.segment_size;
  layout_.ring_bytes = header.ring_bytes;
  segment_size_ = header.segment_size;
  segment_base_ = header.segment_base;

  control_ = static_cast<unsigned char*>(
      port::map_shared("smp", "the control area", nullptr, layout_.control_bytes(), fd_, 0));

  // Reserve the symmetric range, then map our segment and everyone's.
  void* base = port::reserve_segment("smp", {segment_base_, segment_size_},
                                     static_cast<std::size_t>(procs_) + 1, false);
  port::map_shared("smp", "this processor's segment", base, segment_size_, fd_,
                   layout_.segment_offset(myproc_));
  port::map_shared("smp", "the peers' segments", static_cast<char*>(base) + segment_size_,
                   segment_size_ * procs_, fd_, layout_.segment_offset(0));

  const std::uint64_t ncells = layout_.ring_bytes / cell_bytes;
  auto ring = [&](int network, int from, int to) {
    return reinterpret_cast<ring_shared*>(control_ + layout_.ring_offset(network, from, to));
  };
  for (proc_t q = 0; q < procs_; ++q) {
    requests_.emplace_back(ring(0, myproc_, q), ncells);
    replies_.emplace_back(ring(1, myproc_, q), ncells);
    in_requests_.emplace_back(ring(0, q, myproc_), ncells);
    in_replies_.emplace_back(ring(1, q, myproc_), ncells);
  }
  request_copies_through_.assign(static_cast<std::size_t>(procs_), 0);
  reply_copies_through_.assign(static_cast<std::size_t>(procs_), 0);

  // Our pid for the peers' cross-memory copies (read once they send to us: after the
  // bootstrap barrier that ends the core's start-up).
  auto* pids = reinterpret_cast<pid_t*>(control_ + layout_.pids_offset());
  __atomic_store_n(&pids[myproc_], getpid(), __ATOMIC_RELEASE);
  pids_ = pids;
  if (const std::size_t min = port::env::smp_one_copy_min.get(); min != 0) one_copy_min_ = min;
  peer_read_min_ = port::env::smp_collective_one_copy_min.get();
  if (one_copy_min_ != SIZE_MAX || peer_read_min_ != 0) port::cross_memory::open_to_peers();
}

bool smp_backend::one_copy(ring_producer& ring, std::uint64_t copied_through, proc_t p,
                           const void* src, std::size_t len, void* dst) {
  if (p == myproc_ || !cross_memory_.usable() || !ring.consumed_through(copied_through))
    return false;
  return cross_memory_.write(__atomic_load_n(&pids_[p], __ATOMIC_ACQUIRE), src, len, dst);
}

smp_backend::~smp_backend() {
  port::release_segment({segment_base_, segment_size_}, static_cast<std::size_t>(procs_) + 1);
  if (control_ != nullptr) munmap(control_, layout_.control_bytes());
  if (fd_ >= 0) close(fd_);
}

int smp_backend::poll(am_sink sink) {
  int handled = 0;
  for (proc_t q = 0; q < procs_; ++q) {
    handled += port::ring_drain(in_replies_[q], q, false, sink);
    handled += port::ring_drain(in_requests_[q], q, true, sink);
  }
  return handled;
}

void smp_backend::wait_flag(const std::atomic<std::uint64_t>& flag, std::uint64_t at_least,
                            am_sink sink) {
  port::backoff wait;
  while (flag.load(std::memory_order_acquire) < at_least) {
    if (poll(sink) != 0) {
      wait.reset();
    } else {
      wait.pause();
    }
  }
}

// Flags in the control area: arrive[q] on its own cache line, then release.
void smp_backend::bootstrap_barrier(am_sink sink) {
  const std::uint64_t epoch = ++barrier_epoch_;
  auto flag = [&](int i) -> std::atomic<std::uint64_t>& {
    return *reinterpret_cast<std::atomic<std::uint64_t>*>(control_ + layout_.barrier_offset() +
                                                          64 * static_cast<std::size_t>(i));
  };
  flag(myproc_).store(epoch, std::memory_order_release);
  if (myproc_ == 0) {
    for (proc_t q = 1; q < procs_; ++q) wait_flag(flag(q), epoch, sink);
    flag(procs_).store(epoch, std::memory_order_release);
  } else {
    wait_flag(flag(procs_), epoch, sink);
  }
}

void smp_backend::finish(int) {}

static_assert(splitc::backend<smp_backend>);

}  // namespace splitc::backends::smp
