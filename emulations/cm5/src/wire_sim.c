/* The CM-5 emulation's substrate on the sim backend's engine
 * (splitc/sim_engine.h): every node is a simulated processor of one process,
 * in virtual time. The request and reply networks are two engine channels
 * (unordered; the engine charges each packet the SPLITC_SIM_MACHINE model's
 * costs: cm5 or cm5_cmaml); the engine's channels never fill, so on sim a
 * sender never blocks. The control network is a shared area (statics are
 * shared by all simulated processors) in virtual time: an operation
 * completes for everyone at the latest contribution's time plus the
 * operation's own cost. A node waiting for it drains its networks and then
 * waits in the engine (splitc_sim_wait) until a packet arrives or the last
 * contribution wakes it (splitc_sim_wake), instead of polling in virtual
 * time, every poll a fiber switch (the collectives benchmark at P = 64 took
 * 639 s of real time that way, 3.4 s now: docs/ports.md). Per-node state is
 * kept per processor. */
#include "cm5_layer.h"

#include <splitc/sim_engine.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct control_slot {
  uint64_t epoch;
  double arrival_ns;
  unsigned char data[CM5_CONTROL_BYTES];
};

static struct {
  int procs;
  struct cm5_node **nodes;
  int channel[CM5_NETWORKS];
  struct control_slot *control; /* 2 * procs */
} sim;

struct cm5_node *cm5_wire_node(size_t sizeof_node) {
  splitc_sim_enter();
  const int self = splitc_sim_self();
  if (sim.nodes == NULL) {
    sim.procs = splitc_sim_procs();
    sim.nodes = calloc((size_t)sim.procs, sizeof *sim.nodes);
    sim.control = calloc(2 * (size_t)sim.procs, sizeof *sim.control);
    if (sim.nodes == NULL || sim.control == NULL) splitc_sim_fail("CMMD", "out of memory");
  }
  if (sim.nodes[self] == NULL) {
    sim.nodes[self] = calloc(1, sizeof_node);
    if (sim.nodes[self] == NULL) splitc_sim_fail("CMMD", "out of memory");
    sim.channel[CM5_REQUEST] = splitc_sim_channel("cm5-request", 0);
    sim.channel[CM5_REPLY] = splitc_sim_channel("cm5-reply", 0);
  }
  return sim.nodes[self];
}

int cm5_wire_self(void) { return splitc_sim_self(); }
int cm5_wire_nodes(void) { return splitc_sim_procs(); }
long cm5_wire_capacity(void) { return 0; }

/* A handler packet is one of the machine's short messages (o_s, no charge per
 * byte of its header and words); a scopy packet is one of the bulk path's data
 * packets, charged G per byte of its data and no o_s, as the machine's peak
 * bandwidth was measured (docs/sim-machines.md). */
int cm5_wire_try_send(int node, int network, const cm5_packet *p) {
  if (p->kind == CM5_PACKET_HANDLER)
    splitc_sim_send_short(sim.channel[network], node, p, sizeof *p);
  else
    splitc_sim_send_stream(sim.channel[network], node, p, sizeof *p,
                           (size_t)(p->handler >> 16));
  return 1;
}

int cm5_wire_receive(int network, cm5_packet *p) {
  int source;
  return splitc_sim_receive(sim.channel[network], &source, p, sizeof *p) >= 0;
}

static struct control_slot *slot_of(uint64_t epoch, int node) {
  return &sim.control[(epoch & 1) * (size_t)sim.procs + (size_t)node];
}

void cm5_wire_control_post(uint64_t epoch, const void *mine, size_t len) {
  struct control_slot *s = slot_of(epoch, splitc_sim_self());
  memcpy(s->data, mine, len);
  s->arrival_ns = splitc_sim_now_ns();
  s->epoch = epoch;
  /* The last contribution wakes the nodes waiting for it (cm5_wire_control_pause), at the
   * latest contribution's time. */
  double latest = 0;
  for (int q = 0; q < sim.procs; ++q) {
    const struct control_slot *t = slot_of(epoch, q);
    if (t->epoch < epoch) return;
    if (t->arrival_ns > latest) latest = t->arrival_ns;
  }
  for (int q = 0; q < sim.procs; ++q)
    if (q != splitc_sim_self()) splitc_sim_wake(q, latest);
}

int cm5_wire_control_test(uint64_t epoch, void *all, size_t len, double cost_ns) {
  double latest = 0;
  for (int q = 0; q < sim.procs; ++q) {
    const struct control_slot *s = slot_of(epoch, q);
    if (s->epoch < epoch) return 0;
    if (s->arrival_ns > latest) latest = s->arrival_ns;
  }
  for (int q = 0; q < sim.procs; ++q) memcpy((char *)all + (size_t)q * len, slot_of(epoch, q)->data, len);
  const double done = latest + cost_ns, now = splitc_sim_now_ns();
  if (now < done) splitc_sim_charge_ns(done - now);
  return 1;
}

/* An empty receive already charged the poll and let the others run. */
void cm5_wire_pause(unsigned idle) { (void)idle; }

/* Nothing arrived and the control operation is not complete: wait for a packet or for the
 * last contribution (cm5_wire_control_post). */
void cm5_wire_control_pause(unsigned idle) {
  (void)idle;
  splitc_sim_wait("the control network");
}

double cm5_wire_now_us(void) { return splitc_sim_now_ns() / 1e3; }

double cm5_wire_collective_ns(const char *operation, double cm5_ns) {
  return splitc_sim_collective_ns(operation, cm5_ns);
}

void cm5_wire_fail(const char *message) { splitc_sim_fail("CMMD", message); }

uint64_t cm5_wire_seed(void) {
  const char *v = getenv("CMMD_REORDER_SEED");
  const uint64_t seed = v != NULL && *v != 0 ? strtoull(v, NULL, 10) : 1994;
  return (seed + 1) * 0x9E3779B97F4A7C15ULL ^
         (uint64_t)(splitc_sim_self() + 1) * 0xD1B54A32D192ED03ULL;
}

/* The real-process launcher's calls have no meaning here. */
int CMMD_partition_create(int nodes) {
  (void)nodes;
  return -1;
}
void CMMD_enroll(int node) { (void)node; }
