// Indexed transfers (indexed.hpp): lists of pieces or of elements turned into the pairs of
// a vector transfer (detail/vector_transfer.hpp), the remote and local lists cut at each
// other's boundaries. (Element lists go to the engine without a list of pairs:
// elements_transfer, src/vector_transfer.cpp.)
#include <splitc/indexed.hpp>

#include <splitc/bulk.hpp>

#include <vector>

namespace splitc::detail {

std::size_t pieces_transfer(context& c, vector_kind kind, std::span<const global_piece> remote,
                     std::span<const local_piece> local, counter& ctr, counter* sent,
                     const char* op) {
  std::size_t remote_bytes = 0, local_bytes = 0;
  for (const global_piece& g : remote) {
    if (g.len > max_bulk_length) bad_length(c, g.len, op);
    remote_bytes += g.len;
  }
  for (const local_piece& l : local) {
    if (l.len > max_bulk_length) bad_length(c, l.len, op);
    if (l.ptr == nullptr && l.len != 0) fail("{}: a local piece of {} bytes at a null pointer", op, l.len);
    local_bytes += l.len;
  }
  if (remote_bytes != local_bytes)
    fail("{}: the global pieces hold {} bytes and the local ones {}; the two lists must hold "
         "the same bytes", op, remote_bytes, local_bytes);
  std::vector<transfer_pair> pairs;
  pairs.reserve(remote.size());
  std::size_t li = 0, lused = 0;  // the local piece being filled, and how far
  for (const global_piece& g : remote) {
    if (g.len == 0) {
      // Checked like any other piece (its processor), moving nothing.
      pairs.push_back({g.ptr.proc(), g.ptr.local(), nullptr, 0});
      continue;
    }
    std::size_t done = 0;
    while (done < g.len) {
      while (local[li].len == lused) {
        ++li;
        lused = 0;
      }
      const std::size_t n = std::min(g.len - done, local[li].len - lused);
      pairs.push_back({g.ptr.proc(), static_cast<char*>(g.ptr.local()) + done,
                       static_cast<char*>(local[li].ptr) + lused, n});
      done += n;
      lused += n;
    }
  }
  return vector_transfer(c, kind, pairs, ctr, sent, op);
}

}  // namespace splitc::detail
