/* CMAM, Berkeley's first active-message layer on the CM-5 (the seed's first
 * port, Luna 1994 §4.1.1, §4.2.1), as a thin alias layer over this
 * emulation's CMAML (cmaml.h): CMAM_4 is CMAML_request, CMAM_reply_4 is
 * CMAML_reply, and a segment is a receive port whose handler calls the
 * segment's end procedure. The prototypes are recalled, not preserved [U]
 * (README.md). */
#ifndef CMAM_H
#define CMAM_H

#include <cmaml.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef CMAML_handler_t CMAM_handler_t;

void CMAM_4(int node, CMAM_handler_t f, long a0, long a1, long a2, long a3);
void CMAM_reply_4(int node, CMAM_handler_t f, long a0, long a1, long a2, long a3);
int CMAM_poll(void);
/* Poll while *flag < value, then subtract value from *flag. */
void CMAM_wait(volatile int *flag, int value);

/* Segments: an area of this node that other nodes CMAM_xfer into. When
 * nbytes have arrived, end(info, base) runs here inside a poll. Returns the
 * segment's number, or -1 when none is free. A segment stays open until
 * CMAM_close_segment (end may close it). */
typedef void (*CMAM_end_t)(void *info, void *base);
int CMAM_open_segment(void *base, int nbytes, CMAM_end_t end, void *info);
void CMAM_close_segment(int segment);

/* A segment address [U]: the segment's number and a byte offset in it. */
#define CMAM_SEG_ADDR(segment, offset) (((long)(segment) << 32) | (long)(unsigned)(offset))

/* Send nbytes from buf to the segment address seg_addr of node. */
void CMAM_xfer(int node, long seg_addr, void *buf, int nbytes);

#ifdef __cplusplus
}
#endif

#endif /* CMAM_H */
