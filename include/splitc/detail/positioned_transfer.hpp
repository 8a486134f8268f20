// Element lists whose local side is a position in one buffer: element i of the list moves
// between its remote place and local + position * elem_size. The same engine, messages
// and handlers as indexed.hpp's lists (src/vector_transfer.cpp), for a caller that has its
// items' owners, places and positions at hand -- DOLIB's list gathers and scatters -- and
// would otherwise build two lists of pieces (40 bytes an item, read four times) to say it.
// Not included by splitc.hpp: a detail for the layers built on splitc.
#pragma once

#include <splitc/detail/vector_transfer.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace splitc::detail {

struct positioned_element {
  void* remote;             ///< the element's place at its owner
  proc_t proc;              ///< its owner
  std::uint32_t position;   ///< its place in the local buffer, in elements
};

/// Move every element as vector_transfer would move the pairs (remote, proc, local +
/// position * elem_size, elem_size); the same counters, errors and return value.
std::size_t positioned_transfer(context& c, vector_kind kind,
                                std::span<const positioned_element> remote, void* local,
                                std::size_t elem_size, counter& ctr, counter* sent,
                                const char* op);

}  // namespace splitc::detail
