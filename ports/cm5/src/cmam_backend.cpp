// The cmam port's glue to CMAM and CMMD (cmam.h, cmmd.h): the port template's
// calls mapped to CMAM_4, CMAM_reply_4, CMAM_poll and CMAM_wait; landing
// areas are CMAM segments (CMAM_open_segment, filled by CMAM_xfer, whose end
// procedure delivers the long message); the bootstrap barrier is the control
// network's.
#include <splitc/backends/cmam.hpp>
#include <splitc/backends/cm5_port_impl.hpp>

#include <cmam.h>
#include <cmmd.h>

namespace splitc::backends::cm5 {

void cmam_layer::request(int node, layer_handler h, long a0, long a1, long a2, long a3) {
  CMAM_4(node, h, a0, a1, a2, a3);
}
void cmam_layer::reply(int node, layer_handler h, long a0, long a1, long a2, long a3) {
  CMAM_reply_4(node, h, a0, a1, a2, a3);
}
int cmam_layer::poll() { return CMAM_poll(); }
void cmam_layer::poll_while_lt(volatile int* flag, int value) {
  CMAM_wait(flag, value);
  *flag = *flag + value;  // CMAM_wait consumed it; the port reads the flag afterwards
}

static void segment_end(void* info, void*) { cmam_backend::landed(info); }

int cmam_layer::open_landing(void* addr, int nbytes, void* record) {
  return CMAM_open_segment(addr, nbytes, segment_end, record);
}
void cmam_layer::close_landing(int port) { CMAM_close_segment(port); }
void cmam_layer::send_to_landing(int node, int port, int offset, const void* src, int nbytes) {
  CMAM_xfer(node, CMAM_SEG_ADDR(port, offset), const_cast<void*>(src), nbytes);
}
void cmam_layer::barrier() { CMMD_sync_with_nodes(); }
int cmam_layer::self() { return CMMD_self_address(); }
int cmam_layer::nodes() { return CMMD_partition_size(); }
void cmam_layer::enroll(int node) {
#ifndef SPLITC_SIM_SUBSTRATE
  CMMD_enroll(node);
#else
  (void)node;
#endif
}
void cmam_layer::set_error_hook(void (*hook)(const char*)) { CMMD_set_error_hook(hook); }

template class cm5_backend<cmam_layer>;
static_assert(splitc::backend<cmam_backend>);

}  // namespace splitc::backends::cm5
