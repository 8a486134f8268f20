// splitc-mpi-bench: splitc on MPI next to raw MPI, in the same run.
//
//   mpirun -np 2 [flags] splitc-mpi-bench [--quick] [--runs N] [--sizes-min BYTES]
//                                         [--sizes-max BYTES] [--only SECTION]
//
// Processor 0 measures against processor 1 (further processors only join
// the collectives). Every comparison interleaves its members run by run, so
// raw MPI and splitc see the same mixture of this machine's cross-core
// regimes (../shared/reference/this-machine.md); each row reports the median
// of the runs and, for ratios, the median of the per-run ratios.
//
// Raw MPI (on MPI_COMM_WORLD): ping-pong round trip, windowed bandwidth
// (8 MPI_Isend in flight), MPI_Put/MPI_Get + MPI_Win_flush, MPI_Barrier,
// MPI_Allreduce, MPI_Bcast, and MPI_Iallreduce polled. splitc: active-message
// round trip, read/write, get/put (N issued, then sync), store, the five bulk
// operations, barrier (both protocols), reduce_to_all, broadcast; and the
// long-message protocols (staged, rendezvous, RMA) side by side per size, and
// bulk_get both ways at once (`--only exchange`: replies inside handlers).
#include <mpi.h>
#include <splitc/backends/mpi.hpp>
#include <splitc/splitc.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace mpi = splitc::backends::mpi;
using u64 = std::uint64_t;

int me = 0, P = 1;
int runs = 15;
bool quick = false;
std::size_t sizes_max = 4 << 20;
std::size_t sizes_min = 1024;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

mpi::mpi_backend& backend() { return splitc::detail::ctx().backend; }

// ---- handlers ------------------------------------------------------------------

splitc::handler_id h_ping, h_pong, h_stop, h_done;
volatile u64 pongs = 0;
volatile u64 partner_done = 0;  ///< the partner's part of an exchange has ended
volatile bool stop_flag = false;
void on_ping(const splitc::am_message& m) { splitc::am_reply(m, h_pong, m.args[0]); }
void on_pong(const splitc::am_message&) { pongs = pongs + 1; }
void on_stop(const splitc::am_message&) { stop_flag = true; }
void on_done(const splitc::am_message&) { partner_done = partner_done + 1; }

/// Processors other than 0 serve active messages until processor 0 says stop.
void serve() {
  while (!stop_flag) splitc::poll();
  stop_flag = false;
}
void stop_others() {
  for (int q = 1; q < P; ++q) splitc::am_request(q, h_stop);
}

// ---- statistics ------------------------------------------------------------------

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// How a latency row turns a run into one number: the mean over the run, or
/// the median over batches of `batch` events (robust against the preemption
/// of a loaded machine: a batch that lost the processor drops out, as it does
/// for every member alike). `--stat mean|median`.
enum class statistic { mean, batch_median };
statistic latency_stat = statistic::batch_median;
constexpr long batch = 16;

/// Time `iters` calls of step(i); nanoseconds per call by `latency_stat`.
template <class Step>
double timed(long iters, Step&& step) {
  if (latency_stat == statistic::mean) {
    const auto t0 = now_ns();
    for (long i = 0; i < iters; ++i) step(i);
    return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
  }
  std::vector<double> batches;
  batches.reserve(static_cast<std::size_t>(iters / batch + 1));
  for (long i = 0; i < iters;) {
    const long n = std::min(batch, iters - i);
    const auto t0 = now_ns();
    for (long k = 0; k < n; ++k) step(i++);
    batches.push_back(static_cast<double>(now_ns() - t0) / static_cast<double>(n));
  }
  return median(std::move(batches));
}

/// One member of a comparison: what each processor runs for one timed run of
/// `iters` events; processor 0 returns nanoseconds per event.
struct member {
  std::string name;
  std::function<double(long)> lead;      ///< processor 0
  std::function<void(long)> partner;     ///< processor 1
  std::function<void(long)> others = [](long) {};  ///< processors 2..
  double bytes_per_event = 0;            ///< for bandwidth rows
};

/// Run members interleaved, `runs` times (plus one warm-up run each), and
/// return per-member samples (valid on processor 0).
std::string rows_filter;  ///< --rows SUBSTRING: only the rows whose name contains it (and row 0)

std::vector<std::vector<double>> compare(std::vector<member>& members, long iters) {
  if (!rows_filter.empty()) {
    std::vector<member> kept;
    for (std::size_t i = 0; i < members.size(); ++i)
      if (i == 0 || members[i].name.find(rows_filter) != std::string::npos)
        kept.push_back(members[i]);
    members = std::move(kept);
  }
  std::vector<std::vector<double>> samples(members.size());
  for (int r = -1; r < runs; ++r) {
    for (std::size_t i = 0; i < members.size(); ++i) {
      splitc::barrier();
      MPI_Barrier(MPI_COMM_WORLD);
      if (me == 0) {
        const double t = members[i].lead(iters);
        if (r >= 0) samples[i].push_back(t);
      } else if (me == 1) {
        members[i].partner(iters);
      } else {
        members[i].others(iters);
      }
    }
  }
  splitc::barrier();
  return samples;
}

/// The median over runs of s[a][run] / s[b][run] (NaN when a row was left out by --rows).
double median_ratio(const std::vector<std::vector<double>>& s, std::size_t a, std::size_t b) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < s[a].size() && r < s[b].size(); ++r)
    ratios.push_back(s[a][r] / s[b][r]);
  return median(std::move(ratios));
}

/// The index of the member whose name starts with `prefix`, or 0 (the reference).
std::size_t row_named(const std::vector<member>& m, std::string_view prefix) {
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i].name.rfind(prefix, 0) == 0) return i;
  return 0;
}

