/* CMAM as an alias layer over CMAML: CMAM_4 and CMAM_reply_4 are CMAML's
 * request and reply, a segment is a receive port whose handler calls the
 * segment's end procedure, CMAM_xfer is CMAML_scopy into it. */
#include "cm5_layer.h"

#include <cmam.h>

void CMAM_4(int node, CMAM_handler_t f, long a0, long a1, long a2, long a3) {
  CMAML_request(node, f, a0, a1, a2, a3);
}

void CMAM_reply_4(int node, CMAM_handler_t f, long a0, long a1, long a2, long a3) {
  CMAML_reply(node, f, a0, a1, a2, a3);
}

int CMAM_poll(void) { return CMAML_poll(); }

void CMAM_wait(volatile int *flag, int value) {
  CMAML_poll_while_lt(flag, value);
  *flag -= value;
}

static void segment_complete(int rport, void *base) {
  struct cm5_segment *s = &cm5_node()->segments[rport];
  if (s->end != NULL) s->end(s->info, base);
}

int CMAM_open_segment(void *base, int nbytes, CMAM_end_t end, void *info) {
  if (nbytes < 0) cm5_fail("CMAM_open_segment: %d bytes", nbytes);
  const int rport = CMAML_allocate_rport();
  if (rport < 0) return -1;
  struct cm5_segment *s = &cm5_node()->segments[rport];
  s->end = end;
  s->info = info;
  CMAML_set_rport_addr(rport, base);
  CMAML_set_rport_byte_counter(rport, nbytes);
  CMAML_set_rport_handler(rport, segment_complete);
  CMAML_set_rport_handler_arg2(rport, base);
  return rport;
}

void CMAM_close_segment(int segment) { CMAML_free_rport(segment); }

void CMAM_xfer(int node, long seg_addr, void *buf, int nbytes) {
  const int segment = (int)(seg_addr >> 32);
  const int offset = (int)(unsigned)(seg_addr & 0xffffffffL);
  if (segment < 0 || segment >= CMAML_MAX_RPORTS)
    cm5_fail("CMAM_xfer: segment %d is out of range (0 to %d)", segment, CMAML_MAX_RPORTS - 1);
  CMAML_scopy(node, segment, 0, offset, buf, nbytes, NULL, NULL);
}
