/* HPAM's network on the sim backend's engine (splitc/sim_engine.h): the
 * nodes are simulated processors in virtual time, charged the cost model of
 * SPLITC_SIM_MACHINE (hp: the HP workstations on FDDI), and HPAM's packets
 * travel on one channel that is, like UDP, unordered and unreliable: with
 * SPLITC_SIM_DROP / _DUPLICATE / _REORDER the engine really loses, duplicates
 * and reorders them (HPAM_DROP etc. still apply above it). Without those
 * variables a pair's packets arrive in send order. Every node's state is a
 * slot indexed by the running processor: the processors share this
 * process's statics. A packet is charged o_s, and G for its data beyond the
 * header (charged_bytes). */
#include "frame.h"
#include "hpam_state.h"
#include "wire.h"

#include <splitc/sim_engine.h>

#include <stdlib.h>

enum { MAX_NODES = 4096 };
static void *state_slots[MAX_NODES];
static int channel = -1;
static double last_activity_ns[MAX_NODES]; /* a packet sent or received (wire_idle) */

static void note_activity(void) { last_activity_ns[splitc_sim_self()] = splitc_sim_now_ns(); }

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

/* Frames and their check (frame.h) only when the job injects line noise (HPAM_CORRUPT): the
 * channel is in-process, so nothing else can corrupt a packet, and the machine model charges
 * every byte sent -- FDDI's adapter appended its check sequence in hardware, so the seed's
 * costs hold packets alone. (Every node of the job reads the same variable.) */
static int sealed_frames;
void wire_seal_frames(int noisy) { sealed_frames = noisy; }
static int sealed(void) { return sealed_frames; }

/* What a packet costs per byte: its 64-byte header holds the handler and four words, the
 * machine's short message that o_s was measured on (docs/sim-machines.md), so only the data
 * after it is charged G. */
static size_t charged_bytes(size_t len) { return len > HPAM_HEADER_BYTES ? len - HPAM_HEADER_BYTES : 0; }

/* A frame of the packet, with bit `bit` flipped when `noisy`; the packet alone when frames
 * are not sealed. */
static void send_frame(int to, const void *packet, size_t len, int noisy, uint64_t bit) {
  if (!sealed()) {
    splitc_sim_send_charged(channel, to, packet, len, charged_bytes(len));
    note_activity();
    return;
  }
  unsigned char frame[HPAM_FRAME_BYTES];
  const size_t n = frame_seal(frame, packet, len);
  if (noisy) frame_flip(frame, n, bit);
  splitc_sim_send_charged(channel, to, frame, n, charged_bytes(len));
  note_activity();
}

void wire_send(int to, const void *packet, size_t len) { send_frame(to, packet, len, 0, 0); }

void wire_send_noisy(int to, const void *packet, size_t len, uint64_t bit) {
  send_frame(to, packet, len, 1, bit);
}

long wire_receive(int *from, void *buf, size_t cap) {
  if (!sealed()) {
    const long n = splitc_sim_receive(channel, from, buf, cap);
    if (n >= 0) note_activity();
    return n;
  }
  unsigned char frame[HPAM_FRAME_BYTES];
  const long n = splitc_sim_receive(channel, from, frame, sizeof frame);
  if (n < 0) return n;
  note_activity();
  const long len = frame_open(frame, (size_t)n, buf, cap);
  return len < 0 ? WIRE_CORRUPT : len;
}

uint64_t wire_now_ns(void) { return (uint64_t)splitc_sim_now_ns(); }

/* Waiting with a bound (a retransmission or a linger is due): HPAM polls,
 * and each empty receive charges the machine's poll cost -- exact, but a
 * simulated 500 ms back-off would be five million polls. So after
 * QUIET_EXACT_NS without a packet sent or received, the node's clock moves
 * in steps of a quarter of the quiet time so far, at most QUIET_STEP_MAX_NS
 * and never past the bound: a packet arriving then is seen at most that much
 * late. A reply comes within a round trip (35 us on the hp model): such a
 * quiet stretch means a lost packet, or a peer that computes a long time
 * without polling. Without a bound, suspend until a packet arrives. */
enum { QUIET_EXACT_NS = 100000, QUIET_STEP_MAX_NS = 20000 };
void wire_idle(uint64_t max_ns, int bounded) {
  if (!bounded) {
    splitc_sim_wait("hpam: am_idle");
    return;
  }
  const double quiet = splitc_sim_now_ns() - last_activity_ns[splitc_sim_self()];
  if (quiet < QUIET_EXACT_NS) return; /* the next receive charges the poll */
  double step = quiet / 4;
  if (step > QUIET_STEP_MAX_NS) step = QUIET_STEP_MAX_NS;
  if (step > (double)max_ns) step = (double)max_ns;
  splitc_sim_charge_ns(step);
}

void **wire_state_slot(void) { return &state_slots[wire_self()]; }

void wire_fail(const char *message) { splitc_sim_fail("hpam", message); }
