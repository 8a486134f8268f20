// Table 7: the cost of Split-C's pointer operations on processor 0 — indexing
// a spread array (sptr[i]), incrementing a spread pointer (sptr++), and one
// iteration of for_my_1d / for_my_2d — next to the plain C operation each
// replaces (pointer index, pointer increment, a strided loop), measured in
// the same interleaved group. No communication; MPI has no equivalent.
#include "../format.hpp"
#include "../parts.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace bench {
namespace part_table7_impl {
namespace {

const char* const part = "table7";
constexpr std::size_t n = 4096;

std::vector<row> measure(context& ctx, splitc::spread_ptr<double> array, double* plain) {
  const int P = splitc::procs();
  const int me = splitc::myproc();
  auto one = [](std::string key, run_fn f, double divide = 1) {
    member m;
    m.key = std::move(key);
    m.run = std::move(f);
    m.divide = divide;
    return m;
  };
  splitc::spread_ptr<double> walker = array;
  double* pwalker = plain;
  const double per_loop = 64.0 / P;  // iterations of the loop body per event (64 elements)
  member ms[] = {
      one("sptr_index", timed_loop([array](long i) {
            const splitc::spread_ptr<double> e = array + (i & (n - 1));
            escape(e);
          }, nothing, nothing)),
      one("c_pointer_index", timed_loop([plain](long i) {
            double* e = plain + (i & (n - 1));
            escape(e);
          }, nothing, nothing)),
      one("sptr_increment", timed_loop([&walker](long) {
            ++walker;
            escape(walker);
          }, nothing, nothing)),
      one("c_pointer_increment", timed_loop([&pwalker](long) {
            ++pwalker;
            escape(pwalker);
          }, nothing, nothing)),
      one("for_my_1d_iteration", timed_loop([](long) {
            double sum = 0;
            for_my_1d(i, 64) sum += static_cast<double>(i);
            escape(sum);
          }, nothing, nothing), per_loop),
      one("c_strided_loop_iteration", timed_loop([me, P](long) {
            double sum = 0;
            for (int i = me; i < 64; i += P) {
              sum += static_cast<double>(i);
              clobber();
            }
            escape(sum);
          }, nothing, nothing), per_loop),
      one("for_my_2d_iteration", timed_loop([](long) {
            double sum = 0;
            for_my_2d(i, j, 8, 8) sum += static_cast<double>(i * 8 + j);
            escape(sum);
          }, nothing, nothing), per_loop),
      one("c_strided_2d_loop_iteration", timed_loop([me, P](long) {
            double sum = 0;
            for (int k = me; k < 64; k += P) {
              const int i = k / 8, j = k % 8;
              sum += static_cast<double>(i * 8 + j);
              clobber();
            }
            escape(sum);
          }, nothing, nothing), per_loop),
  };
  std::vector<member*> group;
  for (member& m : ms) group.push_back(&m);
  ctx.progress(part, "pointer operations");
  run_group(group, ctx.pol);
  std::vector<row> rows;
  for (std::size_t k = 0; k < std::size(ms); k += 2) {
    const member& s = ms[k];
    const member& c = ms[k + 1];
    rows.push_back(row{.part = part, .name = c.key, .impl = "machine", .size = 8,
                       .value = c.result.mean, .unit = "ns", .reference = c.key,
                       .reference_value = c.result.mean, .ratio = 1, .stats = c.result});
    rows.push_back(row{.part = part, .name = s.key, .impl = "splitc", .size = 8,
                       .value = s.result.mean, .unit = "ns", .reference = c.key,
                       .reference_value = c.result.mean, .ratio = s.result.mean / c.result.mean,
                       .stats = s.result});
  }
  return rows;
}

void print(const context& ctx) {
  fmt::print("\nTable 7: Split-C pointer operations on processor 0 (ns), next to the plain C "
             "operation each replaces (same interleaved group)\n");
  fmt::print("{}{}{}{}{}{}\n", pad("operation", 28, false), pad("splitc", 9), pad("±CI", 8),
             pad("plain C", 28), pad("time", 9), pad("ratio", 8));
  const char* const names[][3] = {
      {"sptr_index", "sptr[i]", "c_pointer_index"},
      {"sptr_increment", "sptr++", "c_pointer_increment"},
      {"for_my_1d_iteration", "for_my_1d, per iteration", "c_strided_loop_iteration"},
      {"for_my_2d_iteration", "for_my_2d, per iteration", "c_strided_2d_loop_iteration"},
  };
  const char* const c_labels[] = {"p + i", "p++", "for (i = me; ...; i += P)",
                                  "the same, 2-d indices"};
  for (std::size_t k = 0; k < std::size(names); ++k) {
    const row* s = ctx.find(part, names[k][0]);
    const row* c = ctx.find(part, names[k][2], 8, "machine");
    if (s == nullptr) continue;
    fmt::print("{}{}{}{}{}{}\n", pad(names[k][1], 28, false), pad(format_ns(s->value), 9),
               pad(format_ci(s->stats), 8), pad(c_labels[k], 28),
               pad(c ? format_ns(c->value) : "—", 9),
               pad(c && c->value > 0.1 && s->value > 0.1 ? format_ratio(s->ratio) : "—", 8));
  }
  fmt::print("  (times below ~0.1 ns are within the loop's own resolution: the operation "
             "overlaps with the loop; no ratio then)\n");
  std::fflush(stdout);
}

}  // namespace
}  // namespace part_table7_impl

void part_table7(context& ctx) {
  using namespace part_table7_impl;
  if (!local_work_is_timed()) {
    if (splitc::myproc() == 0) print_not_applicable("Table 7 (pointer operations)");
    return;
  }
  const auto P = static_cast<std::size_t>(splitc::procs());
  splitc::spread_ptr<double> array = splitc::all_spread_malloc<double>(n * P);
  if (splitc::myproc() == 0) {
    std::vector<double> plain(n * P + 1);
    std::vector<std::vector<row>> rounds;
    for (int r = 0; r < ctx.rounds; ++r) rounds.push_back(measure(ctx, array, plain.data()));
    for (row& r : median_over_rounds(rounds)) ctx.add(std::move(r));
    ctx.progress(part, "done");
    print(ctx);
  }
  splitc::barrier();
  splitc::all_spread_free(array);
}

}  // namespace bench
