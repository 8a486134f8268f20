// Porting kit: the symmetric segment every backend maps at the same address in
// every process. Its geometry comes from SPLITC_SEGMENT_SIZE (default 1 GiB,
// rounded up to 2 MiB) and SPLITC_SEGMENT_BASE (default 0x100000000000, a
// multiple of the page size); the address range is reserved with
// MAP_FIXED_NOREPLACE so that nothing already mapped there is overwritten.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace splitc::port {

inline constexpr std::uintptr_t default_segment_base = 0x100000000000;
inline constexpr std::size_t default_segment_size = std::size_t{1} << 30;
/// Segment sizes are rounded up to a multiple of this (a huge page).
inline constexpr std::size_t segment_granule = std::size_t{2} << 20;

/// Whether [addr, addr + len) lies inside the segment [base, base + size) (a len of 0 counts
/// as 1 byte), and at what offset. A segment is never smaller than segment_granule (size is
/// the geometry's, never 0), so for a len known at compile time up to that size this is one
/// subtraction and one compare: what a backend's direct_range (port/am.hpp,
/// has_direct_range) answers with.
[[gnu::always_inline]] inline bool range_in_segment(std::uintptr_t base, std::size_t size,
                                                    const void* addr, std::size_t len,
                                                    std::uintptr_t& offset) noexcept {
  offset = reinterpret_cast<std::uintptr_t>(addr) - base;
  const std::size_t bytes = len == 0 ? 1 : len;
  if (bytes <= segment_granule) return offset <= size - bytes;
  return offset < size && bytes <= size - offset;
}

/// Where this process reaches [addr, addr + len) of a peer whose copy of the segment [base,
/// base + size) is mapped here at peer_base (0: not mapped), or nullptr: the direct_range of a
/// backend that keeps a table of its mapped peers (the same-host layer's for udp and mpi, the
/// T3D port's). Always inlined: it is a mapped access's whole cost.
[[gnu::always_inline]] inline void* range_in_peer(std::uintptr_t base, std::size_t size,
                                                 std::uintptr_t peer_base, const void* addr,
                                                 std::size_t len) noexcept {
  std::uintptr_t offset;
  if (!range_in_segment(base, size, addr, len, offset)) return nullptr;
  // Pointer arithmetic, so that the compiler knows the answer is not null.
  char* const peer = reinterpret_cast<char*>(peer_base);
  return peer == nullptr ? nullptr : peer + offset;
}

struct segment_geometry {
  std::uintptr_t base;
  std::size_t size;
};

/// The geometry the environment asks for. A size that is not a size, or 0,
/// and a base that is 0 or not page-aligned, end the job naming the variable.
segment_geometry segment_from_environment();

/// Reserve `copies` consecutive segments from g.base: readable and writable
/// private memory when `accessible`, else an inaccessible placeholder the
/// caller maps over with MAP_FIXED. Ends the job (naming `backend`, the
/// range and the cause) when the range cannot be had exactly.
void* reserve_segment(std::string_view backend, const segment_geometry& g, std::size_t copies,
                      bool accessible);

/// Map `len` bytes of the shared file `fd` from `offset`, readable and
/// writable: exactly at `at` (over a reservation), or anywhere when `at` is
/// nullptr. Ends the job naming `backend` and `what` when it cannot.
void* map_shared(std::string_view backend, const char* what, void* at, std::size_t len, int fd,
                 std::size_t offset);

/// Give back what reserve_segment (and mappings over it) took.
void release_segment(const segment_geometry& g, std::size_t copies) noexcept;

}  // namespace splitc::port
