// Every single-value operation x 8 element types x local/remote x heap/stack/static/malloc, and
// values whose bits a typed copy could change.
#include "harness.hpp"
#include "value_types.hpp"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace {

using testvals::make_value;
using testvals::same;
using testvals::type_name;

constexpr int kMaxProcs = 8;
constexpr int kPerWriter = 3;  // elements each processor writes into each target area
constexpr int kSlots = kMaxProcs * kPerWriter;

enum target { heap, stack, statics, malloced };
const char* const target_names[] = {"spread heap", "stack", "static data", "malloc memory"};

// Static data: at the same address on every processor (splitc-run disables ASLR), except where
// processors share one process, where each has its own at an address of its own.
template <class T>
splitc::per_processor<std::array<T, kSlots>> g_static_area;

// Explicit store counters in static data (harness.hpp: in the segment where processors share
// one process).
harness::static_counter g_static_received{(1 << 20) + 64};
splitc::per_processor<splitc::counter> g_sent;
/// An explicit store counter in the spread heap (constructed by main).
splitc::counter* heap_counter() {
  return reinterpret_cast<splitc::counter*>(harness::heap() + (1 << 20));
}

/// The processors `w` operates on: itself, both neighbours and the one half-way round
/// (everyone when P <= 4); enough for every pair distance without P*P round trips at P = 7.
std::vector<int> targets_of(int w) {
  const int P = splitc::procs();
  std::vector<int> t;
  for (int q : {(w + 1) % P, (w + P - 1) % P, (w + P / 2) % P, w}) {
    bool seen = false;
    for (int x : t) seen = seen || x == q;
    if (!seen) t.push_back(q);
  }
  if (P <= 4) {
    t.clear();
    for (int k = 1; k <= P; ++k) t.push_back((w + k) % P);
  }
  return t;
}

bool writes_to(int w, int q) {
  for (int x : targets_of(w))
    if (x == q) return true;
  return false;
}

template <class T>
T value(int op, target t, int writer, int owner, int i) {
  const std::uint64_t seed =
      ((((static_cast<std::uint64_t>(op) * 4 + t) * kMaxProcs + writer) * kMaxProcs + owner) *
           kPerWriter +
       i) *
          8 +
      sizeof(T) % 8;
  return make_value<T>(seed);
}

template <class T>
class tester {
 public:
  tester(target t, T* mine) : t_(t), mine_(mine) {
    where_ = harness::exchange(mine);
    if (t == heap || (t == statics && !harness::shared_process)) {
      for (int q = 0; q < P; ++q)
        CHECK_MSG(splitc::local_copy(where_[q]) == mine, "{} of processor {} is at {}, here at {}", target_names[t], q,
                  static_cast<void*>(where_[q]), static_cast<void*>(mine));
    }
  }

  void run_all() {
    // ---- push: every processor writes its slot in every processor's area (itself included).
    // Element i uses form i % 3, so each form meets every target, local and remote.
    push("write / *gp = v / gp[i] = v",
         [](auto g, const T& v, int i) {
           if (i % 3 == 0) {
             splitc::write(g, v);
             // A write is complete when it returns: a read issued after it sees it.
             CHECK_MSG(same(splitc::read(g), v), "read right after write on processor {}",
                       g.proc());
           }
           else if (i % 3 == 1) *g = v;
           else (g + 1)[-1] = v;
         },
         [] {});
    {
      splitc::counter ctr;
      push("put / put(ctr), then sync and sync_ctr",
           [&](auto g, const T& v, int i) {
             if (i % 2 == 0) splitc::put(g, v);
             else splitc::put(g, v, ctr);
           },
           [&] {
             splitc::sync();
             splitc::sync_ctr(ctr);
           });
      push("put / put(ctr), then is_sync and is_sync_ctr",
           [&](auto g, const T& v, int i) {
             if (i % 2 == 0) splitc::put(g, v, ctr);
             else splitc::put(g, v);
           },
           [&] {
             while (!splitc::is_sync_ctr(ctr)) {
             }
             while (!splitc::is_sync()) {
             }
           });
    }
    int writers = 0;
    for (int w = 0; w < P; ++w) writers += writes_to(w, me);
    const std::int64_t incoming = static_cast<std::int64_t>(writers) * kPerWriter * sizeof(T);
    push_stored("store + store_sync", [](auto g, const T& v, int) { splitc::store(g, v); },
                [&] { splitc::store_sync(incoming); });
    push_stored("store + all_store_sync", [](auto g, const T& v, int) { splitc::store(g, v); },
                [] { splitc::all_store_sync(); });
    push_stored("store(static counters)",
                [](auto g, const T& v, int) {
                  splitc::store(g, v, g_static_received.get(), *g_sent);
                },
                [&] { splitc::store_sync(incoming, g_static_received.get(), *g_sent); });
    splitc::counter* const heap_ctr = heap_counter();
    push_stored("store(spread-heap counter)",
                [&](auto g, const T& v, int) { splitc::store(g, v, *heap_ctr, *g_sent); },
                [&] {
                  while (!splitc::is_store_sync(incoming, *heap_ctr, *g_sent)) {
                  }
                });
    CHECK(!splitc::is_store_sync(1));
    CHECK(!splitc::is_store_sync(1, g_static_received.get(), *g_sent));
    CHECK(!splitc::is_store_sync(1, *heap_ctr, *g_sent));

    // ---- pull: each owner fills its area, then everyone reads its slot on every processor
    pull("read / T x = *gp / T x = gp[i]",
         [](auto g, T* out, int i) {
           if (i % 3 == 0) *out = splitc::read(g);
           else if (i % 3 == 1) *out = *g;
           else *out = (g - 1)[1];
         },
         [] {});
    {
      splitc::counter ctr;
      pull("get / get(ctr), then sync and sync_ctr",
           [&](auto g, T* out, int i) {
             if (i % 2 == 0) splitc::get(out, g);
             else splitc::get(out, g, ctr);
           },
           [&] {
             splitc::sync_ctr(ctr);
             splitc::sync();
           });
      pull("get / get(ctr), then is_sync and is_sync_ctr",
           [&](auto g, T* out, int i) {
             if (i % 2 == 0) splitc::get(out, g, ctr);
             else splitc::get(out, g);
           },
           [&] {
             while (!splitc::is_sync()) {
             }
             while (!splitc::is_sync_ctr(ctr)) {
             }
           });
    }
  }

