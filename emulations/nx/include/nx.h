/* nx.h: an emulation of the Intel Paragon's NX message-passing calls (OSF/1
 * NX, as Libsplit-C's NXAM used them), on MPI or on the sim backend's engine
 * (emulations/nx/README.md: what is emulated and every behaviour chosen).
 *
 * Errors, as NX reported them: the plain calls print the error and end the
 * application; the underscore forms (_csend, _crecv, ...) return -1 and set
 * errno to one of the EQ* codes below, for a caller that handles it. */
#ifndef NX_H
#define NX_H

#ifdef __cplusplus
extern "C" {
#endif

/* Message types: user types 0 .. NX_MAX_TYPE; a force type has bit 30 set
 * (NX_FORCE_TYPE | t). A type selector of -1 matches every type, a node or
 * ptype selector of -1 every node or ptype. */
#define NX_MAX_TYPE 999999999L
#define NX_FORCE_TYPE 0x40000000L
#define NX_ANY (-1L)

/* The info array of crecvx, irecvx and iprobex. */
enum { INFO_TYPE = 0, INFO_COUNT = 1, INFO_NODE = 2, INFO_PTYPE = 3, NX_INFO_LENGTH = 8 };

/* errno values of the underscore calls. */
enum {
  EQMSGLONG = 3001, /* the message is longer than the receive's count */
  EQTYPE = 3002,    /* a type or type selector out of range */
  EQMID = 3003,     /* not a message id in use */
  EQNODE = 3004,    /* a node number out of range */
  EQCOUNT = 3005,   /* a negative count */
  EQPTYPE = 3006    /* a ptype other than this application's */
};

long mynode(void);
long numnodes(void);
long myptype(void);
double dclock(void);

void csend(long type, char *buf, long count, long node, long ptype);
void crecv(long typesel, char *buf, long count);
void crecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]);
long isend(long type, char *buf, long count, long node, long ptype);
long irecv(long typesel, char *buf, long count);
long irecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]);
long msgdone(long mid);
void msgwait(long mid);
void msgcancel(long mid);
long iprobe(long typesel);
long iprobex(long typesel, long nodesel, long ptypesel, long info[]);
void cprobe(long typesel);
long infocount(void);
long infonode(void);
long infotype(void);
long infoptype(void);

/* A receive whose handler runs when the message has arrived (inside a later
 * NX call, emulations/nx/README.md); masktrap(1) holds handlers back,
 * masktrap(0) lets them run; both return the previous state. */
long hrecv(long typesel, char *buf, long count, void (*handler)(long type, long count, long node,
                                                                long ptype));
long masktrap(long state);

/* Global operations: every node calls them; they block (and serve nothing
 * else) until all have. `work` holds n elements. */
void gsync(void);
void gdsum(double x[], long n, double work[]);
void gdprod(double x[], long n, double work[]);
void gdhigh(double x[], long n, double work[]);
void gdlow(double x[], long n, double work[]);
void gisum(long x[], long n, long work[]);
void giprod(long x[], long n, long work[]);
void gihigh(long x[], long n, long work[]);
void gilow(long x[], long n, long work[]);

/* The underscore forms: -1 and errno on error. */
long _csend(long type, char *buf, long count, long node, long ptype);
long _crecv(long typesel, char *buf, long count);
long _crecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]);
long _isend(long type, char *buf, long count, long node, long ptype);
long _irecv(long typesel, char *buf, long count);
long _irecvx(long typesel, char *buf, long count, long nodesel, long ptypesel, long info[]);
long _msgdone(long mid);
long _msgwait(long mid);
long _msgcancel(long mid);
long _iprobe(long typesel);

/* Prints `s: ` and the text of errno's EQ* code on stderr. */
void nx_perror(const char *s);

#ifdef __cplusplus
}
#endif

#endif /* NX_H */
