// A pointer carried in an active message's argument word and back, for the core's handlers
// (src/atomics.cpp, global_memory.cpp, put_signal.cpp, vector_transfer.cpp; not installed).
// In a namespace of their own, not an unnamed one, so that the core's sources also compile
// as one (cmake/SplitcBackend.cmake compiles them in a few unity sources).
#pragma once

#include <splitc/port/am.hpp>

#include <cstdint>

namespace splitc::detail::am_words {

inline am_word word(const void* p) noexcept { return reinterpret_cast<std::uintptr_t>(p); }

template <class T>
T* as(am_word w) noexcept {
  return reinterpret_cast<T*>(static_cast<std::uintptr_t>(w));
}

}  // namespace splitc::detail::am_words
