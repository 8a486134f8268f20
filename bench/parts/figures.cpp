// Figures 10–15: bandwidth against transfer size, processor 0 → 1. Figure 10:
// active messages (medium, long) and bulk put/get to memory outside the
// segments (fragmented into long AMs); Figures 11–15: bulk store, get, put,
// read, write to a peer's spread heap. Each size is one interleaved group with
// single-thread memcpy of the same size (the machine's limit), followed by
// Open MPI's equivalent at that size (windowed Isend/Irecv, MPI_Put/MPI_Get +
// flush). One table per family, one plot per figure.
#include "../format.hpp"
#include "../parts.hpp"
#include "../plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace bench {
namespace part_figures_impl {
namespace {

// One medium or long message per step: the layer's own size where it has the
// form (so the figure measures native messages, as before), else the core's
// composed limit (the CM-5's max_medium is 0: stepping by it never ended).
constexpr auto& layer_caps = splitc::active_backend::caps;
constexpr std::size_t medium_max =
    layer_caps.max_medium != 0 ? layer_caps.max_medium : splitc::am_medium_limit;
constexpr std::size_t long_max =
    layer_caps.max_long != 0 ? layer_caps.max_long : splitc::am_long_limit;

struct figure {
  const char* id;
  const char* title;
  std::vector<const char*> splitc;  ///< members
  const char* mpi;                  ///< Open MPI's equivalent
  const char* mpi_label;
};
const std::vector<figure>& figures() {
  static const std::vector<figure> v = {
      {"fig10", "Figure 10: active messages and transfers outside the segments",
       {"am_medium", "am_long", "bulk_put_malloc", "bulk_get_malloc"}, "mpi_bw_send",
       "Open MPI Isend/Irecv (window)"},
      {"fig11", "Figure 11: bulk_store", {"bulk_store"}, "mpi_bw_put", "Open MPI Put+flush"},
      {"fig12", "Figure 12: bulk_get", {"bulk_get"}, "mpi_bw_get", "Open MPI Get+flush"},
      {"fig13", "Figure 13: bulk_put", {"bulk_put"}, "mpi_bw_put", "Open MPI Put+flush"},
      {"fig14", "Figure 14: bulk_read", {"bulk_read"}, "mpi_bw_get", "Open MPI Get+flush"},
      {"fig15", "Figure 15: bulk_write", {"bulk_write"}, "mpi_bw_put", "Open MPI Put+flush"},
  };
  return v;
}

std::vector<std::size_t> sizes(const config& cfg) {
  std::vector<std::size_t> v;
  if (cfg.smoke) {
    for (std::size_t s : {std::size_t{8}, 4 * KiB, 256 * KiB})
      if (s <= cfg.max_size) v.push_back(s);
    return v;
  }
  const std::size_t step = cfg.quick ? 4 : 2;
  for (std::size_t s = 8; s <= cfg.max_size; s *= step) v.push_back(s);
  if (v.empty() || v.back() != cfg.max_size) v.push_back(cfg.max_size);
  return v;
}

member make(std::string key, run_fn run) {
  member m;
  m.key = std::move(key);
  m.min_iters = 1;
  m.max_iters = 1L << 22;
  m.run = std::move(run);
  return m;
}

member bandwidth_member(const std::string& key, const targets& t, std::size_t s) {
  auto sync_all = [](long) { splitc::sync(); };
  if (key == "memcpy")
    return make(key, timed_loop([t, s](long) { std::memcpy(t.dst, t.src, s); }, nothing, nothing));
  if (key == "bulk_store")
    return make(key, timed_loop([t, s](long) { splitc::bulk_store(t.heap_bulk, t.src, s); },
                                [s](long n) {
                                  command(command_kind::store_sync, static_cast<u64>(n) * s);
                                  wait_done();
                                },
                                nothing));
  if (key == "bulk_get")
    return make(key, timed_loop([t, s](long) { splitc::bulk_get(t.dst, t.heap_bulk, s); },
                                sync_all, nothing));
  if (key == "bulk_put")
    return make(key, timed_loop([t, s](long) { splitc::bulk_put(t.heap_bulk, t.src, s); },
                                sync_all, nothing));
  if (key == "bulk_read")
    return make(key, timed_loop([t, s](long) { splitc::bulk_read(t.dst, t.heap_bulk, s); },
                                nothing, nothing));
  if (key == "bulk_write")
    return make(key, timed_loop([t, s](long) { splitc::bulk_write(t.heap_bulk, t.src, s); },
                                nothing, nothing));
  if (key == "am_medium")
    return make(key, timed_loop(
                         [t, s](long) {
                           for (std::size_t off = 0; off < s; off += medium_max)
                             splitc::am_request_medium(1, H.medium, t.src + off,
                                                       std::min(medium_max, s - off));
                         },
                         [](long) { flush(); }, nothing));
  if (key == "am_long")
    return make(key, timed_loop(
                         [t, s](long) {
                           for (std::size_t off = 0; off < s; off += long_max)
                             splitc::am_request_long(1, H.longm, t.src + off,
                                                     std::min(long_max, s - off),
                                                     t.peer_bulk_local + off);
                         },
                         [](long) { flush(); }, nothing));
  if (key == "bulk_put_malloc")
    return make(key, timed_loop([t, s](long) { splitc::bulk_put(t.outside_bulk, t.src, s); },
                                sync_all, nothing));
  // bulk_get_malloc
  return make(key, timed_loop([t, s](long) { splitc::bulk_get(t.dst, t.outside_bulk, s); },
                              sync_all, nothing));
}

/// One round at one size: memcpy and the selected transfers interleaved, then
/// Open MPI's equivalents.
std::vector<row> measure_size(context& ctx, std::size_t s, const std::vector<const figure*>& figs) {
  std::vector<member> ms;
  const bool with_memcpy = local_work_is_timed();  // no virtual time on the sim: no row
  if (with_memcpy) ms.push_back(bandwidth_member("memcpy", ctx.t, s));
  std::vector<std::string> mpi_ops;
  for (const figure* f : figs) {
    for (const char* k : f->splitc) ms.push_back(bandwidth_member(k, ctx.t, s));
    const std::string op = std::string(f->mpi).substr(4);  // "bw_put", ...
    if (std::find(mpi_ops.begin(), mpi_ops.end(), op) == mpi_ops.end()) mpi_ops.push_back(op);
  }
  std::vector<member*> all;
  for (member& m : ms) all.push_back(&m);
  run_group(all, ctx.pol);

  std::vector<row> rows;
  const double ref = with_memcpy ? mb_per_s(s, ms[0].result.mean) : NAN;
  auto add = [&](std::string part, std::string name, std::string impl, double ns, summary st) {
    row r;
    r.part = std::move(part);
    r.name = std::move(name);
    r.impl = std::move(impl);
    r.size = s;
    r.unit = "MB/s";
    r.value = mb_per_s(s, ns);
    r.stats = st;
    r.reference = with_memcpy ? "memcpy" : "";
    r.reference_value = ref;
    r.ratio = r.value / ref;
    rows.push_back(std::move(r));
  };
  if (with_memcpy) add("figures", "memcpy", "machine", ms[0].result.mean, ms[0].result);
  std::size_t k = with_memcpy ? 1 : 0;
  for (const figure* f : figs)
    for (std::size_t j = 0; j < f->splitc.size(); ++j, ++k)
      add(f->id, ms[k].key, "splitc", ms[k].result.mean, ms[k].result);

  std::vector<mpi_command> cmds;
  for (const std::string& op : mpi_ops)
    cmds.push_back({op, s, op == "bw_send" ? ctx.mpi_window_iters(s) : ctx.mpi_iters(s),
                    ctx.mpi_runs()});
  for (const mpi_result& m : ctx.mpi_round(cmds, true)) {
    summary st;
    st.mean = m.ns;
    st.ci_rel = m.ci_rel;
    st.kept = m.kept;
    st.converged = true;
    add("figures", "mpi_" + m.op, "mpi", m.ns, st);
  }
  return rows;
}

void print_table(const context& ctx, const std::vector<std::size_t>& sz,
                 const std::vector<const figure*>& figs, const std::string& title) {
  if (figs.empty()) return;
  std::vector<std::pair<std::string, std::string>> cols;  // (part, name) of splitc columns
  std::vector<std::string> mpi_cols;
  for (const figure* f : figs) {
    for (const char* k : f->splitc) cols.emplace_back(f->id, k);
    if (!virtual_clock && std::find(mpi_cols.begin(), mpi_cols.end(), f->mpi) == mpi_cols.end())
      mpi_cols.push_back(f->mpi);
  }
  fmt::print("\n{}\n", title);
  std::string h = pad("size", 8) + pad("memcpy", 9);
  for (const auto& c : cols) h += pad(c.second, 17);
  for (const auto& c : mpi_cols) h += pad(c, 17);
  fmt::print("{}\n", h);
  for (std::size_t s : sz) {
    const row* m = ctx.find("figures", "memcpy", s, "machine");
    std::string text = pad(format_size(s), 8) + pad(m ? format_mbs(m->value) : "—", 9);
    auto cell = [](const row* r) {
      if (r == nullptr) return std::string("n/a");
      const std::string ratio =
          std::isfinite(r->ratio) ? fmt::format(" ({})", format_ratio(r->ratio)) : "";
      return fmt::format("{}{}{}", format_mbs(r->value), ratio, r->stats.converged ? "" : "*");
    };
    for (const auto& c : cols) text += pad(cell(ctx.find(c.first, c.second, s)), 17);
    for (const auto& c : mpi_cols) text += pad(cell(ctx.find("figures", c, s, "mpi")), 17);
    fmt::print("{}\n", text);
  }
  std::fflush(stdout);
}

void plot(context& ctx, const std::vector<std::size_t>& sz, const figure& f) {
  std::vector<series> ss;
  auto collect = [&](const std::string& part, const std::string& name, const std::string& impl,
                     std::string label) {
    series s{std::move(label), {}};
    for (std::size_t n : sz)
      if (const row* r = ctx.find(part, name, n, impl))
        s.points.emplace_back(static_cast<double>(n), r->value);
    if (!s.points.empty()) ss.push_back(std::move(s));
  };
  for (const char* k : f.splitc) collect(f.id, k, "splitc", fmt::format("splitc {}", k));
  collect("figures", f.mpi, "mpi", f.mpi_label);
  collect("figures", "memcpy", "machine", "memcpy (one thread, the machine's limit)");
  line_plot(ctx, f.id,
            fmt::format("{} ({} backend, {} processes)", f.title, splitc::backend_name(),
                        splitc::procs()),
            "transfer size (bytes)", "bandwidth (MB/s, 10^6 B/s)", ss);
}

}  // namespace
}  // namespace part_figures_impl

