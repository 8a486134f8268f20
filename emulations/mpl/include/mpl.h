/* mpl.h: an emulation of the IBM SP-1's MPL (the Message Passing Library of
 * the SP's Parallel Environment, "MPLp" in Luna 1994 Appendix B), on MPI or
 * on the sim backend's engine (emulations/mpl/README.md: what is emulated
 * and every behaviour chosen). Every call returns 0 (or a count) on success
 * and -1 on error with mperrno set to one of the MPE_* codes below; the
 * blocking global operations likewise. */
#ifndef MPL_H
#define MPL_H

#ifdef __cplusplus
extern "C" {
#endif

#define DONTCARE (-1) /* any source / any type */
#define ALLMSG (-1)   /* mpc_wait: every outstanding message */
#define ALLGRP 0      /* the group of every task */
#define MPL_MAX_TYPE 1000000000

extern int mperrno;
enum {
  MPE_TRUNC = 901, /* the message is longer than the receive's length */
  MPE_TYPE = 902,  /* a type out of range */
  MPE_MSGID = 903, /* not a message id in use */
  MPE_TASK = 904,  /* a task number out of range */
  MPE_LEN = 905,   /* a negative length */
  MPE_GROUP = 906  /* a group other than ALLGRP */
};

int mpc_environ(int *numtask, int *taskid);

int mpc_send(char *buf, int msglen, int dest, int type, int *msgid);
int mpc_recv(char *buf, int blklen, int *source, int *type, int *msgid);
int mpc_bsend(char *buf, int msglen, int dest, int type);
int mpc_brecv(char *buf, int blklen, int *source, int *type, int *nbytes);
/* -1 pending; >= 0 the bytes received or sent (the id is then free); < -1
 * an error (mperrno). */
int mpc_status(int msgid);
int mpc_wait(int *msgid, int *nbytes);
/* *nbytes = the waiting message's length, or -1 when none matches. */
int mpc_probe(int *source, int *type, int *nbytes);

/* A receive whose handler runs when the message has arrived (inside a later
 * MPL call, emulations/mpl/README.md); mpc_lockrnc(1, &old) holds handlers
 * back, mpc_lockrnc(0, &old) lets them run. */
int mpc_rcvncall(char *buf, int blklen, int *source, int *type, int *msgid,
                 void (*handler)(int *msgid));
int mpc_lockrnc(int state, int *oldstate);

/* Global operations: every task calls them; they block (and serve nothing
 * else) until all have. */
int mpc_sync(int gid);
int mpc_bcast(char *buf, int msglen, int root, int gid);
int mpc_combine(void *sendbuf, void *recvbuf, int msglen, void (*func)(void *, void *, void *, int *),
                int gid);
int mpc_index(char *sendbuf, char *recvbuf, int msglen, int gid);

/* Reduction functions for mpc_combine: out = in1 (op) in2 over *len bytes. */
void s_vadd(void *in1, void *in2, void *out, int *len);
void i_vadd(void *in1, void *in2, void *out, int *len);
void d_vadd(void *in1, void *in2, void *out, int *len);
void i_vmul(void *in1, void *in2, void *out, int *len);
void d_vmul(void *in1, void *in2, void *out, int *len);
void i_vmax(void *in1, void *in2, void *out, int *len);
void d_vmax(void *in1, void *in2, void *out, int *len);
void i_vmin(void *in1, void *in2, void *out, int *len);
void d_vmin(void *in1, void *in2, void *out, int *len);

#ifdef __cplusplus
}
#endif

#endif /* MPL_H */