void print_latency_rows(const std::vector<member>& m, const std::vector<std::vector<double>>& s,
                        std::size_t reference) {
  if (me != 0) return;
  for (std::size_t i = 0; i < m.size(); ++i) {
    std::printf("| %-40s | %10.3f | %10.3f | %7.3f |\n", m[i].name.c_str(), median(s[i]) / 1e3,
                *std::min_element(s[i].begin(), s[i].end()) / 1e3, median_ratio(s, i, reference));
  }
  std::fflush(stdout);
}

void print_bandwidth_rows(const std::vector<member>& m, const std::vector<std::vector<double>>& s,
                          std::size_t reference, std::size_t size) {
  if (me != 0) return;
  for (std::size_t i = 0; i < m.size(); ++i) {
    const double gbs = m[i].bytes_per_event / median(s[i]);  // bytes per ns = GB/s
    // bandwidth ratio = inverse time ratio
    std::printf("| %-32s | %9zu | %8.3f | %7.3f |\n", m[i].name.c_str(), size, gbs,
                median_ratio(s, reference, i));
  }
  std::fflush(stdout);
}

void header(const char* title, const char* columns, const char* rule) {
  if (me != 0) return;
  std::printf("\n### %s\n\n%s\n%s\n", title, columns, rule);
  std::fflush(stdout);
}

// ---- raw MPI pieces ------------------------------------------------------------

std::vector<unsigned char> raw_buffer;
MPI_Win raw_window = MPI_WIN_NULL;
unsigned char* raw_window_base = nullptr;
/// A window of the backend's kind: MPI_Win_create over memory the program allocated (the
/// backend's is over the segments), served by whichever one-sided component the launcher
/// chose for such windows -- what gets and puts over MPI RMA would cost splitc.
MPI_Win created_window = MPI_WIN_NULL;
std::vector<unsigned char> created_window_memory(4096);

