// The smp backend's one copy (issue 43): with SPLITC_SMP_ONE_COPY_MIN set, bulk transfers and
// long messages into a peer's memory outside the segments (std::vector, malloc'd) of at least
// that many bytes go by the kernel's cross-memory copy, smaller ones through the rings; the
// data is exact either way, both directions, at sizes on both sides of the threshold, and a
// long message carried by the ring is never overtaken by a later one copied by the kernel
// into the same bytes (the backend's delivery is ordered). The path is checked: bytes went by
// one copy when it is on (argument "on"), none when it is off (the default; argument "off").
#include "../../../tests/programs/harness.hpp"

#include <splitc/backends/smp.hpp>
#include <splitc/wait.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using smp = splitc::backends::smp::smp_backend;

smp& backend() { return splitc::detail::ctx().backend; }

unsigned char pattern(int proc, std::size_t i, int salt) {
  return static_cast<unsigned char>((proc * 131 + static_cast<int>(i % 251) + salt * 7) & 0xff);
}

/// Every processor's address of its own buffer (outside the segments).
std::vector<std::uintptr_t> addresses_of(void* mine) {
  std::vector<std::uintptr_t> all(static_cast<std::size_t>(splitc::procs()));
  const std::uintptr_t me = reinterpret_cast<std::uintptr_t>(mine);
  splitc::all_gather(std::span<const std::uintptr_t>(&me, 1), std::span<std::uintptr_t>(all));
  return all;
}

int ordered_seen = 0;
void on_ordered(const splitc::am_message&) { ++ordered_seen; }

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const int me = splitc::myproc(), P = splitc::procs();
  const int right = (me + 1) % P, left = (me + P - 1) % P;
  constexpr std::size_t most = 3 * 1024 * 1024 + 5;
  std::vector<unsigned char> inbox(most + 1), source(most), fetched(most);
  const auto inboxes = addresses_of(inbox.data());
  const auto sources = addresses_of(source.data());
  CHECK_MSG(argc > 1 && (std::strcmp(argv[1], "on") == 0 || std::strcmp(argv[1], "off") == 0),
            "usage: smp_one_copy on|off (is SPLITC_SMP_ONE_COPY_MIN set?)");
  const bool on = std::strcmp(argv[1], "on") == 0;
  CHECK_MSG(on == (backend().one_copy_min_bytes() != SIZE_MAX),
            "one copy should be {} (smallest message: {})", on ? "on" : "off",
            backend().one_copy_min_bytes());
  const std::size_t threshold = on ? backend().one_copy_min_bytes() : 32 * 1024;
  const std::size_t before = backend().one_copy_bytes();
  int salt = 0;
  for (std::size_t len : {std::size_t{1000}, threshold - 1, threshold,
                          std::size_t{1} << 20, most}) {
    ++salt;
    for (std::size_t i = 0; i < len; ++i) source[i] = pattern(me, i, salt);
    std::fill(inbox.begin(), inbox.end(), 0);
    splitc::barrier();
    // put into the right neighbour's vector; get from the left neighbour's.
    splitc::bulk_put(splitc::global_ptr<void>(right, reinterpret_cast<void*>(inboxes[right])),
                     source.data(), len);
    splitc::sync();
    splitc::barrier();
    for (std::size_t i = 0; i < len; ++i)
      CHECK_MSG(inbox[i] == pattern(left, i, salt), "bulk_put of {} bytes: byte {}", len, i);
    CHECK_MSG(inbox[len] == 0, "bulk_put of {} bytes wrote past its end", len);
    std::fill(fetched.begin(), fetched.end(), 0);
    splitc::bulk_get(fetched.data(),
                     splitc::global_ptr<void>(left, reinterpret_cast<void*>(sources[left])), len);
    splitc::sync();
    for (std::size_t i = 0; i < len; ++i)
      CHECK_MSG(fetched[i] == pattern(left, i, salt), "bulk_get of {} bytes: byte {}", len, i);
    splitc::barrier();
  }
  // Order: a small long message through the ring, then a large one into the same bytes by
  // the kernel, back to back: the large one's bytes must be what stays.
  splitc::barrier();
  const splitc::handler_id h = splitc::register_handler(on_ordered);
  std::vector<unsigned char> small(4096, 0xAA), large(64 * 1024, 0x55);
  for (int round = 0; round < 50; ++round) {
    splitc::am_request_long(right, h, small.data(), small.size(),
                            reinterpret_cast<void*>(inboxes[right]));
    splitc::am_request_long(right, h, large.data(), large.size(),
                            reinterpret_cast<void*>(inboxes[right]));
  }
  splitc::wait_until("the ordered long messages", [] { return ordered_seen == 100; });
  splitc::barrier();
  for (std::size_t i = 0; i < large.size(); ++i) CHECK_MSG(inbox[i] == 0x55, "ordered byte {}", i);
  if (P > 1 && on)
    CHECK_MSG(backend().one_copy_bytes() > before, "no bytes went by one copy ({})",
              backend().one_copy_bytes());
  if (!on)
    CHECK_MSG(backend().one_copy_bytes() == 0, "{} bytes went by one copy, which is off",
              backend().one_copy_bytes());
  return harness::pass("smp.one_copy");
}
