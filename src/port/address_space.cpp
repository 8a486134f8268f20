// Porting kit: address-space randomisation (include/splitc/port/address_space.hpp).
#include <splitc/port/address_space.hpp>
#include <splitc/port/env.hpp>

#include <fcntl.h>
#include <sys/personality.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace splitc::port {
namespace {

/// Is this executable position-independent (so its static data moves with randomisation)?
bool executable_is_pie() {
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  unsigned char header[18] = {};
  const bool ok = pread(fd, header, sizeof header, 0) == static_cast<ssize_t>(sizeof header);
  close(fd);
  if (!ok || std::memcmp(header, "\177ELF", 4) != 0) return false;
  std::uint16_t type = 0;
  std::memcpy(&type, header + 16, 2);
  return type == 3;  // ET_DYN
}

}  // namespace

bool disable_randomisation() noexcept {
  const int current = personality(0xffffffff);
  return current != -1 &&
         personality(static_cast<unsigned long>(current) | ADDR_NO_RANDOMIZE) != -1;
}

bool randomisation_on() noexcept {
  const int current = personality(0xffffffff);
  return current != -1 && (current & ADDR_NO_RANDOMIZE) == 0;
}

void reexec_without_randomisation(char** argv) {
  if (env::keep_aslr.get() || env::reexeced.get()) return;
  if (argv == nullptr || *argv == nullptr) return;
  if (!randomisation_on() || !executable_is_pie()) return;
  const int before = personality(0xffffffff);
  if (!disable_randomisation()) return;
  setenv(env::reexeced.name, "1", 1);
  std::fflush(nullptr);
  execv("/proc/self/exe", argv);
  // Could not: carry on with randomisation on.
  personality(static_cast<unsigned long>(before));
}

}  // namespace splitc::port
