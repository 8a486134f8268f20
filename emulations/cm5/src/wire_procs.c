/* The CM-5 emulation's substrate on real processes of this host: a partition
 * is one shared-memory file (memfd) holding, for each network and each
 * ordered pair of nodes, a single-producer single-consumer ring of packets,
 * and a control-network area with one slot per node (two sets, used on
 * alternate operations). The launcher makes it (CMMD_partition_create) and
 * every node maps it. A ring holds CMMD_NETWORK_PACKETS packets (default: 4096 up to 8
 * nodes, fewer above, at least 64; default_capacity): a full ring is a full network, and the
 * sender drains its input meanwhile. */
#define _GNU_SOURCE
#include "cm5_layer.h"

#include <cmmd.h>
#include <emulation_wait.h>

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { partition_magic = 0x434d35706172ULL /* "CM5par" */ };

struct partition_header {
  uint64_t magic;
  uint32_t nodes;
  uint32_t capacity; /* packets per ring */
};

struct ring {
  _Atomic uint64_t head; /* consumed, written by the receiver */
  char pad1[56];
  _Atomic uint64_t tail; /* published, written by the sender */
  char pad2[56];
  cm5_packet slots[];
};

struct control_slot {
  _Atomic uint64_t epoch;
  char pad[56];
  unsigned char data[CM5_CONTROL_BYTES];
};

static size_t header_bytes(void) { return 4096; }
static size_t control_bytes(uint32_t nodes) { return 2 * (size_t)nodes * sizeof(struct control_slot); }
static size_t ring_bytes(uint32_t capacity) {
  return sizeof(struct ring) + (size_t)capacity * sizeof(cm5_packet);
}
static size_t rings_bytes(uint32_t nodes, uint32_t capacity) {
  return (size_t)CM5_NETWORKS * nodes * nodes * ring_bytes(capacity);
}
static size_t partition_bytes(uint32_t nodes, uint32_t capacity) {
  return header_bytes() + control_bytes(nodes) + rings_bytes(nodes, capacity);
}

static long env_long(const char *name, long fallback) {
  const char *v = getenv(name);
  if (v == NULL || *v == 0) return fallback;
  char *end;
  const long x = strtol(v, &end, 10);
  if (*end != 0) {
    fprintf(stderr, "CMMD: %s='%s' is not a number\n", name, v);
    exit(70);
  }
  return x;
}

/* The rings' size when CMMD_NETWORK_PACKETS does not say: as many packets as keep the
 * partition's rings within 32 MiB (a ring takes memory only where packets have passed), from
 * 4096 down to 64. On a host whose cores other programs share, a full ring makes its sender
 * wait until the receiver is scheduled again: at 64 packets a bulk transfer of 24-byte scopy
 * packets waited that way thousands of times (emulations/cm5/README.md, "Ring size"). */
static long default_capacity(int nodes) {
  const size_t budget = (size_t)32 << 20;
  uint32_t capacity = 4096;
  while (capacity > 64 && rings_bytes((uint32_t)nodes, capacity) > budget) capacity /= 2;
  return (long)capacity;
}

int CMMD_partition_create(int nodes) {
  const long capacity = env_long("CMMD_NETWORK_PACKETS", nodes < 1 ? 64 : default_capacity(nodes));
  if (nodes < 1 || capacity < 1 || capacity > (1L << 20)) {
    errno = EINVAL;
    return -1;
  }
  const int fd = memfd_create("cm5-partition", 0);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)partition_bytes((uint32_t)nodes, (uint32_t)capacity)) != 0) {
    close(fd);
    return -1;
  }
  const struct partition_header h = {partition_magic, (uint32_t)nodes, (uint32_t)capacity};
  if (pwrite(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
    close(fd);
    return -1;
  }
  return fd;
}

/* ---- this process's node -------------------------------------------------------- */

static struct {
  int attached;
  int self, nodes;
  uint32_t capacity;
  unsigned char *base;
  int next_source[CM5_NETWORKS]; /* round robin over the senders */
} wire = {.self = -1};

static void *node_state;
static int enrolled = -1;

void CMMD_enroll(int node) { enrolled = node; }

static void attach_failure(const char *what) {
  fprintf(stderr, "CMMD: cannot attach to the partition: %s\n", what);
  exit(70);
}

