// Bad input reaching an NXAM port from its layer: processor 1 sends, on
// NXAM's own message type, a message the port did not make; processor 0's
// poll finds it and splitc ends the job naming the processor and the cause.
//   too-long  longer than NXAM's receives: the layer's "receive shorter than
//             the message" error (NX EQMSGLONG, MPL MPE_TRUNC)
//   foreign   a short message that is not an NXAM packet
// Built for the nx and mpl ports (the layer's own calls: NXAM_LAYER_NX or _MPL).
#include <splitc/splitc.hpp>

#if defined(NXAM_LAYER_MPL)
#include <mpl.h>
#else
#include <nx.h>
#endif

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr int am_type = 1000;  // NXAM's type (src/layer/nxam_layer.hpp)

void send_raw(const void* data, std::size_t len, int to) {
#if defined(NXAM_LAYER_MPL)
  mpc_bsend(static_cast<char*>(const_cast<void*>(data)), static_cast<int>(len), to, am_type);
#else
  csend(am_type, static_cast<char*>(const_cast<void*>(data)), static_cast<long>(len), to, 0);
#endif
}
}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  const std::string what = argc > 1 ? argv[1] : "too-long";
  if (splitc::myproc() == 1) {
    if (what == "too-long") {
      std::vector<char> big(64 * 1024, 'x');
      send_raw(big.data(), big.size(), 0);
    } else {
      const char garbage[8] = {'n', 'o', 't', ' ', 'n', 'x', 'a', 'm'};
      send_raw(garbage, sizeof garbage, 0);
    }
  }
  splitc::barrier();
  splitc::finalize();
  std::printf("not reached\n");
  return 0;
}
