// The engine's C interface for emulated vendor layers (include/splitc/sim_engine.h):
// each call checks that it runs on a processor's fiber, then asks the world.
#include <splitc/sim_engine.h>

#include <splitc/sim_engine/world.hpp>

#include <splitc/port/fail.hpp>

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using splitc::backends::sim::engine_fail;
using splitc::backends::sim::world;

namespace {

world& running_world(const char* call) {
  world* w = world::current();
  if (w == nullptr || w->running() < 0)
    engine_fail("{} called outside a processor of a simulated job (call splitc_sim_enter first)",
                         call);
  return *w;
}

/// The program's arguments, for the job that splitc_sim_enter starts from a
/// call deep inside an emulated layer (which never saw argv).
std::vector<std::string> command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> arguments;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    arguments.push_back(all.substr(at, end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return arguments;
}

}  // namespace

extern "C" {

void splitc_sim_enter(void) {
  if (splitc_sim_in_job()) return;
  if (world::current() != nullptr)
    engine_fail("splitc_sim_enter called by the scheduler, outside every processor");
  std::vector<std::string> arguments = command_line();
  std::vector<char*> argv;
  for (auto& a : arguments) argv.push_back(a.data());
  argv.push_back(nullptr);
  world::run_job_and_exit(static_cast<int>(arguments.size()), argv.data());
}

int splitc_sim_in_job(void) {
  const world* w = world::current();
  return w != nullptr && w->running() >= 0;
}

int splitc_sim_self(void) { return running_world("splitc_sim_self").running(); }
int splitc_sim_procs(void) { return running_world("splitc_sim_procs").procs(); }

int splitc_sim_channel(const char* name, unsigned flags) {
  return running_world("splitc_sim_channel")
      .open_channel(name, (flags & SPLITC_SIM_ORDERED) != 0, (flags & SPLITC_SIM_UNRELIABLE) != 0);
}

namespace {
void send_packet(const char* call, int channel, int to, const void* packet, size_t len,
                 size_t charged_bytes, bool stream_data = false) {
  world& w = running_world(call);
  if (to < 0 || to >= w.procs())
    engine_fail("packet to processor {}: no such processor (the job has {})", to,
                         w.procs());
  if (len > SPLITC_SIM_MAX_PACKET)
    engine_fail("a packet of {} bytes is longer than the engine carries ({})", len,
                         static_cast<int>(SPLITC_SIM_MAX_PACKET));
  w.send_packet(channel, to, packet, len, charged_bytes, stream_data);
}
}  // namespace

void splitc_sim_send(int channel, int to, const void* packet, size_t len) {
  send_packet("splitc_sim_send", channel, to, packet, len, len);
}

void splitc_sim_send_short(int channel, int to, const void* packet, size_t len) {
  send_packet("splitc_sim_send_short", channel, to, packet, len, 0);
}

void splitc_sim_send_charged(int channel, int to, const void* packet, size_t len,
                             size_t charged_bytes) {
  if (charged_bytes > len)
    engine_fail("splitc_sim_send_charged: {} bytes charged of a {}-byte packet", charged_bytes, len);
  send_packet("splitc_sim_send_charged", channel, to, packet, len, charged_bytes);
}

void splitc_sim_send_stream(int channel, int to, const void* packet, size_t len,
                            size_t data_bytes) {
  if (data_bytes > len)
    engine_fail("splitc_sim_send_stream: {} bytes of data in a {}-byte packet", data_bytes, len);
  send_packet("splitc_sim_send_stream", channel, to, packet, len, data_bytes, true);
}

long splitc_sim_receive(int channel, int* source, void* buf, size_t cap) {
  world& w = running_world("splitc_sim_receive");
  splitc::backends::sim::in_flight m{};
  if (!w.receive_packet(channel, m)) return -1;
  if (m.payload.size() > cap)
    engine_fail("a packet of {} bytes from processor {} does not fit the {} bytes "
                         "its receiver gave",
                         m.payload.size(), m.source, cap);
  if (!m.payload.empty()) std::memcpy(buf, m.payload.data(), m.payload.size());
  if (source != nullptr) *source = m.source;
  return static_cast<long>(m.payload.size());
}

void splitc_sim_wait(const char* what) { running_world("splitc_sim_wait").wait_any(what); }

void splitc_sim_wake(int proc, double at_ns) { running_world("splitc_sim_wake").wake(proc, at_ns); }

double splitc_sim_now_ns(void) {
  world& w = running_world("splitc_sim_now_ns");
  return w.clock_ns(w.running());
}

double splitc_sim_timer_ns(void) { return running_world("splitc_sim_timer_ns").read_clock_ns(); }

void splitc_sim_charge_ns(double ns) {
  if (ns > 0) running_world("splitc_sim_charge_ns").charge(ns);
}

void splitc_sim_exchange(const void* mine, size_t len, void* all, double cost_ns) {
  running_world("splitc_sim_exchange").exchange(mine, len, all, cost_ns);
}

double splitc_sim_collective_ns(const char* operation, double layer_ns) {
  using namespace splitc::backends::sim;
  const machine_model& m = running_world("splitc_sim_collective_ns").machine();
  for (std::size_t i = 0; i < collective_operations.size(); ++i)
    if (collective_operations[i] == operation) return m.collective_ns[i].value_or(layer_ns);
  engine_fail("splitc_sim_collective_ns: no collective operation \"{}\" (barrier, broadcast, "
              "reduce, scan)", operation);
}

void* splitc_sim_segment(size_t* size) {
  world& w = running_world("splitc_sim_segment");
  const splitc::segment_info s = w.segments().segment(w.running());
  if (size != nullptr) *size = s.size;
  return s.base;
}

void splitc_sim_discard(void* at, size_t len) {
  world& w = running_world("splitc_sim_discard");
  w.segments().discard(w.running(), at, len);
}

void splitc_sim_segment_places(void** base, size_t* stride) {
  const splitc::segments_apart places = running_world("splitc_sim_segment_places").segments().places();
  *base = reinterpret_cast<void*>(places.base);
  *stride = places.stride;
}

void splitc_sim_put(int to, size_t offset, const void* src, size_t len) {
  running_world("splitc_sim_put").put(to, offset, src, len);
}

void splitc_sim_get(int from, size_t offset, void* dst, size_t len) {
  running_world("splitc_sim_get").get(from, offset, dst, len);
}

void splitc_sim_land_puts(void) { running_world("splitc_sim_land_puts").land_puts(); }

void splitc_sim_set_switch_hooks(const splitc_sim_switch_hooks* hooks) {
  world::switch_hooks = hooks != nullptr ? *hooks : splitc_sim_switch_hooks{};
}

void splitc_sim_fail(const char* layer, const char* message) {
  const world* w = world::current();
  std::fflush(stdout);
  const std::string line =
      w != nullptr && w->running() >= 0
          ? fmt::format("splitc: processor {} of {}: {}: {}\n", w->running(), w->procs(), layer, message)
          : fmt::format("splitc: {}: {}\n", layer, message);
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, line.data(), line.size());
  _exit(splitc::error_exit_status);
}

}  // extern "C"
