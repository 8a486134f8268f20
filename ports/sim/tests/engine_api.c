/* The engine's C interface for emulated vendor layers (splitc/sim_engine.h),
 * as an emulation uses it: a plain C program, no splitc runtime. One
 * subcommand per property; each prints "PASS engine_api" on processor 0 when it holds and
 * exits non-zero (naming the processor) when not.
 *
 *   engine_api order      an ordered channel keeps each pair's send order,
 *                         even with SPLITC_SIM_REORDER set
 *   engine_api reorder    an unordered channel really reorders (SPLITC_SIM_REORDER)
 *   engine_api loss       an unreliable channel really loses and duplicates
 *                         (SPLITC_SIM_DROP, SPLITC_SIM_DUPLICATE)
 *   engine_api exchange   the control network gives everyone every contribution,
 *                         at the latest arrival plus its cost
 *   engine_api putget     one-sided puts land in order without the target's help;
 *                         gets read another processor's segment
 *   engine_api wait_put   a wait returns for a put that lands as it starts
 *   engine_api wake       a wait ends at the time another processor's wake-up names, or
 *                         its own; a spent wake-up does not end the next wait
 *   engine_api short_send a packet sent as a short message costs its sender what an
 *                         empty packet does, however long; another costs more per byte,
 *                         one charged for part of its bytes, for that part alone, and a
 *                         stream's data packet its data bytes alone, without o_s
 *   engine_api receive_costs (the cm5 model) a receive that takes a packet costs o_r,
 *                         the look that then finds the channel empty nothing, the next
 *                         empty look the model's poll; none of them the library's call
 *   engine_api bad_node   a packet to a processor that does not exist: the job ends
 *   engine_api fail       splitc_sim_fail names the processor and the layer
 *   engine_api deadlock   every processor waits: the report names the wait */
#include <splitc/sim_engine.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { packets = 200 };

/* Statics are shared by every simulated processor: ask the engine each time. */
#define self splitc_sim_self()
#define procs splitc_sim_procs()

static void check(int ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "engine_api: processor %d: %s\n", self, what);
    exit(1);
  }
}

static void barrier(void) {
  int none = 0;
  int *all = malloc(sizeof(int) * (size_t)procs);
  splitc_sim_exchange(&none, sizeof none, all, 0);
  free(all);
}

/* Send `packets` numbered packets to the next processor on `channel`; receive
 * the previous one's, counting arrivals out of order and duplicates. */
static void ring(int channel, int *received, int *out_of_order, int *duplicates) {
  static char seen[64][packets]; /* per receiving processor: statics are shared */
  memset(seen[self], 0, packets);
  for (int i = 0; i < packets; ++i) splitc_sim_send(channel, (self + 1) % procs, &i, sizeof i);
  *received = *out_of_order = *duplicates = 0;
  int last = -1;
  /* Far past every arrival (latency plus the longest injected delay). */
  const double until = splitc_sim_now_ns() + 1e9;
  while (splitc_sim_now_ns() < until) {
    int source = -1, n = 0;
    long len = splitc_sim_receive(channel, &source, &n, sizeof n);
    if (len < 0) {
      splitc_sim_charge_ns(1e5);
      continue;
    }
    check(len == sizeof n && source == (self + procs - 1) % procs, "a packet from the wrong source");
    check(n >= 0 && n < packets, "a packet with a number never sent");
    ++*received;
    if (seen[self][n]) ++*duplicates;
    seen[self][n] = 1;
    if (n < last) ++*out_of_order;
    if (n > last) last = n;
  }
}

