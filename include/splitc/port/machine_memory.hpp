// Porting kit: how much memory this machine has (RAM and swap) -- the bound a segment, and a
// layer that fills its memory in advance, are checked against before anything is allocated
// (issue 45: a segment of 64T once made OpenSHMEM write files until the machine ran out).
#pragma once

#include <cstdint>
#include <string>

namespace splitc::port {

struct machine_memory {
  std::uint64_t ram = 0;   ///< bytes of RAM (sysinfo's totalram)
  std::uint64_t swap = 0;  ///< bytes of swap (totalswap)
  /// RAM and swap: more than this can never be in use at once.
  std::uint64_t total() const noexcept { return ram + swap; }
};

/// This machine's memory, as the kernel reports it.
machine_memory this_machine_memory() noexcept;

/// "23.4 GiB of RAM and no swap", for messages.
std::string describe(const machine_memory& m);

/// A byte count for messages: "64 TiB", "1.5 GiB", "512 KiB", "100 B".
std::string describe_bytes(std::uint64_t bytes);

}  // namespace splitc::port
