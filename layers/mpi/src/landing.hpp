// Memory that peers' long messages land in: this processor's segment where it has room, else
// the heap. On backends that map their peers' segments (smp, the same-host layer of udp and
// mpi) a long message into the segment is one copy, straight from the sender's buffer; into
// the heap it passes through a ring. Used for the eager temporaries of unexpected long
// messages and for MPI_Alloc_mem.
#pragma once

#include <cstddef>
#include <memory>

namespace splitc::mpi {

/// `bytes` (at least 1) from the segment's private part (splitc::global_malloc), else malloc;
/// null when neither has room.
void* landing_alloc(std::size_t bytes) noexcept;
/// Frees what landing_alloc returned (either kind); null is ignored.
void landing_free(void* p) noexcept;

struct landing_deleter {
  void operator()(char* p) const noexcept { landing_free(p); }
};
using landing_buffer = std::unique_ptr<char[], landing_deleter>;

}  // namespace splitc::mpi
