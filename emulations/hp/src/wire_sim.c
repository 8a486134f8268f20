/* HPAM's network on the sim backend's engine (splitc/sim_engine.h): the
 * nodes are simulated processors in virtual time, charged the cost model of
 * SPLITC_SIM_MACHINE (hp: the HP workstations on FDDI), and HPAM's packets
 * travel on one channel that is, like UDP, unordered and unreliable: with
 * SPLITC_SIM_DROP / _DUPLICATE / _REORDER the engine really loses, duplicates
 * and reorders them (HPAM_DROP etc. still apply above it). Without those
 * variables a pair's packets arrive in send order. Every node's state is a slot indexed
 * by the running processor: the processors share this process's statics. */
#include "wire.h"

#include <splitc/sim_engine.h>

#include <stdlib.h>

enum { MAX_NODES = 4096 };
static void *state_slots[MAX_NODES];
static int channel = -1;

int wire_open(int *self, int *procs) {
  splitc_sim_enter();
  channel = splitc_sim_channel("hpam", SPLITC_SIM_UNRELIABLE);
  *self = splitc_sim_self();
  *procs = splitc_sim_procs();
  if (*procs > MAX_NODES) splitc_sim_fail("hpam", "more than 4096 nodes");
  return 0;
}

void wire_close(void) {}

int wire_self(void) { return splitc_sim_in_job() ? splitc_sim_self() : 0; }

void wire_send(int to, const void *packet, size_t len) {
  splitc_sim_send(channel, to, packet, len);
}

long wire_receive(int *from, void *buf, size_t cap) {
  return splitc_sim_receive(channel, from, buf, cap);
}

uint64_t wire_now_ns(void) { return (uint64_t)splitc_sim_now_ns(); }

/* With a bound (a retransmission is due at some point), keep polling: each
 * empty receive charges the poll cost and lets the others run. Without one,
 * suspend until a packet arrives. */
void wire_idle(uint64_t max_ns, int bounded) {
  (void)max_ns;
  if (!bounded) splitc_sim_wait("hpam: am_idle");
}

void **wire_state_slot(void) { return &state_slots[wire_self()]; }

void wire_fail(const char *message) { splitc_sim_fail("hpam", message); }
