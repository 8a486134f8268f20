/* CMAML, the CM-5's active-message layer (CMMD 3.x), as this emulation
 * provides it: a request or a reply is a handler plus four words, delivered
 * to another node's handler when that node polls; bulk data goes through
 * receive ports (CMAML_scopy). Names follow CMMD 3.x; the exact prototypes
 * were not preserved, so the ones here are this emulation's choice (README.md
 * lists which are recalled, marked [U]). Words are `long`: on a 64-bit host an
 * address fits in one, and the count -- four -- is what a port lives with.
 *
 * Faithful where a port could depend on it: packets between one pair of nodes
 * are NOT delivered in send order (the emulation reorders them, seeded); two
 * networks, so a reply never waits behind requests; a sender blocked on a
 * full network keeps draining its input; CMAML_reply only from a request
 * handler and at most once there; a node or handler out of range is an error
 * that ends the partition (cmmd.h: CMMD_error_hook). */
#ifndef CMAML_H
#define CMAML_H

#ifdef __cplusplus
extern "C" {
#endif

/* A handler: four argument words. The sender is not passed; send it as an
 * argument when the handler needs it. */
typedef void (*CMAML_handler_t)(long, long, long, long);

/* A request to `node` on the request network: runs h(a0, a1, a2, a3) there
 * when it polls. Blocks while the network is full, draining both networks of
 * this node meanwhile (so handlers may run inside this call). */
void CMAML_request(int node, CMAML_handler_t h, long a0, long a1, long a2, long a3);

/* A reply on the reply network: only from inside a request handler, at most
 * once per request. Blocks while the reply network is full, draining this
 * node's reply network (never its requests) meanwhile. */
void CMAML_reply(int node, CMAML_handler_t h, long a0, long a1, long a2, long a3);

/* Run the handlers of what has arrived (replies first, then requests);
 * returns how many ran (an emulation extension: CMMD's returned nothing). */
int CMAML_poll(void);

/* Poll while *flag < value. */
void CMAML_poll_while_lt(volatile int *flag, int value);

/* Receive ports: a receiving node allocates one, gives it an address, a byte
 * counter and a handler; CMAML_scopy from any node writes into it, and when
 * the counter reaches zero the handler runs as handler(rport, arg2) inside a
 * poll. CMAML_MAX_RPORTS ports per node [U]. */
enum { CMAML_MAX_RPORTS = 64 };
typedef void (*CMAML_rport_handler_t)(int rport, void *arg2);

int CMAML_allocate_rport(void); /* -1 when all are taken */
void CMAML_free_rport(int rport);
void CMAML_set_rport_addr(int rport, void *addr);
void CMAML_set_rport_byte_counter(int rport, int nbytes);
int CMAML_rport_byte_counter(int rport);
void CMAML_set_rport_handler(int rport, CMAML_rport_handler_t handler);
void CMAML_set_rport_handler_arg2(int rport, void *arg2);

/* Copy nbytes from addr to receive port `rport` of `node`, at byte `offset`
 * from the port's address, as a train of packets (24 bytes of data each) on
 * the request network. `align` is accepted and ignored [U]. When the last
 * packet has left, sent_handler(sent_arg) runs here (if not NULL): addr may
 * be reused. Returns 0. */
int CMAML_scopy(int node, int rport, int align, int offset, void *addr, int nbytes,
                void (*sent_handler)(void *), void *sent_arg);

#ifdef __cplusplus
}
#endif

#endif /* CMAML_H */
