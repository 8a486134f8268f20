// Porting kit: this machine's memory (include/splitc/port/machine_memory.hpp).
#include <splitc/port/machine_memory.hpp>

#include <fmt/format.h>
#include <sys/sysinfo.h>

namespace splitc::port {

machine_memory this_machine_memory() noexcept {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) return {};
  const std::uint64_t unit = info.mem_unit == 0 ? 1 : info.mem_unit;
  return {static_cast<std::uint64_t>(info.totalram) * unit,
          static_cast<std::uint64_t>(info.totalswap) * unit};
}

std::string describe_bytes(std::uint64_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024 && u < 6) {
    value /= 1024;
    ++u;
  }
  if (u == 0) return fmt::format("{} B", bytes);
  if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
    return fmt::format("{} {}", static_cast<std::uint64_t>(value), units[u]);
  return fmt::format("{:.1f} {}", value, units[u]);
}

std::string describe(const machine_memory& m) {
  return fmt::format("{} of RAM and {}", describe_bytes(m.ram),
                     m.swap == 0 ? std::string("no swap") : describe_bytes(m.swap) + " of swap");
}

}  // namespace splitc::port
