// Porting kit: the symmetric segment's geometry and reservation
// (include/splitc/port/segment.hpp).
#include <splitc/errors.hpp>
#include <splitc/port/env.hpp>
#include <splitc/port/machine_memory.hpp>
#include <splitc/port/segment.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace splitc::port {

segment_geometry segment_from_environment() {
  segment_geometry g{default_segment_base, default_segment_size};
  const std::size_t size = env::segment_size.get(default_segment_size);
  if (size == 0) {
    bad_env_value(env::segment_size.name, *env::segment_size.value(),
                  "is not a usable size: the segment holds the spread heap (expected e.g. 512M, 2G)");
  }
  if (size > (~std::size_t{0} >> 1)) {
    bad_env_value(env::segment_size.name, *env::segment_size.value(),
                  "is larger than any address space (expected e.g. 512M, 2G)");
  }
  // One processor's segment larger than the machine's memory could never be filled, and a
  // layer that fills its memory in advance (OpenSHMEM's heap in /dev/shm files) would fill
  // the machine trying: refused before anything is allocated.
  if (const machine_memory m = this_machine_memory(); m.total() != 0 && size > m.total()) {
    bad_env_value(env::segment_size.name, *env::segment_size.value(),
                  fmt::format("is more memory than this machine has ({}): a processor's segment "
                              "must fit in it (expected e.g. 512M, 2G)",
                              describe(m)));
  }
  g.size = (size + segment_granule - 1) / segment_granule * segment_granule;
  const std::size_t base = env::segment_base.get(default_segment_base);
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  if (base == 0 || base % page != 0) {
    bad_env_value(env::segment_base.name, *env::segment_base.value(),
                  fmt::format("is not a usable address (a non-zero multiple of the page size, {} "
                              "bytes; e.g. 0x100000000000)",
                              page));
  }
  g.base = base;
  return g;
}

void* reserve_segment(std::string_view backend, const segment_geometry& g, std::size_t copies,
                      bool accessible) {
  auto* base = reinterpret_cast<void*>(g.base);
  std::size_t span = 0;
  if (__builtin_mul_overflow(g.size, copies, &span)) {
    fatal_error(fmt::format("{}: cannot reserve the spread heap ({} segments of {} bytes): more "
                            "than the address space; choose a smaller SPLITC_SEGMENT_SIZE",
                            backend, copies, g.size));
  }
  const int prot = accessible ? PROT_READ | PROT_WRITE : PROT_NONE;
  void* p = mmap(base, span, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                 -1, 0);
  if (p == MAP_FAILED || p != base) {
    const int error = errno;
    // A kernel without MAP_FIXED_NOREPLACE treats it as a hint and maps elsewhere.
    if (p != MAP_FAILED) munmap(p, span);
    fatal_error(fmt::format(
        "{}: cannot reserve the spread heap ({} bytes at {}): {}; choose another address with "
        "SPLITC_SEGMENT_BASE or a smaller SPLITC_SEGMENT_SIZE",
        backend, span, base, p == MAP_FAILED ? std::strerror(error) : "address taken"));
  }
  return p;
}

void* map_shared(std::string_view backend, const char* what, void* at, std::size_t len, int fd,
                 std::size_t offset) {
  const int flags = MAP_SHARED | (at != nullptr ? MAP_FIXED : 0);
  void* p = mmap(at, len, PROT_READ | PROT_WRITE, flags, fd, static_cast<off_t>(offset));
  if (p == MAP_FAILED)
    fatal_error(fmt::format("{}: cannot map {} ({} bytes at {}): {}", backend, what, len, at,
                            std::strerror(errno)));
  if (at != nullptr && p != at)
    fatal_error(fmt::format("{}: {} landed at {} instead of {}", backend, what, p, at));
  return p;
}

void release_segment(const segment_geometry& g, std::size_t copies) noexcept {
  if (g.base != 0) munmap(reinterpret_cast<void*>(g.base), g.size * copies);
}

}  // namespace splitc::port
