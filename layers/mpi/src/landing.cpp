// Memory that peers' long messages land in (landing.hpp).
#include "landing.hpp"

#include <splitc/splitc.hpp>

#include <cstdint>
#include <cstdlib>

namespace splitc::mpi {
namespace {

bool in_segment(const void* p) noexcept {
  const segment_info s = my_segment();
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto base = reinterpret_cast<std::uintptr_t>(s.base);
  return a >= base && a - base < s.size;
}

}  // namespace

void* landing_alloc(std::size_t bytes) noexcept {
  if (bytes == 0) bytes = 1;
  if (void* p = global_malloc(bytes).local(); p != nullptr) return p;
  return std::malloc(bytes);
}

void landing_free(void* p) noexcept {
  if (p == nullptr) return;
  if (in_segment(p))
    global_free(toglobal(myproc(), p));
  else
    std::free(p);
}

}  // namespace splitc::mpi
