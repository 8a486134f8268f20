// Error: a strided put whose destination elements overlap (a zero stride on the side
// written) ends the job with a message naming the call and the region, never a put whose
// result depends on the order of its pieces.
#include "harness.hpp"

#include <splitc/strided.hpp>

#include <cstdint>

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  auto words = splitc::all_spread_malloc<std::int64_t>(static_cast<std::size_t>(splitc::procs()));
  std::int64_t* mine = words.local();  // the same address on every processor
  const std::int64_t src[4] = {1, 2, 3, 4};
  const std::size_t counts[1] = {4};
  const std::ptrdiff_t dst_strides[1] = {0}, src_strides[1] = {8};
  if (splitc::myproc() == splitc::procs() - 1)
    splitc::bulk_put_strided(splitc::global_ptr<void>(0, mine), dst_strides, src, src_strides,
                             {8, counts});
  splitc::barrier();
  return harness::pass("xf_strided");
}
