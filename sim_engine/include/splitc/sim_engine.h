/* The sim backend's engine, for emulated vendor layers: what a CM-5 CMAML,
 * an HP HPAM, an NX, an MPL or a T3D SHMEM emulation calls to run on
 * simulated processors instead of real processes (docs/sim.md, "Vendor
 * layers on the engine").
 *
 * The engine is the sim backend's world without the sim backend: P
 * processors as fibers of one process, in virtual time, every packet charged
 * the LogGP costs of SPLITC_SIM_MACHINE (cm5, cm5_cmaml, hp, paragon, sp1,
 * t3d, host). An emulation keeps its per-node state indexed by
 * splitc_sim_self() (statics are shared by all processors), sends raw
 * packets, receives them when it polls, and waits through the engine so that
 * the scheduler runs the others. A splitc port on such an emulation is built
 * with SPLITC_SIM_SUBSTRATE defined (link splitc::sim_engine) and takes its
 * segment, its idle wait and its clock from here (include/splitc/port/on_sim.hpp).
 *
 * Unlike the sim backend, the engine does not hide the fault injection from
 * its user: with SPLITC_SIM_DROP / _DUPLICATE / _REORDER / _DELAY set, packets
 * of an unreliable channel really are lost, delivered twice, or overtaken
 * (an emulation of a lossy network, HPAM, must cope, as the real one did).
 * Packets of a channel opened SPLITC_SIM_ORDERED between one pair arrive in
 * send order; others may be reordered (SPLITC_SIM_REORDER, seeded).
 *
 * Every call but splitc_sim_enter must be made from a processor's fiber. */
#ifndef SPLITC_SIM_ENGINE_H
#define SPLITC_SIM_ENGINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Start of every emulation entry point. Outside a job (the program's own
 * main, first call): runs the whole job -- SPLITC_PROCS processors (1 when
 * unset), each calling the program's main again with the same arguments --
 * and exits the process with the job's status; never returns. Inside a
 * processor's fiber: returns at once. */
void splitc_sim_enter(void);

/* 1 on a processor's fiber, 0 elsewhere (before or outside the job). */
int splitc_sim_in_job(void);

int splitc_sim_self(void);  /* the running processor, 0 .. procs-1 */
int splitc_sim_procs(void);

/* Channels: separate networks or message classes of the emulated layer (the
 * CM-5's request and reply networks, HPAM's UDP socket, NX's typed
 * messages...). At most SPLITC_SIM_MAX_CHANNELS per job; every processor
 * opens the same channels in the same order (the first to open a name
 * creates it; the others get its number). */
enum {
  SPLITC_SIM_MAX_CHANNELS = 8,
  SPLITC_SIM_ORDERED = 1,     /* packets between one pair arrive in send order */
  SPLITC_SIM_UNRELIABLE = 2,  /* the fault injection may drop and duplicate them */
  SPLITC_SIM_MAX_PACKET = 1 << 20
};
int splitc_sim_channel(const char *name, unsigned flags);

/* Send `len` (<= SPLITC_SIM_MAX_PACKET) bytes to processor `to` (may be
 * self) on `channel`: charges this processor the send overhead o_s plus
 * len * G, no sooner than one gap g after its previous send, and the packet
 * arrives a latency L after it is fully injected. */
void splitc_sim_send(int channel, int to, const void *packet, size_t len);

/* Send a packet that is one short message of the machine -- a handler and its
 * argument words, what the model's o_s was measured on: it costs its sender o_s
 * (after the gap) and arrives L later, with no charge per byte of its header
 * and words (docs/sim-machines.md: G is per payload byte beyond them). */
void splitc_sim_send_short(int channel, int to, const void *packet, size_t len);

/* Send a packet of which only `charged_bytes` are charged per byte (o_s + charged_bytes * G):
 * a layer's packet whose header and first words are what the machine's short message
 * carried, followed by payload (the message-passing wire: its header and an active
 * message's handler and four words free, the rest per byte). */
void splitc_sim_send_charged(int channel, int to, const void *packet, size_t len,
                             size_t charged_bytes);

/* Send a data packet of a layer's bulk stream: it costs its sender `data_bytes` * G (after the
 * gap), no o_s and no library call's computation, and arrives L later. G, one over the
 * machine's peak bandwidth, was measured on such streams, so it already holds what each of the
 * machine's data packets cost to send (the CM-5's 16 bytes at o_s each are its 10 MB/s:
 * docs/sim-machines.md). */
void splitc_sim_send_stream(int channel, int to, const void *packet, size_t len,
                            size_t data_bytes);

/* The next packet of `channel` that has arrived at this processor by its
 * clock: copies it to buf (at most cap bytes; a longer packet is an error
 * of the emulation, which ends the job), sets *source, charges the receive
 * overhead o_r and returns its length. Returns -1 when none has arrived,
 * charging the poll cost (so a polling loop advances virtual time and lets
 * the others run) -- nothing when the previous receive of this processor, with
 * no send or wait since, took a packet from this channel: the look that ends a
 * sweep belongs to that receive, whose o_r was measured on whole receives.
 * A receive is the layer's own look at its network: it is not charged
 * SPLITC_SIM_CALL_NS, the library's computation per call. */