double raw_pingpong(long iters) {
  char x[8] = {};
  return timed(iters, [&x](long) {
    MPI_Send(x, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(x, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
}
void raw_pingpong_partner(long iters) {
  char x[8] = {};
  for (long i = 0; i < iters; ++i) {
    MPI_Recv(x, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(x, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
  }
}
// The same with 24-byte messages, the size of a short active message's
// packet with one argument word and its header (16 + 8 bytes): with Open
// MPI's vader a message above ~8 bytes costs 1.04-1.16x an 8-byte one here
// (docs/mpi.md), which is why such messages travel as compact packets (the
// header in the tag: 8 bytes) unless SPLITC_MPI_COMPACT=0.
double raw_pingpong24(long iters) {
  char x[24] = {};
  return timed(iters, [&x](long) {
    MPI_Send(x, 24, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(x, 24, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  });
}
void raw_pingpong24_partner(long iters) {
  char x[24] = {};
  for (long i = 0; i < iters; ++i) {
    MPI_Recv(x, 24, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(x, 24, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
  }
}

constexpr int window = 8;
/// `window` non-blocking sends (or receives) of `size` bytes from
/// consecutive slices of `base`, to (or from) `peer`.
void post_window(unsigned char* base, std::size_t size, int peer, bool send, MPI_Request* q) {
  for (int w = 0; w < window; ++w) {
    unsigned char* at = base + static_cast<std::size_t>(w) * size;
    if (send)
      MPI_Isend(at, static_cast<int>(size), MPI_BYTE, peer, 8, MPI_COMM_WORLD, &q[w]);
    else
      MPI_Irecv(at, static_cast<int>(size), MPI_BYTE, peer, 8, MPI_COMM_WORLD, &q[w]);
  }
}

// Windowed bandwidth: `window` messages of `size` in flight, then a 1-byte
// token, between the lead's buffer `mine` and the partner's `theirs`.
// `to_partner`: the lead sends and the partner acknowledges; otherwise the
// partner sends once the lead says its receives are posted. The reference
// row uses raw_buffer on both sides; the "same buffers" rows use those of
// bulk_put and bulk_get (the lead's private vector, the partner's segment,
// whose pages are huge): the kernel's single copy moves huge pages into
// small ones at about half the speed of small into small here, so a raw
// reference between other buffers says little about the transfer
// (docs/mpi.md "Bandwidth").
double raw_bandwidth(std::size_t size, long iters, unsigned char* mine, bool to_partner) {
  char token = 0;
  const auto t0 = now_ns();
  for (long i = 0; i < iters; ++i) {
    MPI_Request q[window];
    post_window(mine, size, 1, to_partner, q);
    if (!to_partner) MPI_Send(&token, 1, MPI_BYTE, 1, 9, MPI_COMM_WORLD);  // receives posted
    MPI_Waitall(window, q, MPI_STATUSES_IGNORE);
    if (to_partner) MPI_Recv(&token, 1, MPI_BYTE, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return static_cast<double>(now_ns() - t0) / static_cast<double>(iters * window);
}
void raw_bandwidth_partner(std::size_t size, long iters, unsigned char* theirs, bool to_partner) {
  char token = 0;
  for (long i = 0; i < iters; ++i) {
    MPI_Request q[window];
    if (!to_partner) MPI_Recv(&token, 1, MPI_BYTE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    post_window(theirs, size, 0, !to_partner, q);
    MPI_Waitall(window, q, MPI_STATUSES_IGNORE);
    if (to_partner) MPI_Send(&token, 1, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
  }
}

/// The cache-line round trip of this machine between processors 0 and 1,
/// through an MPI shared-memory window.
double cache_line_roundtrip() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  double result = std::nan("");
  if (node_size == P && P >= 2) {
    MPI_Win win;
    std::atomic<u64>* line = nullptr;
    MPI_Win_allocate_shared(me == 0 ? 128 : 0, 1, MPI_INFO_NULL, node, &line, &win);
    MPI_Aint size;
    int unit;
    MPI_Win_shared_query(win, 0, &size, &unit, &line);
    if (me == 0) line->store(0);
    MPI_Barrier(node);
    const long iters = 20000;
    std::vector<double> samples;
    for (int r = 0; r < 7; ++r) {
      MPI_Barrier(node);
      const u64 base = static_cast<u64>(r) * 2 * iters;
      if (me == 0) {
        const auto t0 = now_ns();
        for (long i = 0; i < iters; ++i) {
          line->store(base + 2 * i + 1, std::memory_order_release);
          while (line->load(std::memory_order_acquire) != base + 2 * i + 2) {
          }
        }
        samples.push_back(static_cast<double>(now_ns() - t0) / iters);
      } else if (me == 1) {
        for (long i = 0; i < iters; ++i) {
          while (line->load(std::memory_order_acquire) != base + 2 * i + 1) {
          }
          line->store(base + 2 * i + 2, std::memory_order_release);
        }
      }
    }
    result = median(samples);
    MPI_Win_free(&win);
  }
  MPI_Comm_free(&node);
  return result;
}

// ---- splitc pieces -----------------------------------------------------------

/// A splitc member: processor 0 times `event` iters times (plus `finish`),
/// then stops the servers. A round-trip member (one event completes before
/// the next starts) is timed by `timed`, so by `latency_stat`.
member splitc_member(std::string name, std::function<void(long)> event,
                     std::function<void(long)> finish = nullptr) {
  const bool round_trip_member = !finish;
  if (!finish) finish = [](long) {};
  member m;
  m.name = std::move(name);
  m.lead = [event, finish, round_trip_member](long iters) {
    if (round_trip_member) {
      const double t = timed(iters, event);
      stop_others();
      return t;
    }
    const auto t0 = now_ns();
    for (long i = 0; i < iters; ++i) event(i);
    finish(iters);
    const double t = static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    stop_others();
    return t;
  };
  m.partner = [](long) { serve(); };
  m.others = [](long) { serve(); };
  return m;
}

u64 value_cell = 0;  // same address everywhere (ASLR off)

void am_roundtrip(long) {
  const u64 want = pongs + 1;
  splitc::am_request(1, h_ping, u64{1});
  while (pongs < want) splitc::poll();
}

// The NXAM pattern in bare MPI (no splitc): a ring of receives pre-posted
// from MPI_ANY_SOURCE, the oldest tested, re-posted at the next poll; sends by
// MPI_Isend. What the backend's design costs before any code of its own.
// `--only nxam` measures the variants of the pattern (ring_options) that the
// backend could use, side by side (docs/mpi.md).
MPI_Comm ring_comm = MPI_COMM_NULL;
constexpr int ring_max = 256;
int ring_slots = 64;
unsigned char ring_buffers[ring_max][256];
MPI_Request ring_requests[ring_max];
long ring_head = 0, ring_reposted = 0;
enum class ring_send_mode { isend_test, isend_untested, send, rsend };
struct ring_options {
  bool any_source = true;   ///< MPI_ANY_SOURCE, or the one peer
  bool persistent = false;  ///< MPI_Recv_init once, MPI_Start to re-post
  bool repost_now = false;  ///< re-post as soon as a message is seen (not at the next poll)
  ring_send_mode send = ring_send_mode::isend_test;
  bool wait = false;        ///< MPI_Wait on the oldest receive instead of polling it with MPI_Test
  int slots = 64;           ///< receives posted (at most ring_max)
};
ring_options ring_opt;
void ring_post(int i, int peer) {
  if (ring_opt.persistent) {
    MPI_Start(&ring_requests[i]);
  } else {
    MPI_Irecv(ring_buffers[i], 256, MPI_BYTE, ring_opt.any_source ? MPI_ANY_SOURCE : peer, 5,
              ring_comm, &ring_requests[i]);
  }
}
void ring_open(int peer) {
  ring_slots = ring_opt.slots;
  for (int i = 0; i < ring_slots; ++i) {
    if (ring_opt.persistent)
      MPI_Recv_init(ring_buffers[i], 256, MPI_BYTE, ring_opt.any_source ? MPI_ANY_SOURCE : peer,
                    5, ring_comm, &ring_requests[i]);
    ring_post(i, peer);
  }
  ring_head = ring_reposted = 0;
}
void ring_close() {
  for (int i = 0; i < ring_slots; ++i) {
    if (ring_requests[i] == MPI_REQUEST_NULL) continue;
    // (an inactive persistent request tests as complete)
    int flag = 0;
    MPI_Test(&ring_requests[i], &flag, MPI_STATUS_IGNORE);
    if (!flag) {
      MPI_Cancel(&ring_requests[i]);
      MPI_Wait(&ring_requests[i], MPI_STATUS_IGNORE);
    }
    if (ring_opt.persistent) MPI_Request_free(&ring_requests[i]);
  }
}
bool ring_poll(int peer) {
  while (ring_reposted < ring_head) ring_post(static_cast<int>(ring_reposted++ % ring_slots), peer);
  int done = 0;
  if (ring_opt.wait) {
    MPI_Wait(&ring_requests[ring_head % ring_slots], MPI_STATUS_IGNORE);
    done = 1;
  } else {
    MPI_Test(&ring_requests[ring_head % ring_slots], &done, MPI_STATUS_IGNORE);
  }
  if (done) {
    ++ring_head;
    if (ring_opt.repost_now) ring_post(static_cast<int>(ring_reposted++ % ring_slots), peer);
  }
  return done != 0;
}
void ring_send(int to) {
  static unsigned char packet[24];
  MPI_Request r;
  int done = 0;
  switch (ring_opt.send) {
    case ring_send_mode::isend_test:
      MPI_Isend(packet, sizeof packet, MPI_BYTE, to, 5, ring_comm, &r);
      MPI_Test(&r, &done, MPI_STATUS_IGNORE);
      break;
    case ring_send_mode::isend_untested:  // leaks nothing with ob1's inline sends
      MPI_Isend(packet, sizeof packet, MPI_BYTE, to, 5, ring_comm, &r);
      MPI_Request_free(&r);
      break;
    case ring_send_mode::send: MPI_Send(packet, sizeof packet, MPI_BYTE, to, 5, ring_comm); break;
    case ring_send_mode::rsend: MPI_Rsend(packet, sizeof packet, MPI_BYTE, to, 5, ring_comm); break;
  }
}
double ring_roundtrip(long iters) {
  ring_open(1);
  MPI_Barrier(ring_comm);
  const double t = timed(iters, [](long) {
    ring_send(1);
    while (!ring_poll(1)) {
    }
  });
  MPI_Barrier(ring_comm);
  ring_close();
  return t;
}
void ring_roundtrip_partner(long iters) {
  ring_open(0);
  MPI_Barrier(ring_comm);
  for (long i = 0; i < iters; ++i) {
    while (!ring_poll(0)) {
    }
    ring_send(0);
  }
  MPI_Barrier(ring_comm);
  ring_close();
}
member ring_member(std::string name, ring_options o) {
  member m;
  m.name = std::move(name);
  m.lead = [o](long iters) {
    ring_opt = o;
    return ring_roundtrip(iters);
  };
  m.partner = [o](long iters) {
    ring_opt = o;
    ring_roundtrip_partner(iters);
  };
  return m;
}

// The backend alone, without the core: request_short / reply_short / poll
// with a sink of its own (handler 0, which the core never sees here).
u64 raw_am_replies = 0;
bool raw_am_stop = false;
constexpr splitc::handler_id raw_handler{0xffff};  // never a core handler
void raw_am_deliver(void*, const splitc::am_message& m) {
  if (m.handler != raw_handler) {  // the core's own traffic (collectives) goes on to it
    const splitc::am_sink core = splitc::detail::ctx().sink();
    core.deliver(core.context, m);
    return;
  }
  if (m.is_request) {
    if (m.args[0] == ~u64{0}) {
      raw_am_stop = true;
      return;
    }
    while (backend().reply_short(m, raw_handler, m.args, 1) != splitc::am_status::ok) {
    }
  } else {
    ++raw_am_replies;
  }
}
double backend_roundtrip(long iters) {
  const splitc::am_sink sink{nullptr, raw_am_deliver, 0};
  const u64 one = 1;
  const double t = timed(iters, [&sink, &one](long) {
    const u64 want = raw_am_replies + 1;
    while (backend().request_short(1, raw_handler, &one, 1) != splitc::am_status::ok)
      backend().poll(sink);
    while (raw_am_replies < want) backend().poll(sink);
  });
  const u64 stop = ~u64{0};
  while (backend().request_short(1, raw_handler, &stop, 1) != splitc::am_status::ok)
    backend().poll(sink);
  return t;
}
void backend_roundtrip_partner(long) {
  const splitc::am_sink sink{nullptr, raw_am_deliver, 0};
  while (!raw_am_stop) backend().poll(sink);
  raw_am_stop = false;
}

// ---- sections -------------------------------------------------------------------

void latency_section(double cache_line) {
  if (me == 0) {
    std::printf("\n### Latency and overhead (processor 0 against processor 1; µs; "
                "cache-line round trip %.3f µs)\n\n",
                cache_line / 1e3);
    std::printf("| %-40s | %10s | %10s | %7s |\n", "operation", "median", "min", "× ref");
    std::printf("|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str(), std::string(9, '-').c_str());
  }
  std::vector<member> m;
  m.push_back({"raw MPI ping-pong round trip (8 B)", raw_pingpong, raw_pingpong_partner});
  m.push_back({"raw MPI ping-pong, 24 B (packet+header)", raw_pingpong24,
               raw_pingpong24_partner});
  m.push_back(ring_member("bare MPI: pre-posted ring, Isend", ring_options{}));
  m.push_back({"backend alone: request_short+reply_short", backend_roundtrip,
               backend_roundtrip_partner});
  m.push_back(splitc_member("splitc AM round trip (request+reply)", am_roundtrip));
  m.push_back(splitc_member("splitc read (8 B)", [](long) {
    volatile u64 v = splitc::read(splitc::toglobal(1, &value_cell));
    (void)v;
  }));
  m.push_back(splitc_member("splitc write (8 B)", [](long i) {
    splitc::write(splitc::toglobal(1, &value_cell), static_cast<u64>(i));
  }));
  const long iters = quick ? 500 : 4000;
  auto s = compare(m, iters);
  print_latency_rows(m, s, 0);
  const std::size_t am_row = row_named(m, "splitc AM round trip");
  const std::size_t raw24_row = row_named(m, "raw MPI ping-pong, 24 B");
  if (me == 0 && am_row != 0) {
    std::printf("\nThe AM layer adds %.0f %% to MPI's round trip (seed: NXAM/MPL added 13-35 %% "
                "to message passing)",
                (median_ratio(s, am_row, 0) - 1) * 100);
    if (backend().tune().compact) {
      std::printf("; its packets are compact (8 B, the header in the MPI tag)");
    } else if (raw24_row != 0) {
      std::printf("; %.0f %% to a raw ping-pong of its packet's size (24 B, with header)",
                  (median_ratio(s, am_row, raw24_row) - 1) * 100);
    }
    std::printf(".\n");
  }

  // Overheads: N operations then completion, per operation.
  header("Overhead: N operations, then completion (µs per operation)",
         "| operation                                |     median |        min |   × ref |",
         "|------------------------------------------|------------|------------|---------|");
  // The target words in the spread heap (the segment, as raw MPI's are in its window), the same
  // address on every processor; the local side in ordinary memory on both.
  static u64* const cells =
      splitc::all_spread_malloc<u64>(static_cast<std::size_t>(splitc::procs()) * 4096).local();
  static std::vector<u64> local(4096);
  std::vector<member> o;
  {
    member putflush;
    putflush.name = "raw MPI_Put + MPI_Win_flush (8 B)";
    putflush.lead = [](long iters) {
      const u64 v = 1;
      const auto t0 = now_ns();
      for (long i = 0; i < iters; ++i) {
        MPI_Put(&v, 8, MPI_BYTE, 1, (i % 512) * 8, 8, MPI_BYTE, raw_window);
        MPI_Win_flush(1, raw_window);
      }
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    putflush.partner = [](long) {};
    o.push_back(putflush);
    member getflush = putflush;
    getflush.name = "raw MPI_Get + MPI_Win_flush (8 B)";
    getflush.lead = [](long iters) {
      u64 v = 0;
      const auto t0 = now_ns();
      for (long i = 0; i < iters; ++i) {
        MPI_Get(&v, 8, MPI_BYTE, 1, (i % 512) * 8, 8, MPI_BYTE, raw_window);
        MPI_Win_flush(1, raw_window);
      }
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    o.push_back(getflush);
    member puts = putflush;
    puts.name = "raw N x MPI_Put, then one flush (8 B)";
    puts.lead = [](long iters) {
      const u64 v = 1;
      const auto t0 = now_ns();
      for (long i = 0; i < iters; ++i)
        MPI_Put(&v, 8, MPI_BYTE, 1, (i % 512) * 8, 8, MPI_BYTE, raw_window);
      MPI_Win_flush(1, raw_window);
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    o.push_back(puts);
    member created_gets = putflush;
    created_gets.name = "raw N x MPI_Get, created window";
    created_gets.lead = [](long iters) {
      u64 v = 0;
      const auto t0 = now_ns();
      for (long i = 0; i < iters; ++i)
        MPI_Get(&v, 8, MPI_BYTE, 1, (i % 512) * 8, 8, MPI_BYTE, created_window);
      MPI_Win_flush(1, created_window);
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    o.push_back(created_gets);
    member created_puts = putflush;
    created_puts.name = "raw N x MPI_Put, created window";
    created_puts.lead = [](long iters) {
      const u64 v = 1;
      const auto t0 = now_ns();
      for (long i = 0; i < iters; ++i)
        MPI_Put(&v, 8, MPI_BYTE, 1, (i % 512) * 8, 8, MPI_BYTE, created_window);
      MPI_Win_flush(1, created_window);
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    o.push_back(created_puts);
  }
  o.push_back(splitc_member(
      "splitc get (N, then sync)",
      [](long i) { splitc::get(&local[i % 4096], splitc::toglobal(1, &cells[i % 4096])); },
      [](long) { splitc::sync(); }));
  o.push_back(splitc_member(
      "splitc put (N, then sync)",
      [](long i) { splitc::put(splitc::toglobal(1, &cells[i % 4096]), static_cast<u64>(i)); },
      [](long) { splitc::sync(); }));
  o.push_back(splitc_member(
      "splitc store (N, issue only)",
      [](long i) { splitc::store(splitc::toglobal(1, &cells[i % 4096]), static_cast<u64>(i)); },
      [](long) {}));
  // The stores' completion, outside the timing: everyone agrees they are in.
  for (auto& mm : o) {
    if (mm.name.rfind("splitc store", 0) == 0) {
      auto lead = mm.lead;
      mm.lead = [lead](long iters) {
        const double t = lead(iters);
        splitc::all_store_sync();
        return t;
      };
      mm.partner = [](long) {
        serve();
        splitc::all_store_sync();
      };
      mm.others = mm.partner;
    }
  }
  auto so = compare(o, quick ? 500 : 2000);
  print_latency_rows(o, so, 0);
}

/// The variants of the NXAM pattern in bare MPI, against the raw ping-pong.
void nxam_section(double cache_line) {
  if (me == 0) {
    std::printf("\n### The NXAM pattern in bare MPI, variants (round trip, µs; "
                "cache-line round trip %.3f µs)\n\n",
                cache_line / 1e3);
    std::printf("| %-40s | %10s | %10s | %7s |\n", "variant", "median", "min", "× ref");
    std::printf("|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str(), std::string(9, '-').c_str());
  }
  using mode = ring_send_mode;
  std::vector<member> m;
  m.push_back({"raw MPI ping-pong round trip (8 B)", raw_pingpong, raw_pingpong_partner});
  m.push_back(ring_member("any source, Isend+Test (the backend's)", {}));
  m.push_back(ring_member("any source, Isend, Request_free", {true, false, false, mode::isend_untested}));
  m.push_back(ring_member("any source, Send", {true, false, false, mode::send}));
  m.push_back(ring_member("any source, Rsend", {true, false, false, mode::rsend}));
  m.push_back(ring_member("one source, Isend+Test", {false, false, false, mode::isend_test}));
  m.push_back(ring_member("one source, Send", {false, false, false, mode::send}));
  m.push_back(ring_member("any source, persistent, Isend+Test", {true, true, false, mode::isend_test}));
  m.push_back(ring_member("any source, persistent, Send", {true, true, false, mode::send}));
  m.push_back(ring_member("any source, re-post at once, Send", {true, false, true, mode::send}));
  m.push_back(ring_member("any source, persistent, Send, MPI_Wait",
                          {true, true, false, mode::send, true}));
  m.push_back(ring_member("one source, Send, MPI_Wait", {false, false, false, mode::send, true}));
  for (int slots : {2, 8, 128, 256})
    m.push_back(ring_member("any source, persistent, Send, " + std::to_string(slots) + " slots",
                            {true, true, false, mode::send, false, slots}));
  m.push_back({"backend alone: request_short+reply_short", backend_roundtrip,
               backend_roundtrip_partner});
  {
    // The same with every packet sent by MPI_Isend (blocking_send_max 0).
    member x{"backend alone, packets by Isend+Test", nullptr, nullptr};
    x.lead = [](long iters) {
      const std::size_t saved = backend().tune().blocking_send_max;
      backend().tune().blocking_send_max = 0;
      const double t = backend_roundtrip(iters);
      backend().tune().blocking_send_max = saved;
      return t;
    };
    x.partner = [](long iters) {
      const std::size_t saved = backend().tune().blocking_send_max;
      backend().tune().blocking_send_max = 0;
      backend_roundtrip_partner(iters);
      backend().tune().blocking_send_max = saved;
    };
    m.push_back(x);
  }
  m.push_back(splitc_member("splitc AM round trip (request+reply)", am_roundtrip));
  auto s = compare(m, quick ? 500 : 4000);
  print_latency_rows(m, s, 0);
}

void bandwidth_section() {
  header("Bandwidth (processor 0 to/from processor 1; GB/s; × = fraction of raw windowed)",
         "| operation                        |      size |     GB/s | × raw   |",
         "|----------------------------------|-----------|----------|---------|");
  std::vector<std::size_t> sizes;
  for (std::size_t s = sizes_min; s <= sizes_max; s *= 4) sizes.push_back(s);
  if (sizes.empty() || sizes.back() != sizes_max) sizes.push_back(sizes_max);
  auto* seg = static_cast<unsigned char*>(splitc::my_segment().base);
  static std::vector<unsigned char> local;
  local.assign(sizes_max * window, 1);
  for (std::size_t size : sizes) {
    std::vector<member> m;
    member raw;
    raw.name = "raw MPI windowed (8 Isend)";
    raw.lead = [size](long iters) { return raw_bandwidth(size, iters, raw_buffer.data(), true); };
    raw.partner = [size](long iters) {
      raw_bandwidth_partner(size, iters, raw_buffer.data(), true);
    };
    raw.bytes_per_event = static_cast<double>(size);
    m.push_back(raw);
    for (const bool to_partner : {true, false}) {
      member same;
      same.name = to_partner ? "raw windowed, put's buffers" : "raw windowed, get's buffers";
      same.lead = [size, to_partner](long iters) {
        return raw_bandwidth(size, iters, local.data(), to_partner);
      };
      same.partner = [size, seg, to_partner](long iters) {
        raw_bandwidth_partner(size, iters, seg, to_partner);
      };
      same.bytes_per_event = static_cast<double>(size);
      m.push_back(same);
    }
    auto add = [&](const char* name, std::function<void(long)> event,
                   std::function<void(long)> finish) {
      member x = splitc_member(name, std::move(event), std::move(finish));
      x.bytes_per_event = static_cast<double>(size);
      m.push_back(x);
    };
    add("splitc bulk_put (N, then sync)",
        [size, seg](long i) {
          splitc::bulk_put(splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size)),
                           local.data() + (i % window) * size, size);
        },
        [](long) { splitc::sync(); });
    add("splitc bulk_get (N, then sync)",
        [size, seg](long i) {
          splitc::bulk_get(local.data() + (i % window) * size,
                           splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size)), size);
        },
        [](long) { splitc::sync(); });
    add("splitc bulk_write (one at a time)",
        [size, seg](long i) {
          splitc::bulk_write(splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size)),
                             local.data(), size);
        },
        [](long) {});
    add("splitc bulk_read (one at a time)",
        [size, seg](long i) {
          splitc::bulk_read(local.data(),
                            splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size)),
                            size);
        },
        [](long) {});
    {
      // bulk_store: N stores, completion counted at the receiver; the lead's
      // time includes the all_store_sync that proves they arrived.
      member x;
      x.name = "splitc bulk_store (N, all_store_sync)";
      x.bytes_per_event = static_cast<double>(size);
      x.lead = [size, seg](long iters) {
        const auto t0 = now_ns();
        for (long i = 0; i < iters; ++i)
          splitc::bulk_store(splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size)),
                             local.data() + (i % window) * size, size);
        splitc::all_store_sync();
        return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
      };
      x.partner = [](long) { splitc::all_store_sync(); };
      x.others = x.partner;
      m.push_back(x);
    }
    const double total = quick ? 16e6 : 128e6;
    const long iters = std::max(16L, static_cast<long>(total / static_cast<double>(size)));
    auto s = compare(m, iters);
    print_bandwidth_rows(m, s, 0, size);
    // bulk_put and bulk_get against raw MPI between the same buffers
    // (bandwidth ratio = inverse time ratio).
    const std::size_t put = row_named(m, "splitc bulk_put"), get = row_named(m, "splitc bulk_get");
    const std::size_t put_ref = row_named(m, "raw windowed, put's");
    const std::size_t get_ref = row_named(m, "raw windowed, get's");
    if (me == 0 && put != 0 && get != 0 && put_ref != 0 && get_ref != 0)
      std::printf("\n%zu B between the same buffers: bulk_put %.3f× raw, bulk_get %.3f× raw\n\n",
                  size, median_ratio(s, put_ref, put), median_ratio(s, get_ref, get));
  }
}

/// One size's members, about 96 MB each (16 MB with --quick), compared and printed.
void run_size(std::vector<member>& m, std::size_t size) {
  const double total = quick ? 16e6 : 96e6;
  const long iters = std::max(16L, static_cast<long>(total / static_cast<double>(size)));
  auto s = compare(m, iters);
  print_bandwidth_rows(m, s, 0, size);
}

/// The long-message protocols side by side: bulk_put and bulk_get per size.
void protocol_section() {
  header("Long-message protocols (bulk_put / bulk_get, GB/s; × = fraction of raw windowed)",
         "| protocol                         |      size |     GB/s | × raw   |",
         "|----------------------------------|-----------|----------|---------|");
  auto* seg = static_cast<unsigned char*>(splitc::my_segment().base);
  static std::vector<unsigned char> local;
  local.assign(sizes_max * window, 1);
  struct choice {
    const char* name;
    mpi::long_protocol protocol;
  };
  std::vector<choice> choices = {{"staged", mpi::long_protocol::staged},
                                 {"rendezvous", mpi::long_protocol::rendezvous}};
  if (backend().has_window()) choices.push_back({"rma", mpi::long_protocol::rma});
  std::vector<std::size_t> sizes;
  for (std::size_t s = std::max<std::size_t>(sizes_min, 8192);
       s <= std::min<std::size_t>(sizes_max, mpi::mpi_backend::max_long_bytes);
       s *= 2)
    sizes.push_back(s);
  const mpi::tuning saved = backend().tune();
  for (std::size_t size : sizes) {
    std::vector<member> m;
    member raw;
    raw.name = "raw MPI windowed (8 Isend)";
    raw.lead = [size](long iters) { return raw_bandwidth(size, iters, raw_buffer.data(), true); };
    raw.partner = [size](long iters) {
      raw_bandwidth_partner(size, iters, raw_buffer.data(), true);
    };
    raw.bytes_per_event = static_cast<double>(size);
    m.push_back(raw);
    for (const auto& c : choices) {
      for (int get = 0; get < 2; ++get) {
        member x;
        x.name = std::string(get ? "bulk_get " : "bulk_put ") + c.name;
        x.bytes_per_event = static_cast<double>(size);
        const auto protocol = c.protocol;
        x.lead = [size, seg, protocol, get](long iters) {
          backend().tune().long_mode = protocol;
          const auto t0 = now_ns();
          for (long i = 0; i < iters; ++i) {
            auto remote = splitc::toglobal(1, static_cast<void*>(seg + (i % window) * size));
            if (get) splitc::bulk_get(local.data() + (i % window) * size, remote, size);
            else splitc::bulk_put(remote, local.data() + (i % window) * size, size);
          }
          splitc::sync();
          const double t = static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
          stop_others();
          return t;
        };
        x.partner = [protocol](long) {
          backend().tune().long_mode = protocol;  // replies (get) are sent here
          serve();
        };
        x.others = [](long) { serve(); };
        m.push_back(x);
      }
    }
    run_size(m, size);
  }
  backend().tune() = saved;
}

/// bulk_get both ways at once: each processor's gets are answered by the other's
/// handler, in the middle of its own gets. A long reply that waits in the handler
/// for the requester's receive (the rendezvous before zero-copy replies) holds the
/// answering processor's own gets meanwhile. GB/s per direction.
void exchange_section() {
  header("bulk_get both ways at once (GB/s per direction; × = fraction of the first row)",
         "| protocol                         |      size |     GB/s | ×       |",
         "|----------------------------------|-----------|----------|---------|");
  auto* seg = static_cast<unsigned char*>(splitc::my_segment().base);
  static std::vector<unsigned char> local;
  local.assign(sizes_max * window, 1);
  const std::pair<const char*, mpi::long_protocol> choices[] = {
      {"rendezvous", mpi::long_protocol::rendezvous}, {"staged", mpi::long_protocol::staged}};
  const mpi::tuning saved = backend().tune();
  for (std::size_t size = std::max<std::size_t>(sizes_min, 65536);
       size <= std::min<std::size_t>(sizes_max, mpi::mpi_backend::max_long_bytes); size *= 4) {
    std::vector<member> m;
    for (const auto& [name, protocol] : choices) {
      member x;
      x.name = std::string("bulk_get exchange, ") + name;
      x.bytes_per_event = static_cast<double>(size);
      auto gets = [size, seg](int from, long iters) {
        for (long i = 0; i < iters; ++i)
          splitc::bulk_get(local.data() + (i % window) * size,
                           splitc::toglobal(from, static_cast<void*>(seg + (i % window) * size)),
                           size);
        splitc::sync();
      };
      x.lead = [gets, protocol](long iters) {
        backend().tune().long_mode = protocol;
        const u64 before = partner_done;
        const auto t0 = now_ns();
        gets(1, iters);
        while (partner_done == before) splitc::poll();  // and the partner's gets are answered
        const double t = static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
        stop_others();
        return t;
      };
      x.partner = [gets, protocol](long iters) {
        backend().tune().long_mode = protocol;
        gets(0, iters);
        splitc::am_request(0, h_done);
        serve();
      };
      x.others = [](long) { serve(); };
      m.push_back(x);
    }
    run_size(m, size);
  }
  backend().tune() = saved;
}

void collective_section() {
  if (me == 0) {
    std::printf("\n### Collectives (%d processors; µs per call)\n\n", P);
    std::printf("| %-40s | %10s | %10s | %7s |\n", "operation", "median", "min", "× ref");
    std::printf("|%s|%s|%s|%s|\n", std::string(42, '-').c_str(), std::string(12, '-').c_str(),
                std::string(12, '-').c_str(), std::string(9, '-').c_str());
  }
  auto everyone = [](std::string name, std::function<void(long)> body) {
    member m;
    m.name = std::move(name);
    m.lead = [body](long iters) {
      const auto t0 = now_ns();
      body(iters);
      return static_cast<double>(now_ns() - t0) / static_cast<double>(iters);
    };
    m.partner = body;
    m.others = body;
    return m;
  };
  const mpi::tuning saved = backend().tune();
  std::vector<member> m;
  m.push_back(everyone("raw MPI_Barrier", [](long n) {
    for (long i = 0; i < n; ++i) MPI_Barrier(MPI_COMM_WORLD);
  }));
  m.push_back(everyone("splitc barrier (core: mailbox dissemination)", [](long n) {
    for (long i = 0; i < n; ++i) splitc::barrier();
  }));
  // What the backend's barrier used to offer as an alternative (it went:
  // docs/mpi.md), kept here as bare MPI so that the choice stays measured.
  m.push_back(everyone("MPI_Ibarrier polled with splitc::poll", [](long n) {
    for (long i = 0; i < n; ++i) {
      MPI_Request q;
      MPI_Ibarrier(MPI_COMM_WORLD, &q);
      int done = 0;
      for (;;) {
        MPI_Test(&q, &done, MPI_STATUS_IGNORE);
        if (done) break;
        splitc::poll();
      }
    }
  }));
  m.push_back(everyone("backend barrier: dissemination packets", [](long n) {
    for (long i = 0; i < n; ++i) backend().bootstrap_barrier(splitc::detail::ctx().sink());
  }));
  m.push_back(everyone("raw MPI_Allreduce (8 B sum)", [](long n) {
    long v = me, r = 0;
    for (long i = 0; i < n; ++i) MPI_Allreduce(&v, &r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  }));
  m.push_back(everyone("MPI_Iallreduce polled with splitc::poll", [](long n) {
    long v = me, r = 0;
    for (long i = 0; i < n; ++i) {
      MPI_Request q;
      MPI_Iallreduce(&v, &r, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &q);
      int done = 0;
      for (;;) {
        MPI_Test(&q, &done, MPI_STATUS_IGNORE);
        if (done) break;
        splitc::poll();
      }
    }
  }));
  m.push_back(everyone("splitc reduce_to_all (8 B sum)", [](long n) {
    for (long i = 0; i < n; ++i) {
      volatile long r = splitc::reduce_to_all(static_cast<long>(me), splitc::ops::add{});
      (void)r;
    }
  }));
  m.push_back(everyone("raw MPI_Bcast (8 B)", [](long n) {
    long v = 1;
    for (long i = 0; i < n; ++i) MPI_Bcast(&v, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  }));
  m.push_back(everyone("splitc broadcast (8 B)", [](long n) {
    for (long i = 0; i < n; ++i) {
      volatile long r = splitc::broadcast(static_cast<long>(i), 0);
      (void)r;
    }
  }));
  auto s = compare(m, quick ? 300 : 2000);
  backend().tune() = saved;
  print_latency_rows(m, s, 0);
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  me = splitc::myproc();
  P = splitc::procs();
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--quick") {
      quick = true;
      runs = 5;
    } else if (a == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (a == "--sizes-min" && i + 1 < argc) {
      sizes_min = std::strtoull(argv[++i], nullptr, 0);
    } else if (a == "--sizes-max" && i + 1 < argc) {
      sizes_max = std::strtoull(argv[++i], nullptr, 0);
    } else if (a == "--rows" && i + 1 < argc) {
      rows_filter = argv[++i];
    } else if (a == "--stat" && i + 1 < argc) {
      latency_stat = std::string_view(argv[++i]) == "mean" ? statistic::mean
                                                           : statistic::batch_median;
    } else if (a == "--only" && i + 1 < argc) {
      ++i;  // handled below
    }
  }
  std::string only;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string_view(argv[i]) == "--only") only = argv[i + 1];
  h_ping = splitc::register_handler(on_ping);
  h_pong = splitc::register_handler(on_pong);
  h_stop = splitc::register_handler(on_stop);
  h_done = splitc::register_handler(on_done);
  splitc::barrier();
  if (P < 2) {
    if (me == 0) std::printf("splitc-mpi-bench needs at least 2 processes\n");
    splitc::finalize();
    return 0;
  }
  raw_buffer.assign(sizes_max * window, 0);
  MPI_Comm_dup(MPI_COMM_WORLD, &ring_comm);
  MPI_Win_allocate(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &raw_window_base, &raw_window);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, raw_window);
  MPI_Win_create(created_window_memory.data(), static_cast<MPI_Aint>(created_window_memory.size()),
                 1, MPI_INFO_NULL, MPI_COMM_WORLD, &created_window);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, created_window);
  const double cache_line = cache_line_roundtrip();

  if (me == 0) {
    const auto& t = backend().tune();
    std::printf("## splitc-mpi-bench: backend %s, %d processes\n\n", splitc::backend_name(), P);
    std::printf("- MPI: %s\n", backend().library_version().c_str());
    std::printf("- backend: packet %zu B, %d credits, max_long %zu B, long protocol %d "
                "(rendezvous from %zu B, RMA from %zu B), window %s, "
                "MPI_Send up to %zu B\n",
                t.packet_bytes, t.credits, mpi::mpi_backend::max_long_bytes,
                static_cast<int>(t.long_mode), t.rendezvous_min, t.rma_min,
                backend().has_window() ? "yes" : "no", t.blocking_send_max);
    std::printf("- runs per row: %d (median reported; ratios are medians of per-run ratios); "
                "round trips per run: %s\n",
                runs,
                latency_stat == statistic::mean ? "mean" : "median of batches of 16");
    std::fflush(stdout);
  }
  if (only.empty() || only == "latency") latency_section(cache_line);
  if (only == "nxam") nxam_section(cache_line);
  if (only.empty() || only == "bandwidth") bandwidth_section();
  if (only.empty() || only == "protocols") protocol_section();
  if (only.empty() || only == "exchange") exchange_section();
  if (only.empty() || only == "collectives") collective_section();

  MPI_Comm_free(&ring_comm);
  MPI_Win_unlock_all(created_window);
  MPI_Win_free(&created_window);
  MPI_Win_unlock_all(raw_window);
  MPI_Win_free(&raw_window);
  splitc::finalize();
  return 0;
}
