/* HPAM's network on real processes of this host: one UDP socket per node,
 * datagrams over loopback (so loss that nftables applies to the loopback of
 * a network namespace is real loss under HPAM).
 *
 * The job's layout comes from the environment, set by the launcher:
 *   HPAM_ENDPOINTS  every node's "ip:port", comma-separated, in node order;
 *   HPAM_NODE       this node's number, or HPAM_NODE_FROM: the name of the
 *                   variable that holds it (a launcher that sets one per
 *                   process under its own name: SPLITC_MYPROC, a rank...);
 *   HPAM_SOCKETS    optional: the inherited, already bound sockets, one per
 *                   node in node order (otherwise the node binds its own).
 * Without HPAM_ENDPOINTS the process is a job of one. */
#define _GNU_SOURCE
#include "frame.h"
#include "wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int socket_fd = -1;
static int node_self = 0, node_count = 1;
static struct sockaddr_in *addresses = NULL;
static void *state_slot = NULL;

static int parse_endpoint(const char *text, size_t len, struct sockaddr_in *out) {
  char buf[64];
  if (len == 0 || len >= sizeof buf) return -1;
  memcpy(buf, text, len);
  buf[len] = '\0';
  char *colon = strrchr(buf, ':');
  if (colon == NULL) return -1;
  *colon = '\0';
  char *end = NULL;
  const long port = strtol(colon + 1, &end, 10);
  if (*end != '\0' || port <= 0 || port > 65535) return -1;
  memset(out, 0, sizeof *out);
  out->sin_family = AF_INET;
  out->sin_port = htons((uint16_t)port);
  return inet_pton(AF_INET, buf, &out->sin_addr) == 1 ? 0 : -1;
}

static int read_node(void) {
  const char *v = getenv("HPAM_NODE");
  const char *name = "HPAM_NODE";
  if (v == NULL) {
    const char *from = getenv("HPAM_NODE_FROM");
    if (from != NULL) {
      v = getenv(from);
      name = from;
    }
  }
  if (v == NULL) {
    fprintf(stderr, "hpam: HPAM_ENDPOINTS is set but neither HPAM_NODE nor HPAM_NODE_FROM\n");
    return -1;
  }
  char *end = NULL;
  const long n = strtol(v, &end, 10);
  if (*v == '\0' || *end != '\0' || n < 0 || n >= node_count) {
    fprintf(stderr, "hpam: %s='%s' is not a node number of this job (0..%d)\n", name, v,
            node_count - 1);
    return -1;
  }
  return (int)n;
}

static void tune(int fd) {
  int bytes = 4 << 20;
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &bytes, sizeof bytes) != 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  fcntl(fd, F_SETFD, FD_CLOEXEC);
}

static int open_alone(void) {
  node_self = 0;
  node_count = 1;
  addresses = calloc(1, sizeof *addresses);
  socket_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (addresses == NULL || socket_fd < 0) return -1;
  addresses[0].sin_family = AF_INET;
  addresses[0].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t l = sizeof addresses[0];
  if (bind(socket_fd, (struct sockaddr *)&addresses[0], l) != 0 ||
      getsockname(socket_fd, (struct sockaddr *)&addresses[0], &l) != 0) {
    fprintf(stderr, "hpam: cannot bind a UDP socket on 127.0.0.1: %s\n", strerror(errno));
    return -1;
  }
  tune(socket_fd);
  return 0;
}

