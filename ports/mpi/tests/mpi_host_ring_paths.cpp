// Which way a long message into a same-host peer's memory outside its segment goes
// (SPLITC_MPI_HOST_RING_LONG_MAX for requests, SPLITC_MPI_HOST_RING_REPLY_MAX for replies;
// docs/mpi.md, "The long-message protocols"): a 2 MiB bulk_put into processor 1's vector and a
// 2 MiB bulk_get from it, each checked byte for byte, and the path each took read from the
// sender's statistics (a long message by MPI is inline, staged or rendezvous; through the
// rings it is none of them). Arguments: the expected path of the put and of the get's reply,
// "ring" or "mpi" each. P = 2 on one host.
#include "mpi_test.hpp"

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace {

std::uint64_t longs_by_mpi() {
  const auto& s = mpitest::backend().stats();
  return s.inline_longs + s.staged + s.rendezvous + s.rma_puts;
}

unsigned char pattern(std::size_t i, int salt) {
  return static_cast<unsigned char>((i * 131 + i / 4099 + static_cast<std::size_t>(salt)) & 0xff);
}

bool expects_ring(const char* arg) {
  CHECK_MSG(std::strcmp(arg, "ring") == 0 || std::strcmp(arg, "mpi") == 0,
            "expected path '{}': ring or mpi", arg);
  return std::strcmp(arg, "ring") == 0;
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  CHECK_MSG(argc == 3, "usage: mpi_host_ring_paths ring|mpi ring|mpi (the put's, the reply's)");
  const bool put_by_ring = expects_ring(argv[1]), reply_by_ring = expects_ring(argv[2]);
  CHECK_MSG(splitc::procs() == 2 && mpitest::messages_on_rings(),
            "needs 2 processors of one host with the same-host rings");
  const int me = splitc::myproc();
  constexpr std::size_t bytes = std::size_t{2} << 20;
  std::vector<unsigned char> mine(bytes, 0);
  std::uintptr_t address = reinterpret_cast<std::uintptr_t>(mine.data());
  std::vector<std::uintptr_t> addresses(2);
  splitc::all_gather(std::span<const std::uintptr_t>(&address, 1),
                     std::span<std::uintptr_t>(addresses));
  const splitc::global_ptr<void> at_one(1, reinterpret_cast<void*>(addresses[1]));

  // The put: processor 0 is its sender.
  std::uint64_t before = longs_by_mpi();
  splitc::barrier();
  if (me == 0) {
    std::vector<unsigned char> source(bytes);
    for (std::size_t i = 0; i < bytes; ++i) source[i] = pattern(i, 1);
    splitc::bulk_put(at_one, source.data(), bytes);
    splitc::sync();
    const bool went_by_ring = longs_by_mpi() == before;
    CHECK_MSG(went_by_ring == put_by_ring, "a 2 MiB put went by {}, expected {}",
              went_by_ring ? "the rings" : "MPI", argv[1]);
  }
  splitc::barrier();
  if (me == 1)
    for (std::size_t i = 0; i < bytes; ++i)
      CHECK_MSG(mine[i] == pattern(i, 1), "the put's byte {} is wrong", i);

  // The get: processor 1 sends the reply.
  if (me == 1)
    for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(i, 2);
  // Counted before the barrier: processor 0 may leave it and ask while processor 1, still in
  // it, serves the request.
  before = longs_by_mpi();
  splitc::barrier();
  if (me == 0) {
    splitc::bulk_get(mine.data(), at_one, bytes);
    splitc::sync();
    for (std::size_t i = 0; i < bytes; ++i)
      CHECK_MSG(mine[i] == pattern(i, 2), "the get's byte {} is wrong", i);
  }
  splitc::barrier();
  if (me == 1) {
    const bool went_by_ring = longs_by_mpi() == before;
    CHECK_MSG(went_by_ring == reply_by_ring, "a 2 MiB get's reply went by {}, expected {}",
              went_by_ring ? "the rings" : "MPI", argv[2]);
  }
  return mpitest::pass("mpi_host_ring_paths");
}
