// The engine under strided and indexed transfers (strided.hpp, indexed.hpp): a list of
// (processor, remote address, local address, length) pairs moved as gets, puts or stores.
// Each pair takes the path a bulk transfer of its length would (a copy when the target is
// this processor's or mapped here; the layer's RMA or long messages when it is long);
// the short ones left over are packed into one medium message per owner (per medium_limit
// bytes), whose handler at the owner places or reads every piece. src/vector_transfer.cpp.
#pragma once

#include <splitc/counter.hpp>
#include <splitc/detail/context.hpp>

#include <cstddef>
#include <span>

namespace splitc::detail {

/// One contiguous piece of a vector transfer: `len` bytes at `remote` on processor `proc`
/// and at `local` here.
struct transfer_pair {
  proc_t proc;
  void* remote;
  void* local;
  std::size_t len;
};

enum class vector_kind : unsigned char { get, put, store };

/// Move every pair. Gets and puts count messages on `ctr` (sync(ctr) completes them);
/// stores count bytes on `ctr` at the receivers (the library's counter: store_sync) and
/// on `*sent` here. `op` names the program's call in errors. Returns the packed messages
/// sent (DOLIB's statistics; pieces that travel alone are not counted).
std::size_t vector_transfer(context& c, vector_kind kind, std::span<const transfer_pair> pairs,
                     counter& ctr, counter* sent, const char* op);

}  // namespace splitc::detail