int wire_open(int *self, int *procs) {
  const char *list = getenv("HPAM_ENDPOINTS");
  if (list == NULL || *list == '\0') {
    if (open_alone() != 0) return -1;
  } else {
    node_count = 1;
    for (const char *c = list; *c; ++c) node_count += *c == ',';
    addresses = calloc((size_t)node_count, sizeof *addresses);
    if (addresses == NULL) return -1;
    const char *start = list;
    for (int q = 0; q < node_count; ++q) {
      const char *comma = strchr(start, ',');
      const size_t len = comma ? (size_t)(comma - start) : strlen(start);
      if (parse_endpoint(start, len, &addresses[q]) != 0) {
        fprintf(stderr, "hpam: HPAM_ENDPOINTS: entry %d '%.*s' is not ip:port\n", q, (int)len,
                start);
        return -1;
      }
      start = comma ? comma + 1 : start + len;
    }
    if ((node_self = read_node()) < 0) return -1;
    const char *sockets = getenv("HPAM_SOCKETS");
    if (sockets != NULL && *sockets != '\0') {
      /* Ours is the node_self-th; the others belong to the other nodes. */
      const char *c = sockets;
      for (int q = 0; q < node_count && c != NULL; ++q) {
        const int fd = atoi(c);
        if (q == node_self) socket_fd = fd;
        else close(fd);
        c = strchr(c, ',');
        if (c != NULL) ++c;
      }
      if (socket_fd < 0 || fcntl(socket_fd, F_GETFD) < 0) {
        fprintf(stderr, "hpam: HPAM_SOCKETS='%s' names no socket for node %d\n", sockets,
                node_self);
        return -1;
      }
    } else {
      socket_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      if (socket_fd < 0 || bind(socket_fd, (struct sockaddr *)&addresses[node_self],
                                sizeof addresses[node_self]) != 0) {
        fprintf(stderr, "hpam: node %d cannot bind its endpoint: %s\n", node_self,
                strerror(errno));
        return -1;
      }
    }
    tune(socket_fd);
  }
  *self = node_self;
  *procs = node_count;
  return 0;
}

void wire_close(void) {
  if (socket_fd >= 0) close(socket_fd);
  socket_fd = -1;
  free(addresses);
  addresses = NULL;
}

int wire_self(void) { return node_self; }

/* Every frame carries its check on UDP: another host's packets, or a peer's port, can be
 * corrupt whatever the job injects. */
void wire_seal_frames(int noisy) { (void)noisy; }

/* A frame of the packet, with bit `bit` flipped when `noisy`. A full socket buffer is a lost
 * packet, as on the wire: HPAM retransmits. */
static void send_frame(int to, const void *packet, size_t len, int noisy, uint64_t bit) {
  unsigned char frame[HPAM_FRAME_BYTES];
  const size_t n = frame_seal(frame, packet, len);
  if (noisy) frame_flip(frame, n, bit);
  (void)sendto(socket_fd, frame, n, MSG_DONTWAIT, (const struct sockaddr *)&addresses[to],
               sizeof addresses[to]);
}

void wire_send(int to, const void *packet, size_t len) { send_frame(to, packet, len, 0, 0); }

void wire_send_noisy(int to, const void *packet, size_t len, uint64_t bit) {
  send_frame(to, packet, len, 1, bit);
}

long wire_receive(int *from, void *buf, size_t cap) {
  unsigned char frame[HPAM_FRAME_BYTES + 1]; /* one more: a longer datagram fails its check */
  for (;;) {
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    const ssize_t n = recvfrom(socket_fd, frame, sizeof frame, MSG_DONTWAIT, (struct sockaddr *)&a, &l);
    if (n < 0) return -1;
    for (int q = 0; q < node_count; ++q) {
      if (addresses[q].sin_port == a.sin_port && addresses[q].sin_addr.s_addr == a.sin_addr.s_addr) {
        const long len = n > HPAM_FRAME_BYTES ? -1 : frame_open(frame, (size_t)n, buf, cap);
        if (len < 0) return WIRE_CORRUPT;
        *from = q;
        return len;
      }
    }
    /* Not from a node of this job: ignored. */
  }
}

uint64_t wire_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void wire_idle(uint64_t max_ns, int bounded) {
  (void)bounded;
  struct pollfd p = {socket_fd, POLLIN, 0};
  struct timespec t = {(time_t)(max_ns / 1000000000u), (long)(max_ns % 1000000000u)};
  ppoll(&p, 1, &t, NULL);
}

void **wire_state_slot(void) { return &state_slot; }

void wire_fail(const char *message) {
  fprintf(stderr, "hpam: node %d: %s\n", node_self, message);
  fflush(stderr);
  _exit(70);
}
