/* HPAM, the active-message layer of the HP workstations on FDDI, with the
 * GAM 1.1 interface (Martin, "HPAM: An Active Messages Layer for a Network of
 * HP Workstations"), emulated: the seed's HP port of Libsplit-C was written
 * against these names. The header's name is a guess (the original does not
 * survive); emulations/hp/README.md states every behaviour chosen.
 *
 * A packet is 4 KB. The network under it loses, duplicates and reorders
 * packets on demand (HPAM_DROP, HPAM_DUPLICATE, HPAM_REORDER, HPAM_SEED);
 * HPAM makes it reliable and ordered: strict request/reply, an empty reply
 * when a request handler sends none, per-destination request and reply
 * buffers with instance bits, timeouts and retransmission with exponential
 * back-off, and a retry limit after which the destination is declared dead
 * and the job ends naming it.
 *
 * Errors: the calls return -1 and set am_errno to an AM_E* code. */
#ifndef HPAM_H
#define HPAM_H

#ifdef __cplusplus
extern "C" {
#endif

typedef int vnn_t; /* a virtual node number, 0 .. am_procs() - 1 */

/* Handlers of requests and replies: the source node, then the words. */
typedef void (*handler_0_t)(vnn_t src);
typedef void (*handler_1_t)(vnn_t src, long a1);
typedef void (*handler_2_t)(vnn_t src, long a1, long a2);
typedef void (*handler_3_t)(vnn_t src, long a1, long a2, long a3);
typedef void (*handler_4_t)(vnn_t src, long a1, long a2, long a3, long a4);
/* am_request_df / am_reply_df: two ints and a double (PA-RISC passes the
 * double in a floating-point register). */
typedef void (*handler_df_t)(vnn_t src, int a1, int a2, double d);
/* Handlers of am_store, am_get and the end function of am_store_async. */
typedef void (*handler_mem_t)(vnn_t src, void *addr, int nbytes, void *arg);

/* Error codes (am_errno). */
enum {
  AM_OK = 0,
  AM_EBADNODE = 1,    /* destination out of range, or a reply not to the requester */
  AM_EBADHANDLER = 2, /* a null handler where one is required */
  AM_ETOOLONG = 3,    /* nbytes < 0 or more than am_max_size() */
  AM_ENOTREQUEST = 4, /* am_reply_* outside a request handler */
  AM_EREPLIED = 5,    /* a second reply from one request handler */
  AM_EINHANDLER = 6,  /* a request (or a reply from a reply handler) from inside a handler */
  AM_EBUSY = 7,       /* non-blocking mode: every request buffer to the node is in flight */
  AM_ENOTENABLED = 8, /* a call before am_enable() or after am_disable() */
  AM_ESYSTEM = 9      /* the network cannot be opened (see the message on stderr) */
};
extern int am_errno;
/* A short English description of an AM_E* code. */
const char *am_error_string(int code);

/* Start and stop the layer. am_enable reads the job's layout from the
 * environment (HPAM_ENDPOINTS, HPAM_NODE; a process started alone is a job of
 * one). am_disable waits until every request this node sent is answered,
 * then keeps answering retransmissions until the network has been quiet for
 * HPAM_LINGER_MS. */
int am_enable(void);
int am_disable(void);

vnn_t am_my_proc(void);
int am_procs(void);
/* The largest nbytes of am_store, am_store_async and am_get: a 4 KB packet
 * less HPAM's header. */
int am_max_size(void);

/* Requests: run h(src, a1..) on dest. Blocks (polling) while every request
 * buffer to dest is in flight, unless am_set_blocking(0). Not allowed from
 * inside a handler (AM_EINHANDLER). */
int am_request_0(vnn_t dest, handler_0_t h);
int am_request_1(vnn_t dest, handler_1_t h, long a1);
int am_request_2(vnn_t dest, handler_2_t h, long a1, long a2);
int am_request_3(vnn_t dest, handler_3_t h, long a1, long a2, long a3);
int am_request_4(vnn_t dest, handler_4_t h, long a1, long a2, long a3, long a4);
int am_request_df(vnn_t dest, handler_df_t h, int a1, int a2, double d);

/* Replies: only from a request handler (or a store handler), at most one,
 * to the requester. A handler that sends none gets an empty reply. */
int am_reply_0(vnn_t dest, handler_0_t h);
int am_reply_1(vnn_t dest, handler_1_t h, long a1);
int am_reply_2(vnn_t dest, handler_2_t h, long a1, long a2);
int am_reply_3(vnn_t dest, handler_3_t h, long a1, long a2, long a3);
int am_reply_4(vnn_t dest, handler_4_t h, long a1, long a2, long a3, long a4);
int am_reply_df(vnn_t dest, handler_df_t h, int a1, int a2, double d);

/* Bulk: copy nbytes from lva here to rva on dest, then run h(src, rva,
 * nbytes, arg) there as a request handler (it may reply). lva may be reused
 * on return. From inside a request handler, a store to the requester is that
 * handler's reply: h then runs at the requester as a reply handler. */
int am_store(vnn_t dest, void *lva, void *rva, int nbytes, handler_mem_t h, void *arg);
/* The same; endfunc(dest, lva, nbytes, earg) runs here, from am_poll, once
 * the store is acknowledged (null: none). */
int am_store_async(vnn_t dest, void *lva, void *rva, int nbytes, handler_mem_t h, void *arg,
                   handler_mem_t endfunc, void *earg);
/* Copy nbytes from rva on dest to lva here, then run h(dest, lva, nbytes,
 * arg) here as a reply handler. */
int am_get(vnn_t dest, void *rva, void *lva, int nbytes, handler_mem_t h, void *arg);

/* Receive what has arrived, run its handlers, retransmit what is overdue
 * (checked on every 32nd call). Returns the number of handlers run. */
int am_poll(void);
/* Poll until *flag >= value. */
int am_wait(volatile int *flag, int value);

/* ---- beyond GAM 1.1: what a layer above (splitc) needs ---------------------- */

/* 1 (default): a request with every buffer to its destination in flight
 * polls until one is free. 0: it returns -1 with AM_EBUSY instead, so a
 * caller that must not run handlers inside a send can back off. */
void am_set_blocking(int blocking);
/* Where the caller runs: AM_IN_NO_HANDLER, AM_IN_REQUEST_HANDLER (it may
 * still reply; *requester is set), AM_IN_REPLIED_HANDLER (a request handler
 * that has replied) or AM_IN_REPLY_HANDLER. */
enum {
  AM_IN_NO_HANDLER = 0,
  AM_IN_REQUEST_HANDLER = 1,
  AM_IN_REPLIED_HANDLER = 2,
  AM_IN_REPLY_HANDLER = 3
};
int am_handler_context(vnn_t *requester);
/* Requests sent and not yet answered (every destination). */
int am_outstanding(void);
/* Nothing to do: sleep until a packet may have arrived or a retransmission
 * is due (at most max_us microseconds). On the simulated substrate the
 * processor is suspended until a packet arrives when no request is
 * outstanding; otherwise it returns at once (polling advances its clock). */
void am_idle(int max_us);
/* The error that ends the job (a dead node, a broken network): called with
 * the message; must not return. Default: print "hpam: node N: message" on
 * stderr and exit with status 70. */
void am_set_fatal(void (*fatal)(const char *message));
/* Counters: packets sent, received, retransmitted on timeout, dropped,
 * duplicated and held back by the fault injection, duplicates answered from
 * a reply buffer, requests that arrived ahead of a lost one (held in a
 * reorder buffer until it came); frames corrupted by the fault injection
 * (HPAM_CORRUPT), and frames dropped because their check failed (the
 * emulated FDDI adapter's CRC: corrupted on the way, or forged). */
struct am_statistics {
  unsigned long sent, received, retransmits_timeout, injected_drops, injected_duplicates,
      injected_reorders, duplicates_answered, out_of_order, injected_corruptions,
      corrupt_dropped;
};
void am_get_statistics(struct am_statistics *out);

#ifdef __cplusplus
}
#endif

#endif /* HPAM_H */