void part_figures(context& ctx) {
  using namespace part_figures_impl;
  std::vector<const figure*> figs;
  for (const figure& f : figures())
    if (ctx.selected(f.id)) figs.push_back(&f);
  if (figs.empty()) return;
  served_part([&] {
    const auto sz = sizes(ctx.cfg);
    for (std::size_t i = 0; i < sz.size(); ++i) {
      std::vector<std::vector<row>> rounds;
      for (int r = 0; r < ctx.rounds; ++r) {
        ctx.progress("figures", fmt::format("{} ({}/{}){}", format_size(sz[i]), i + 1, sz.size(),
                                            ctx.rounds > 1 ? fmt::format(", round {}/{}", r + 1,
                                                                         ctx.rounds)
                                                           : ""));
        rounds.push_back(measure_size(ctx, sz[i], figs));
      }
      for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    }
    ctx.progress("figures", "done");
    fmt::print("\nFigures 10–15: bandwidth, MB/s (10^6 B/s), processor 0 → 1; (ratio to "
               "single-thread memcpy of the same size, same run)\n"
               "  a transfer of n bytes is repeated; get/put end with sync(), store with the "
               "receiver's store_sync, AM with a flushing round trip (all timed);\n"
               "  Open MPI: MPI_Put/MPI_Get of n bytes + MPI_Win_flush, or a window of "
               "Isend/Irecv + acknowledgement, measured after each size\n");
    std::vector<const figure*> bulk, am;
    for (const figure* f : figs) (std::string(f->id) == "fig10" ? am : bulk).push_back(f);
    if (virtual_clock)
      fmt::print("  on the sim: virtual time; no memcpy column unless SPLITC_SIM_TIME=measured, "
                 "no Open MPI; the seeds publish these figures as plots without numbers\n");
    print_table(ctx, sz, bulk,
                "Figures 11–15: the five bulk operations to a peer's spread heap");
    print_table(ctx, sz, am,
                fmt::format("Figure 10: AM medium (handler copies the payload out), AM long "
                            "into the peer's spread heap, bulk_put/bulk_get to a malloc'd "
                            "buffer\n  outside the segments (fragmented into long AMs of {} KiB)",
                            long_max / KiB));
    fmt::print("(* = 95% CI above target when the time budget ran out)\n");
    std::fflush(stdout);
    for (const figure* f : figs) plot(ctx, sz, *f);
  });
}

}  // namespace bench