int main(int argc, char **argv) {
  splitc_sim_enter();
  const char *test = argc > 1 ? argv[1] : "";
  if (strcmp(test, "order") == 0) {
    int received, out_of_order, duplicates;
    ring(splitc_sim_channel("ordered", SPLITC_SIM_ORDERED), &received, &out_of_order, &duplicates);
    check(received == packets && out_of_order == 0 && duplicates == 0, "the ordered channel's order");
  } else if (strcmp(test, "reorder") == 0) {
    int received, out_of_order, duplicates;
    ring(splitc_sim_channel("unordered", 0), &received, &out_of_order, &duplicates);
    check(received == packets && duplicates == 0, "a reliable channel lost or duplicated");
    check(out_of_order > 0, "SPLITC_SIM_REORDER reordered nothing");
  } else if (strcmp(test, "loss") == 0) {
    int received, out_of_order, duplicates;
    ring(splitc_sim_channel("lossy", SPLITC_SIM_UNRELIABLE), &received, &out_of_order, &duplicates);
    check(duplicates > 0, "SPLITC_SIM_DUPLICATE duplicated nothing");
    check(received - duplicates < packets, "SPLITC_SIM_DROP lost nothing");
  } else if (strcmp(test, "exchange") == 0) {
    splitc_sim_charge_ns(1000.0 * self); /* arrive at different times */
    long mine = 3L * self + 1;
    long *all = malloc(sizeof(long) * (size_t)procs);
    splitc_sim_exchange(&mine, sizeof mine, all, 500);
    for (int p = 0; p < procs; ++p) check(all[p] == 3L * p + 1, "a contribution is wrong");
    check(splitc_sim_now_ns() >= 1000.0 * (procs - 1) + 500, "left before the last arrival");
    free(all);
  } else if (strcmp(test, "short_send") == 0) {
    if (self == 0) {
      const int channel = splitc_sim_channel("costs", 0);
      char packet[48] = {0};
      double cost[5];
      for (int i = 0; i < 5; ++i) {
        splitc_sim_charge_ns(1e6); /* past the gap after the previous send */
        const double before = splitc_sim_now_ns();
        if (i == 0) splitc_sim_send(channel, 1, packet, 0);
        if (i == 1) splitc_sim_send_short(channel, 1, packet, sizeof packet);
        if (i == 2) splitc_sim_send(channel, 1, packet, sizeof packet);
        if (i == 3) splitc_sim_send_charged(channel, 1, packet, sizeof packet, 16);
        if (i == 4) splitc_sim_send_stream(channel, 1, packet, sizeof packet, 24);
        cost[i] = splitc_sim_now_ns() - before;
      }
      check(cost[0] > 0, "an empty packet cost its sender nothing");
      check(cost[1] == cost[0], "a short message's 48 bytes were charged per byte");
      check(cost[2] > cost[1], "a 48-byte packet cost no more than an empty one");
      const double per_byte = (cost[2] - cost[0]) / 48, charged = cost[3] - cost[0];
      check(charged > 16 * per_byte * 0.999999 && charged < 16 * per_byte * 1.000001,
            "a packet charged for 16 of its 48 bytes did not cost 16 bytes more than an empty one");
      check(cost[4] > 24 * per_byte * 0.999999 && cost[4] < 24 * per_byte * 1.000001,
            "a stream's packet of 24 data bytes did not cost 24 bytes and nothing else");
    }
  } else if (strcmp(test, "receive_costs") == 0) {
    /* The cm5 model: o_r 1800 ns, an empty poll 312.5 ns. */
    const int channel = splitc_sim_channel("receives", 0);
    char packet[16] = {0};
    if (self == 0) splitc_sim_send_short(channel, 1, packet, sizeof packet);
    if (self == 1) {
      int source = -1;
      splitc_sim_charge_ns(1e6); /* far past the packet's arrival */
      double cost[3];
      for (int i = 0; i < 3; ++i) {
        const double before = splitc_sim_now_ns();
        const long got = splitc_sim_receive(channel, &source, packet, sizeof packet);
        cost[i] = splitc_sim_now_ns() - before;
        check((got == (long)sizeof packet) == (i == 0), "the packet was not received once");
      }
      check(source == 0, "the packet came from the wrong processor");
      check(cost[0] == 1800, "taking a packet did not cost the model's o_r alone");
      check(cost[1] == 0, "the look that ended the sweep after a packet cost something");
      check(cost[2] == 312.5, "an empty look did not cost the model's poll alone");
    }
  } else if (strcmp(test, "putget") == 0) {
    size_t size = 0;
    volatile long *segment = splitc_sim_segment(&size);
    check(size >= 4096, "a segment smaller than a page");
    segment[8] = -1;
    barrier();
    const int next = (self + 1) % procs;
    for (long i = 1; i <= 100; ++i) splitc_sim_put(next, 8 * sizeof(long), &i, sizeof i);
    long seen = 0;
    while (seen != 100) { /* in order: the value only grows */
      splitc_sim_land_puts();
      const long now = segment[8];
      check(now == -1 || now >= seen, "a put landed before an earlier one");
      if (now != -1) seen = now;
      if (seen != 100) splitc_sim_wait("the puts");
    }
    barrier();
    long got = 0;
    splitc_sim_get(next, 8 * sizeof(long), &got, sizeof got);
    check(got == 100, "a get read the wrong value");
  } else if (strcmp(test, "wait_put") == 0) {
    volatile long *segment = splitc_sim_segment(NULL);
    segment[9] = 0;
    barrier();
    if (self == 0) {
      const long v = 42;
      splitc_sim_put(1, 9 * sizeof(long), &v, sizeof v);
    } else if (self == 1) {
      splitc_sim_charge_ns(1e6); /* the put has arrived by now, not yet landed */
      splitc_sim_wait("a put that has arrived");
      check(segment[9] == 42, "the wait returned before the put landed");
    }
  } else if (strcmp(test, "wake") == 0) {
    static double woken_at[2]; /* statics are shared: what processors 1 and 4 name */
    barrier();
    if (self == 0) {
      splitc_sim_wait("the wake test");
      check(splitc_sim_now_ns() == woken_at[0], "a wait did not end at its wake-up's time");
    } else if (self == 1) {
      splitc_sim_charge_ns(1e6);
      woken_at[0] = splitc_sim_now_ns();
      splitc_sim_wake(0, woken_at[0]);
    } else if (self == 2 || self == 3) {
      const double at = splitc_sim_now_ns() + 5e5;
      splitc_sim_wake(self, at);
      splitc_sim_wait("the wake test");
      check(splitc_sim_now_ns() == at, "a wait did not end at its own wake-up's time");
      if (self == 3) {
        splitc_sim_wait("the wake test"); /* the one above is spent: processor 4's ends this */
        check(splitc_sim_now_ns() == woken_at[1], "a spent wake-up ended a second wait");
      }
    } else if (self == 4) {
      splitc_sim_charge_ns(3e6);
      woken_at[1] = splitc_sim_now_ns();
      splitc_sim_wake(3, woken_at[1]);
    }
  } else if (strcmp(test, "bad_node") == 0) {
    int c = splitc_sim_channel("c", 0);
    if (self == 1) splitc_sim_send(c, procs, &c, sizeof c);
    barrier();
  } else if (strcmp(test, "fail") == 0) {
    if (self == procs - 1) splitc_sim_fail("CMAML_request", "handler index 99 out of range");
    barrier();
  } else if (strcmp(test, "deadlock") == 0) {
    splitc_sim_wait("the engine test's wait");
  } else {
    fprintf(stderr, "usage: engine_api order|reorder|loss|exchange|short_send|receive_costs|putget|wait_put|wake|bad_node|fail|deadlock\n");
    return 2;
  }
  barrier();
  if (self == 0) printf("%s holds on %d processors\nPASS engine_api\n", test, procs);
  return 0;
}