 private:
  splitc::global_ptr<T> at(int owner, int writer, int i) const {
    return splitc::toglobal(owner, where_[owner] + writer * kPerWriter + i);
  }

  void check_area(const char* what) {
    for (int w = 0; w < P; ++w)
      for (int i = 0; i < kPerWriter && writes_to(w, me); ++i)
        CHECK_MSG(same(mine_[w * kPerWriter + i], value<T>(op_, t_, w, me, i)),
                  "{} of {} into {}: element {} from processor {} is wrong", what, type_name<T>(),
                  target_names[t_], i, w);
  }

  template <class Issue>
  void issue_everywhere(Issue issue) {
    // Start with the right neighbour so that processors do not all hit processor 0 first.
    for (int q : targets_of(me)) {
      for (int i = 0; i < kPerWriter; ++i) issue(at(q, me, i), value<T>(op_, t_, me, q, i), i);
    }
  }

  /// Put-like operations: complete, barrier, then every owner checks its area.
  template <class Issue, class Complete>
  void push(const char* what, Issue issue, Complete complete) {
    ++op_;
    issue_everywhere(issue);
    complete();
    splitc::barrier();
    check_area(what);
    splitc::barrier();
  }

  /// Stores: the receiver's own completion (store_sync or all_store_sync) is enough.
  template <class Issue, class Complete>
  void push_stored(const char* what, Issue issue, Complete complete) {
    ++op_;
    issue_everywhere(issue);
    complete();
    check_area(what);
    splitc::barrier();
  }

  /// Get-like operations on areas their owners filled.
  template <class Fetch, class Complete>
  void pull(const char* what, Fetch fetch, Complete complete) {
    ++op_;
    for (int w = 0; w < P; ++w)
      for (int i = 0; i < kPerWriter; ++i) mine_[w * kPerWriter + i] = value<T>(op_, t_, w, me, i);
    splitc::barrier();
    std::vector<T> got(static_cast<std::size_t>(P * kPerWriter));
    for (int q : targets_of(me)) {
      for (int i = 0; i < kPerWriter; ++i) fetch(at(q, me, i), &got[q * kPerWriter + i], i);
    }
    complete();
    for (int q : targets_of(me))
      for (int i = 0; i < kPerWriter; ++i)
        CHECK_MSG(same(got[q * kPerWriter + i], value<T>(op_, t_, me, q, i)),
                  "{} of {} from {} of processor {}: element {} is wrong", what, type_name<T>(),
                  target_names[t_], q, i);
    splitc::barrier();
  }

  const int me = splitc::myproc();
  const int P = splitc::procs();
  target t_;
  T* mine_;
  std::vector<T*> where_;
  int op_ = 0;
};

template <class T>
[[gnu::noinline]] void on_the_stack() {
  T area[kSlots];
  tester<T>(stack, area).run_all();
}

template <class T>
void every_target() {
  tester<T>(heap, reinterpret_cast<T*>(harness::heap())).run_all();
  on_the_stack<T>();
  tester<T>(statics, g_static_area<T>->data()).run_all();
  T* mem = static_cast<T*>(std::malloc(sizeof(T) * kSlots));
  CHECK(mem != nullptr);
  tester<T>(malloced, mem).run_all();
  splitc::barrier();  // nobody uses it any more
  std::free(mem);
}

/// Compound assignment, increment and struct fields through a global pointer to the right
/// neighbour (one writer per cell: each is a read then a write, not an atomic operation).
struct cell {
  long count;
  int hits;
  double scale;
};