long splitc_sim_receive(int channel, int *source, void *buf, size_t cap);

/* Nothing to do until a packet arrives on any channel (or a one-sided put
 * lands, see below): suspends this processor. `what` names the wait in the
 * deadlock report ("splitc: sim: deadlock at virtual time ...: processor 3
 * waits in <what>"). Returns at once when a packet is already there or a
 * put has just landed in this processor's segment. */
void splitc_sim_wait(const char *what);

/* Wake processor `proc` at virtual time `at_ns` with no packet: a layer's own
 * signal (the CM-5's control network completing). If it waits in
 * splitc_sim_wait, it resumes at max(its clock, at_ns) (or sooner, when a
 * packet arrives first); otherwise its next wait returns once its clock has
 * reached at_ns. A wait that returns spends every wake-up due by its time;
 * one due before a wait begins ends that wait at once, so waiters loop. */
void splitc_sim_wake(int proc, double at_ns);

/* This processor's virtual time, and local work to charge to it. */
double splitc_sim_now_ns(void);
void splitc_sim_charge_ns(double ns);
/* This processor's virtual time read as the program's timer (splitc::get_seconds): a
 * job whose processors then only poll may be in a timed loop, and the engine waits
 * longer before it calls their polling a deadlock (docs/sim.md, "Misuse"). */
double splitc_sim_timer_ns(void);

/* A control network (the CM-5's, or a machine's hardware barrier): every
 * processor contributes `len` bytes; when all have, each receives all
 * procs * len contributions in processor order in `all`, at the latest
 * arrival's time plus `cost_ns`. Collective: every processor calls it the
 * same number of times with the same len. */
void splitc_sim_exchange(const void *mine, size_t len, void *all, double cost_ns);

/* What the machine's collective hardware takes for `operation` ("barrier",
 * "broadcast", "reduce" or "scan"): the machine model's figure where it gives
 * one (a model file's "collective_hardware", docs/sim-machines.md), else
 * `layer_ns`, the emulated layer's own figure for its machine. */
double splitc_sim_collective_ns(const char *operation, double layer_ns);

/* This processor's segment, `*size` bytes (SPLITC_SEGMENT_SIZE or the sim
 * backend's default). Every processor's has its own address for the whole job:
 * processor p's at base + p * stride (splitc_sim_segment_places; base is
 * SPLITC_SEGMENT_BASE, stride a power of two), so a switch maps nothing. The
 * same place in two processors' segments is at the same offset: an emulated
 * layer whose calls name a peer's memory by a symmetric address (T3D SHMEM)
 * takes the caller's copy, as on a machine where every segment starts at one
 * address. */
void *splitc_sim_segment(size_t *size);
void splitc_sim_segment_places(void **base, size_t *stride);
/* Give back the whole pages of [at, at + len) in the running processor's
 * segment (`at` and `len` multiples of the page size): they read as zero
 * afterwards and take no memory until touched again. What a runtime uses to
 * zero a large region it will touch only in part (a team's channels). */
void splitc_sim_discard(void *at, size_t len);

/* The switch of the runtime's own per-processor state, which the engine does not know:
 * `save` takes the running processor's state off as its fiber stops and returns it (the
 * engine keeps it for that processor), `restore` puts it back as the fiber runs again, and
 * `ended` is called on the fiber when the processor's program has returned, or called
 * exit(0), without the runtime's end (it reports that and ends the job). splitc's core
 * installs them through its backend (am.hpp, has_shared_process) at every processor's start;
 * until then the engine switches only its own state. */
struct splitc_sim_switch_hooks {
  void *(*save)(void);
  void (*restore)(void *state);
  void (*ended)(void);
};
void splitc_sim_set_switch_hooks(const struct splitc_sim_switch_hooks *hooks);

/* One-sided access to another processor's segment, for emulations of
 * remote memory (T3D SHMEM): `offset` is from the segment's start.
 * splitc_sim_put charges the sender o_s + len * G and writes the bytes into
 * the target's segment when they arrive (L later), whether or not the target
 * runs; successive puts from one processor to one target land in order.
 * splitc_sim_get charges a round trip and copies the target's bytes as they
 * are at the request's arrival, which never comes before a put this processor
 * made to that target earlier: what the target's memory holds, under every put
 * that reached it before the request did (those land in the target's memory
 * only when it runs, after what it wrote before they arrived). Neither
 * involves the target's processor. */
void splitc_sim_put(int to, size_t offset, const void *src, size_t len);
void splitc_sim_get(int from, size_t offset, void *dst, size_t len);
/* Land every put addressed to this processor that has arrived by its clock
 * (done on every receive, wait and switch; call it when spinning on memory). */
void splitc_sim_land_puts(void);

/* An error of the emulated layer (a bad node number, a packet too long):
 * prints "splitc: processor N: <layer>: <message>" and ends the whole job
 * with status 70. */
void splitc_sim_fail(const char *layer, const char *message) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* SPLITC_SIM_ENGINE_H */