static void attach(void) {
  long fd = env_long("CMMD_PARTITION_FD", -1);
  if (fd < 0) {
    fd = CMMD_partition_create(1);
    if (fd < 0) attach_failure(strerror(errno));
    if (enrolled < 0) enrolled = 0;
  }
  struct partition_header h;
  if (pread((int)fd, &h, sizeof h, 0) != (ssize_t)sizeof h || h.magic != partition_magic)
    attach_failure("CMMD_PARTITION_FD does not name a CM-5 partition");
  int self = enrolled >= 0 ? enrolled : (int)env_long("CMMD_NODE", -1);
  if (self < 0 && h.nodes == 1) self = 0;
  if (self < 0) attach_failure("this node's number is unknown (set CMMD_NODE or call CMMD_enroll)");
  if (self >= (int)h.nodes) {
    fprintf(stderr, "CMMD: node %d is outside the partition's %u nodes\n", self, h.nodes);
    exit(70);
  }
  void *base = mmap(NULL, partition_bytes(h.nodes, h.capacity), PROT_READ | PROT_WRITE, MAP_SHARED,
                    (int)fd, 0);
  if (base == MAP_FAILED) attach_failure(strerror(errno));
  wire.base = base;
  wire.self = self;
  wire.nodes = (int)h.nodes;
  wire.capacity = h.capacity;
  wire.attached = 1;
}

struct cm5_node *cm5_wire_node(size_t sizeof_node) {
  if (!wire.attached) {
    attach();
    node_state = calloc(1, sizeof_node);
    if (node_state == NULL) attach_failure("out of memory");
  }
  return node_state;
}

int cm5_wire_self(void) { return wire.self; }
int cm5_wire_nodes(void) { return wire.nodes; }
long cm5_wire_capacity(void) { return (long)wire.capacity; }

static struct ring *ring_of(int network, int from, int to) {
  const size_t index = ((size_t)network * (size_t)wire.nodes + (size_t)from) * (size_t)wire.nodes + (size_t)to;
  return (struct ring *)(wire.base + header_bytes() + control_bytes((uint32_t)wire.nodes) +
                         index * ring_bytes(wire.capacity));
}

int cm5_wire_try_send(int node, int network, const cm5_packet *p) {
  struct ring *r = ring_of(network, wire.self, node);
  const uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
  if (tail - atomic_load_explicit(&r->head, memory_order_acquire) >= wire.capacity) return 0;
  r->slots[tail % wire.capacity] = *p;
  atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
  return 1;
}

int cm5_wire_receive(int network, cm5_packet *p) {
  const int nodes = wire.nodes;
  for (int k = 0; k < nodes; ++k) {
    const int from = (wire.next_source[network] + k) % nodes;
    struct ring *r = ring_of(network, from, wire.self);
    const uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    if (head == atomic_load_explicit(&r->tail, memory_order_acquire)) continue;
    *p = r->slots[head % wire.capacity];
    atomic_store_explicit(&r->head, head + 1, memory_order_release);
    wire.next_source[network] = (from + 1) % nodes;
    return 1;
  }
  return 0;
}

/* ---- the control network ---------------------------------------------------------- */

static struct control_slot *slot_of(uint64_t epoch, int node) {
  struct control_slot *slots = (struct control_slot *)(wire.base + header_bytes());
  return &slots[(epoch & 1) * (size_t)wire.nodes + (size_t)node];
}

/* Two sets suffice: a node posts operation e+2 into e's slot only after
 * completing e+1, which needs every node's e+1, posted after its e was read. */
void cm5_wire_control_post(uint64_t epoch, const void *mine, size_t len) {
  struct control_slot *s = slot_of(epoch, wire.self);
  memcpy(s->data, mine, len);
  atomic_store_explicit(&s->epoch, epoch, memory_order_release);
}

int cm5_wire_control_test(uint64_t epoch, void *all, size_t len, double cost_ns) {
  (void)cost_ns;
  for (int q = 0; q < wire.nodes; ++q)
    if (atomic_load_explicit(&slot_of(epoch, q)->epoch, memory_order_acquire) < epoch) return 0;
  for (int q = 0; q < wire.nodes; ++q) memcpy((char *)all + (size_t)q * len, slot_of(epoch, q)->data, len);
  return 1;
}

/* ---- time, waiting, failure ----------------------------------------------------- */

void cm5_wire_pause(unsigned idle) {
  if (idle < 64) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  } else if (idle < 256) {
    emulation_yield(20000);
  } else {
    const struct timespec t = {0, idle < 1024 ? 20000 : 200000};
    nanosleep(&t, NULL);
  }
}

/* On processes the control network is shared memory: wait for it as for anything. */
void cm5_wire_control_pause(unsigned idle) { cm5_wire_pause(idle); }

/* Nothing is charged on processes. */
double cm5_wire_collective_ns(const char *operation, double cm5_ns) {
  (void)operation;
  return cm5_ns;
}

double cm5_wire_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

void cm5_wire_fail(const char *message) {
  fprintf(stderr, "CMMD node %d: %s\n", wire.self, message);
  fflush(stderr);
  _exit(70);
}

uint64_t cm5_wire_seed(void) {
  const uint64_t seed = (uint64_t)env_long("CMMD_REORDER_SEED", 1994);
  return (seed + 1) * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(wire.self + 1) * 0xD1B54A32D192ED03ULL;
}