void through_the_proxy() {
  auto* mine = reinterpret_cast<cell*>(harness::heap() + (2 << 20));
  *mine = cell{10, 0, 1.0};
  splitc::barrier();
  const int me = splitc::myproc(), nprocs = splitc::procs();
  const splitc::global_ptr<cell> right = splitc::toglobal((me + 1) % nprocs, mine);
  right->*&cell::count += me + 1;
  CHECK((right->*&cell::count)++ == 10 + me + 1);
  ++*splitc::member_of(right, &cell::hits);
  (right->*&cell::scale) *= 2.5;
  CHECK(static_cast<cell>(*right).hits == 1);
  splitc::barrier();
  const int left = (me + nprocs - 1) % nprocs;
  CHECK(mine->count == 10 + left + 2);
  CHECK(mine->hits == 1);
  CHECK(mine->scale == 2.5);
  splitc::barrier();
}

/// Values whose bits a copy by the value's type could change (the core copies a scalar by a
/// load and a store of its type, global_memory.hpp's copy_in): signalling NaNs with payloads, a
/// pointer, an enumerator, a bool. Each processor puts and writes them into its right
/// neighbour's area, gets and reads them back, and compares bytes.
enum class colour : std::uint16_t { red = 1, blue = 0xbeef };
struct patterns {
  double snan_double;
  float snan_float;
  const void* pointer;
  colour hue;
  bool flag;
};

patterns patterns_of(int me) {
  patterns v{};
  const std::uint64_t d = 0x7ff0000000000001ULL + static_cast<std::uint64_t>(me);
  const std::uint32_t f = 0x7f800001U + static_cast<std::uint32_t>(me);
  std::memcpy(&v.snan_double, &d, sizeof d);
  std::memcpy(&v.snan_float, &f, sizeof f);
  // An address, not an object's: where processors share one process, each heap lies apart.
  v.pointer = reinterpret_cast<const void*>(std::uintptr_t{0x7f0000001008} + 4096u * me);
  v.hue = me % 2 == 0 ? colour::blue : colour::red;
  v.flag = me % 2 == 1;
  return v;
}

template <class T>
void check_bits(const T& got, const T& want, const char* what, int from) {
  CHECK_MSG(testvals::same(got, want), "{} from processor {}: bits changed in the copy", what,
            from);
}

void bit_patterns() {
  auto* mine = reinterpret_cast<patterns*>(harness::heap() + (3 << 20));
  *mine = patterns{};
  splitc::barrier();
  const int me = splitc::myproc(), nprocs = splitc::procs();
  const int right = (me + 1) % nprocs, left = (me + nprocs - 1) % nprocs;
  const patterns v = patterns_of(me);
  const splitc::global_ptr<patterns> there = splitc::toglobal(right, mine);
  splitc::put(splitc::member_of(there, &patterns::snan_double), v.snan_double);
  splitc::put(splitc::member_of(there, &patterns::snan_float), v.snan_float);
  splitc::sync();
  splitc::write(splitc::member_of(there, &patterns::pointer), v.pointer);
  splitc::write(splitc::member_of(there, &patterns::hue), v.hue);
  splitc::write(splitc::member_of(there, &patterns::flag), v.flag);
  splitc::barrier();
  const patterns w = patterns_of(left);
  check_bits(mine->snan_double, w.snan_double, "a signalling NaN (double) put", left);
  check_bits(mine->snan_float, w.snan_float, "a signalling NaN (float) put", left);
  check_bits(mine->pointer, w.pointer, "a pointer written", left);
  check_bits(mine->hue, w.hue, "an enumerator written", left);
  check_bits(mine->flag, w.flag, "a bool written", left);
  splitc::barrier();
  patterns got{};  // back from the right neighbour: what this processor put there
  splitc::get(&got.snan_double, splitc::member_of(there, &patterns::snan_double));
  splitc::get(&got.snan_float, splitc::member_of(there, &patterns::snan_float));
  splitc::get(&got.pointer, splitc::member_of(there, &patterns::pointer));
  splitc::sync();
  got.hue = splitc::read(splitc::member_of(there, &patterns::hue));
  got.flag = splitc::read(splitc::member_of(there, &patterns::flag));
  check_bits(got.snan_double, v.snan_double, "a signalling NaN (double) got", right);
  check_bits(got.snan_float, v.snan_float, "a signalling NaN (float) got", right);
  check_bits(got.pointer, v.pointer, "a pointer got", right);
  check_bits(got.hue, v.hue, "an enumerator read", right);
  check_bits(got.flag, v.flag, "a bool read", right);
  splitc::barrier();
}

}  // namespace

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  CHECK_MSG(splitc::procs() <= kMaxProcs, "this program runs on up to {} processors", kMaxProcs);
  // Constructed once, before the first barrier, so no store can reach it before it exists.
  new (heap_counter()) splitc::counter;
  g_static_received.get();
  every_target<char>();
  every_target<short>();
  every_target<int>();
  every_target<float>();
  every_target<double>();
  every_target<long long>();
  every_target<testvals::s24>();
  every_target<testvals::s64>();
  through_the_proxy();
  bit_patterns();
  return harness::pass("global_memory");
}
