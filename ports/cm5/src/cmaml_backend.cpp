// The cmaml port's glue to CMAML and CMMD (cmaml.h, cmmd.h): each call of
// the port's template (cm5_port_impl.hpp) mapped to the vendor's, landing
// areas as receive ports filled by CMAML_scopy, the bootstrap barrier on the
// control network; and the launcher (a partition of real processes, on this
// host, under the porting kit's supervisor).
#include <splitc/backends/cmaml.hpp>
#include <splitc/backends/cm5_port_impl.hpp>

#include <cmaml.h>
#include <cmmd.h>

namespace splitc::backends::cm5 {

void cmaml_layer::request(int node, layer_handler h, long a0, long a1, long a2, long a3) {
  CMAML_request(node, h, a0, a1, a2, a3);
}
void cmaml_layer::reply(int node, layer_handler h, long a0, long a1, long a2, long a3) {
  CMAML_reply(node, h, a0, a1, a2, a3);
}
int cmaml_layer::poll() { return CMAML_poll(); }
void cmaml_layer::poll_while_lt(volatile int* flag, int value) { CMAML_poll_while_lt(flag, value); }

static void port_full(int, void* record) { cmaml_backend::landed(record); }

int cmaml_layer::open_landing(void* addr, int nbytes, void* record) {
  const int rport = CMAML_allocate_rport();
  if (rport < 0) return -1;
  CMAML_set_rport_addr(rport, addr);
  CMAML_set_rport_byte_counter(rport, nbytes);
  CMAML_set_rport_handler(rport, port_full);
  CMAML_set_rport_handler_arg2(rport, record);
  return rport;
}
void cmaml_layer::close_landing(int port) { CMAML_free_rport(port); }
void cmaml_layer::send_to_landing(int node, int port, int offset, const void* src, int nbytes) {
  CMAML_scopy(node, port, 0, offset, const_cast<void*>(src), nbytes, nullptr, nullptr);
}
void cmaml_layer::barrier() { CMMD_sync_with_nodes(); }
int cmaml_layer::self() { return CMMD_self_address(); }
int cmaml_layer::nodes() { return CMMD_partition_size(); }
void cmaml_layer::enroll(int node) {
#ifndef SPLITC_SIM_SUBSTRATE
  CMMD_enroll(node);
#else
  (void)node;
#endif
}
void cmaml_layer::set_error_hook(void (*hook)(const char*)) { CMMD_set_error_hook(hook); }

template class cm5_backend<cmaml_layer>;
static_assert(splitc::backend<cmaml_backend>);

}  // namespace splitc::backends::cm5
