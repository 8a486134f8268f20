// The C++ reference for tests/splitcc/programs/samplesort.sc (test
// splitcc.compare.samplesort.*): the same keys (`keys` per processor from key_of(processor,
// i)) sorted by the same sample sort on splitc's C++ API: each processor sorts its keys and
// publishes `samples` of them (keys[i * keys / samples]) in a blocked spread array; every
// processor reads them all with bulk_get and takes the same splitters (every samples-th of
// them, sorted); where each key goes in its destination's block follows from a vector scan
// of the per-destination counts over processors (and the totals, broadcast from the last);
// each key is sent with a store, store_sync waits for this processor's share, which it sorts.
// Processor 0 prints the same "result" lines as the Split-C program: per processor, the
// count, sum, xor and hash of the keys it ends with.
#include "digest.hpp"

#include <splitc/splitc.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

namespace {

constexpr std::size_t keys = 700, samples = 16;
constexpr std::size_t room = keys * 8;  // per processor: room for an uneven share

std::uint32_t key_of(int proc, std::size_t i) {
  const std::uint32_t x =
      static_cast<std::uint32_t>(proc * 104729 + static_cast<int>(i) * 7 + 1) * 2246822519u;
  return x ^ (x >> 13);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  {
    const int me = splitc::myproc(), procs = splitc::procs();
    const auto P = static_cast<std::size_t>(procs);
    auto published = splitc::make_blocked<std::uint32_t>(samples);  // samples[PROCS]::[samples]
    auto received = splitc::make_blocked<std::uint32_t>(room);      // received[PROCS]::[room]

    std::vector<std::uint32_t> mine(keys);
    for (std::size_t i = 0; i < keys; ++i) mine[i] = key_of(me, i);
    std::sort(mine.begin(), mine.end());
    for (std::size_t i = 0; i < samples; ++i) published.my_storage()[i] = mine[i * keys / samples];
    splitc::barrier();

    std::vector<std::uint32_t> all(samples * P);
    for (std::size_t p = 0; p < P; ++p)
      splitc::bulk_get(&all[p * samples], published.gptr(p * samples),
                       samples * sizeof(std::uint32_t));
    splitc::sync();
    std::sort(all.begin(), all.end());
    // Destination d takes the keys from splitter[d] (included) to splitter[d + 1].
    auto destination = [&](std::uint32_t key) {
      std::size_t d = 0;
      while (d + 1 < P && key >= all[(d + 1) * samples]) ++d;
      return d;
    };

    std::vector<std::uint64_t> send(P, 0), place(P), total(P);
    for (std::uint32_t k : mine) ++send[destination(k)];
    place = send;
    splitc::scan(std::span<std::uint64_t>(place), splitc::ops::add{});  // inclusive
    total = place;
    splitc::broadcast(std::span<std::uint64_t>(total), procs - 1);
    for (std::size_t d = 0; d < P; ++d) place[d] -= send[d];  // after lower processors' keys
    const std::uint64_t share = total[static_cast<std::size_t>(me)];
    if (share > room) splitc::fatal_error("samplesort_ref: this processor's keys do not fit");

    for (std::uint32_t k : mine) {
      const std::size_t d = destination(k);
      splitc::store(received.gptr(d * room + place[d]++), k);
    }
    splitc::store_sync(static_cast<std::int64_t>(share * sizeof(std::uint32_t)));
    const auto out = received.my_storage().first(share);
    std::sort(out.begin(), out.end());

    reference::print_keys("samplesort", reference::digest_keys(out));
  }  // the spread arrays are freed (collectively) before finalize
  splitc::finalize();
  return 0;
}
