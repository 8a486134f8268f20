// Collectives (broadcast, reduce to one / all, inclusive and exclusive scans)
// for every operator and element type, single values and vectors (tree and
// binary-swap sizes), user-defined and non-commutative operators, operators with state of
// their own (a capturing lambda, a struct with members; blocking, split-phase, on teams; up to
// P = 64), checked against the sequential computation on every processor. The checks cost
// O(n + P) per vector and processor and the loops over roots take at most 64 of them, so that
// the program runs at P = 1024 and beyond on the sim in a time that grows with P as the
// collectives do (docs/sim.md, "Scaling").
#include "harness.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <vector>

namespace {

int P;  // the same on every processor (set by main)
/// This processor (a function, not a static: statics may be shared by every processor).
int me() { return splitc::myproc(); }

/// The value processor q contributes for element i: it depends on i only through i % period.
constexpr std::size_t period = 35;  // 5 (integers) × 7 (floating point)
template <class T>
T contribution(int q, std::size_t i) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(0.5 + q + 0.25 * static_cast<double>(i % 7));
  else return static_cast<T>(q * 3 + 1 + static_cast<int>(i % 5));
}

/// Equal, or for floating point within what summing P terms in another order may round
/// differently (2P machine epsilons, relative: recursive summation's bound), at least 1e-5.
template <class T>
bool close(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const double tolerance = std::max(1e-5, 2.0 * P * static_cast<double>(std::numeric_limits<T>::epsilon()));
    return std::fabs(static_cast<double>(a) - static_cast<double>(b)) <=
           tolerance * std::max(1.0, std::fabs(static_cast<double>(b)));
  } else {
    return a == b;
  }
}

/// Sequential reduction of processors [0, upto] for element i.
template <class T, class Op>
T sequential(Op op, int upto, std::size_t i) {
  T acc = contribution<T>(0, i);
  for (int q = 1; q <= upto; ++q) acc = op(acc, contribution<T>(q, i));
  return acc;
}

/// sequential(op, upto, i) for every i, computed once per residue of i (O(period × P), not
/// O(n × P) per vector).
template <class T, class Op>
class expected_values {
 public:
  expected_values(Op op, int upto) {
    for (std::size_t r = 0; r < period; ++r) by_residue_[r] = sequential<T>(op, upto, r);
  }
  T operator[](std::size_t i) const { return by_residue_[i % period]; }

 private:
  T by_residue_[period];
};

/// The roots a loop over roots takes: every processor up to P = 64, else 64 spread over
/// [0, P - 1] (both ends, both parities).
std::vector<int> sampled_roots() {
  std::vector<int> roots;
  const int count = std::min(P, 64);
  for (int k = 0; k < count; ++k)
    roots.push_back(count == P ? k : static_cast<int>(static_cast<long long>(k) * (P - 1) / (count - 1)));
  return roots;
}

template <class T, class Op>
void check_op(Op op, const char* name) {
  // Single values.
  const T mine = contribution<T>(me(), 0);
  const T all = splitc::reduce_to_all(mine, op);
  CHECK_MSG(close(all, sequential<T>(op, P - 1, 0)), "reduce_to_all {} {}", name, sizeof(T));
  const T one = splitc::reduce_to_one(mine, op);
  if (me() == 0) CHECK_MSG(close(one, sequential<T>(op, P - 1, 0)), "reduce_to_one {}", name);
  const T inclusive = splitc::scan(mine, op);
  CHECK_MSG(close(inclusive, sequential<T>(op, me(), 0)), "scan {}", name);
  const T exclusive = splitc::exclusive_scan(mine, op, T{});
  if (me() > 0) CHECK_MSG(close(exclusive, sequential<T>(op, me() - 1, 0)), "exclusive_scan {}", name);
  else CHECK(exclusive == T{});
  // Vectors: inside one message, several messages, and binary-swap sizes.
  const expected_values<T, Op> whole(op, P - 1), prefix(op, me());
  for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{1000}, std::size_t{5000}}) {
    std::vector<T> v(n), s(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = s[i] = contribution<T>(me(), i);
    splitc::reduce_to_all(std::span<T>(v), op);
    splitc::scan(std::span<T>(s), op);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK_MSG(close(v[i], whole[i]), "vector reduce_to_all {} n={} i={}", name, n, i);
      CHECK_MSG(close(s[i], prefix[i]), "vector scan {} n={} i={}", name, n, i);
    }
  }
}

template <class T>
void check_arithmetic(const char* type) {
  check_op<T>(splitc::ops::add{}, type);
  check_op<T>(splitc::ops::max{}, type);
  check_op<T>(splitc::ops::min{}, type);
  if constexpr (std::is_integral_v<T>) {
    check_op<T>(splitc::ops::bit_or{}, type);
    check_op<T>(splitc::ops::bit_xor{}, type);
    check_op<T>(splitc::ops::bit_and{}, type);
  }
  // mult: keep products small and exact (2 from the first six processors, 1 from the rest,
  // so that a job of 1024 multiplies to 64 in every type).
  const T factor = static_cast<T>(me() < 6 ? 2 : 1);
  CHECK(splitc::reduce_to_all(factor, splitc::ops::mult{}) ==
        static_cast<T>(std::pow(2.0, std::min(P, 6))));
  CHECK(splitc::scan(factor, splitc::ops::mult{}) == static_cast<T>(std::pow(2.0, std::min(me() + 1, 6))));
}

/// An associative, non-commutative operator: concatenation of digit strings.
struct digits {
  std::uint64_t value;
  int length;
};
struct concatenate {
  digits operator()(digits a, digits b) const {
    std::uint64_t scale = 1;
    for (int i = 0; i < b.length; ++i) scale *= 10;
    return {a.value * scale + b.value, a.length + b.length};
  }
};

void check_order() {
  const digits mine{static_cast<std::uint64_t>(me() % 10), 1};
  std::uint64_t expect_all = 0, expect_prefix = 0;
  for (int q = 0; q < P; ++q) {
    expect_all = expect_all * 10 + static_cast<std::uint64_t>(q % 10);
    if (q <= me()) expect_prefix = expect_prefix * 10 + static_cast<std::uint64_t>(q % 10);
  }
  CHECK(splitc::reduce_to_all(mine, concatenate{}).value == expect_all);
  CHECK(splitc::scan(mine, concatenate{}).value == expect_prefix);
  // Large vectors with a non-commutative operator keep processor order (tree, not binary swap).
  std::vector<digits> v(3000, mine);
  splitc::reduce_to_all(std::span<digits>(v), concatenate{});
  for (const digits& d : v) CHECK(d.value == expect_all);
}

/// Operators with state of their own: the collectives run on cells of the element's size and
/// reach the operator through its address (detail/erased_reduction.hpp), so the program's own
/// object, with its members, must be the one that combines -- in the blocking forms, in the
/// split-phase ones (which keep a copy while the collective runs) and on teams. A sum modulo a
/// captured modulus (known only at run time), and concatenation in a base held by the operator.
struct concatenate_in_base {
  std::uint64_t base;
  digits operator()(digits a, digits b) const {
    std::uint64_t scale = 1;
    for (int i = 0; i < b.length; ++i) scale *= base;
    return {a.value * scale + b.value, a.length + b.length};
  }
};

void check_stateful_operators() {
  const long long modulus = 1000 + P;  // state no default-constructed operator could have
  auto add_mod = [modulus](long long a, long long b) { return (a + b) % modulus; };
  // Processor q's element i depends on i only through i % 5: the expected sums are computed
  // once per residue (O(P), not O(n × P) per vector).
  auto value_of = [&](int q, std::size_t i) { return (977LL * q + 31LL * static_cast<long long>(i % 5)) % modulus; };
  long long whole[5], upto_me[5], upto_before[5];
  for (std::size_t r = 0; r < 5; ++r) {
    whole[r] = upto_me[r] = upto_before[r] = 0;
    for (int q = 0; q < P; ++q) {
      whole[r] = (whole[r] + value_of(q, r)) % modulus;
      if (q <= me()) upto_me[r] = (upto_me[r] + value_of(q, r)) % modulus;
      if (q < me()) upto_before[r] = (upto_before[r] + value_of(q, r)) % modulus;
    }
  }
  auto sum_mod = [&](int upto, std::size_t i) {
    if (upto == P - 1) return whole[i % 5];
    return upto == me() ? upto_me[i % 5] : upto_before[i % 5];  // upto is me() or me() - 1
  };
  CHECK(splitc::reduce_to_all(value_of(me(), 0), add_mod) == sum_mod(P - 1, 0));
  const long long one = splitc::reduce_to_one(value_of(me(), 0), add_mod);
  if (me() == 0) CHECK(one == sum_mod(P - 1, 0));
  CHECK(splitc::scan(value_of(me(), 0), add_mod) == sum_mod(me(), 0));
  const long long before = splitc::exclusive_scan(value_of(me(), 0), add_mod, 0LL);
  CHECK(before == (me() > 0 ? sum_mod(me() - 1, 0) : 0));
  // A short vector blocking and split-phase at once, and one of many messages (a lambda is not
  // commutative to the collectives: long vectors take the tree).
  {
    const std::size_t n = 7;
    std::vector<long long> blocking(n), split(n), prefix(n);
    for (std::size_t i = 0; i < n; ++i) blocking[i] = split[i] = prefix[i] = value_of(me(), i);
    splitc::counter done;
    splitc::reduce_to_all(std::span<long long>(split), add_mod, done);
    splitc::scan(splitc::team::world(), std::span<long long>(prefix), add_mod, done);
    splitc::reduce_to_all(std::span<long long>(blocking), add_mod);
    splitc::sync(done);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK_MSG(blocking[i] == sum_mod(P - 1, i), "stateful reduce_to_all i={}", i);
      CHECK_MSG(split[i] == sum_mod(P - 1, i), "stateful split-phase reduce_to_all i={}", i);
      CHECK_MSG(prefix[i] == sum_mod(me(), i), "stateful split-phase scan i={}", i);
    }
  }
  std::vector<long long> many(1000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = value_of(me(), i);
  splitc::reduce_to_all(std::span<long long>(many), add_mod);
  for (std::size_t i = 0; i < many.size(); ++i)
    CHECK_MSG(many[i] == sum_mod(P - 1, i), "stateful reduce_to_all of 1000, i={}", i);
  // Reduce-scatter: block r of the sum of every processor's blocks.
  std::vector<long long> in(static_cast<std::size_t>(P) * 3), out(3);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = value_of(me(), i);
  splitc::reduce_scatter(std::span<const long long>(in), std::span<long long>(out), add_mod);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK_MSG(out[k] == sum_mod(P - 1, static_cast<std::size_t>(me()) * 3 + k),
              "stateful reduce_scatter k={}", k);

  // Not commutative, on a team of the even and one of the odd processors: the base is the
  // operator's own (7, not the 10 of `concatenate`), so a result in another base is wrong.
  splitc::team half = splitc::team::world().split(me() % 2, me());
  const concatenate_in_base in_base{7};
  const digits mine{static_cast<std::uint64_t>(me() % 7), 1};
  std::uint64_t expect_all = 0, expect_prefix = 0;
  for (int r = 0; r < half.size(); ++r) {
    expect_all = expect_all * 7 + static_cast<std::uint64_t>(half.proc(r) % 7);
    if (r <= half.rank()) expect_prefix = expect_prefix * 7 + static_cast<std::uint64_t>(half.proc(r) % 7);
  }
  CHECK(splitc::reduce_to_all(half, mine, in_base).value == expect_all);
  CHECK(splitc::scan(half, mine, in_base).value == expect_prefix);
  std::vector<digits> v(300, mine);  // several mailbox messages
  splitc::counter done;
  splitc::reduce_to_all(half, std::span<digits>(v), in_base, done);
  splitc::sync(done);
  for (const digits& d : v) CHECK(d.value == expect_all);
  half.destroy();
}

void check_broadcast() {
  for (int root : sampled_roots()) {
    CHECK(splitc::broadcast(me() == root ? 1000 + root : -1, root) == 1000 + root);
    struct big {
      double x[300];  // larger than one mailbox message
    } b{};
    if (me() == root)
      for (int i = 0; i < 300; ++i) b.x[i] = root + i * 0.5;
    b = splitc::broadcast(b, root);
    for (int i = 0; i < 300; ++i) CHECK(b.x[i] == root + i * 0.5);
    std::vector<long long> v(10000, me() == root ? root : -1);
    splitc::broadcast(std::span<long long>(v), root);
    for (long long x : v) CHECK(x == root);
  }
}

void check_pipelining(int count) {
  // Many small collectives back to back, of different kinds, without barriers.
  long long sum = 0;
  for (int i = 0; i < count; ++i) {
    sum += splitc::reduce_to_all(static_cast<long long>(me() + i), splitc::ops::add{});
    sum += splitc::broadcast(i, i % P);
  }
  long long expect = 0;
  for (int i = 0; i < count; ++i) expect += static_cast<long long>(P) * (P - 1) / 2 + static_cast<long long>(P) * i + i;
  CHECK(sum == expect);
}

/// A one-chunk broadcast's root leaves before checking its children's announcements and
/// checks them at the start of its next collective on the same channels (collective_algorithms.hpp,
/// checked_broadcast): whatever that collective is -- another broadcast, a long one, a
/// split-phase one, a team's creation, a barrier -- it must take the announcements first and
/// find what it expects behind them.
void check_deferred_root_checks() {
  for (int root : sampled_roots()) {
    CHECK(splitc::broadcast(me() == root ? 7 * root : -1, root) == 7 * root);
    // Split-phase collectives started right after it, on the world's channels.
    splitc::counter done;
    long long sum = me();
    splitc::reduce_to_all(splitc::team::world(), std::span<long long>(&sum, 1), splitc::ops::add{}, done);
    int from_split = me() == root ? 11 * root : -1;
    splitc::broadcast(std::span<int>(&from_split, 1), root, done);
    splitc::sync(done);
    CHECK(sum == static_cast<long long>(P) * (P - 1) / 2);
    CHECK(from_split == 11 * root);
    // A short broadcast, then a long one from another root.
    const int other = (root + 1) % P;
    CHECK(splitc::broadcast(me() == root ? 3 + root : -1, root) == 3 + root);
    std::vector<int> v(5000, me() == other ? other : -1);
    splitc::broadcast(std::span<int>(v), other);
    CHECK(std::all_of(v.begin(), v.end(), [&](int x) { return x == other; }));
    // On a team's channels: a short broadcast its destruction follows (which waits until every
    // member's messages are consumed, the announcements included).
    splitc::team half = splitc::team::world().split(me() % 2, me());
    const int team_root = half.size() - 1;
    CHECK(splitc::broadcast(half, half.rank() == team_root ? 100 + me() : -1, team_root) ==
          100 + half.proc(team_root));
    half.destroy();
    // The world's channels' last short broadcast before a barrier.
    CHECK(splitc::broadcast(me() == root ? 5 : -1, root) == 5);
    splitc::barrier();
  }
}

}  // namespace

/// or, xor, and: bit_* combine bits (the C names all_reduce_to_one_or etc.), logical_* truth
/// values (non-zero is true, every result 1 or 0). Values are chosen so the two differ.
void check_bitwise_and_logical() {
  namespace ops = splitc::ops;
  // Processor q contributes 2(q+1): every value true, no two share a bit pattern's low bit.
  const int even = 2 * (me() + 1);
  int all_or = 0, all_xor = 0, all_and = ~0, prefix_or = 0;
  for (int q = 0; q < P; ++q) {
    all_or |= 2 * (q + 1);
    all_xor ^= 2 * (q + 1);
    all_and &= 2 * (q + 1);
    if (q <= me()) prefix_or |= 2 * (q + 1);
  }
  CHECK(splitc::reduce_to_all(even, ops::bit_or{}) == all_or);
  CHECK(splitc::reduce_to_all(even, ops::bit_xor{}) == all_xor);
  CHECK(splitc::reduce_to_all(even, ops::bit_and{}) == all_and);
  CHECK(splitc::scan(even, ops::bit_or{}) == prefix_or);
  CHECK(splitc::reduce_to_all(even, ops::logical_or{}) == 1);
  CHECK(splitc::reduce_to_all(even, ops::logical_and{}) == 1);
  CHECK(splitc::reduce_to_all(even, ops::logical_xor{}) == P % 2);  // parity of the true values
  const int on_zero = splitc::reduce_to_one(even, ops::logical_or{});
  if (me() == 0) CHECK(on_zero == 1);  // 1 even on one processor, where nothing is combined
  CHECK(splitc::scan(even, ops::logical_or{}) == 1);
  CHECK(splitc::scan(even, ops::logical_xor{}) == (me() + 1) % 2);

  // Processor 0 contributes 0 (false), the others 2q (true).
  const int zero_first = 2 * me();
  CHECK(splitc::reduce_to_all(zero_first, ops::logical_and{}) == 0);
  CHECK(splitc::reduce_to_all(zero_first, ops::logical_or{}) == (P > 1 ? 1 : 0));
  CHECK(splitc::scan(zero_first, ops::logical_or{}) == (me() > 0 ? 1 : 0));
  CHECK(splitc::exclusive_scan(zero_first, ops::logical_or{}, 0) == (me() > 1 ? 1 : 0));
  CHECK(splitc::reduce_to_all(0.25 * me(), ops::logical_or{}) == (P > 1 ? 1.0 : 0.0));

  // Vectors, tree and binary-swap sizes: element i of processor q is 4 * ((q + i) % 3).
  for (std::size_t n : {std::size_t{7}, std::size_t{5000}}) {
    std::vector<long long> any(n), all(n), bits(n);
    for (std::size_t i = 0; i < n; ++i)
      any[i] = all[i] = bits[i] = 4 * ((me() + static_cast<long long>(i)) % 3);
    splitc::reduce_to_all(std::span<long long>(any), ops::logical_or{});
    splitc::reduce_to_all(std::span<long long>(all), ops::logical_and{});
    splitc::reduce_to_all(std::span<long long>(bits), ops::bit_or{});
    // The expected values depend on i only through i % 3.
    bool some[3] = {}, every[3] = {true, true, true};
    long long ored[3] = {};
    for (long long r = 0; r < 3; ++r)
      for (int q = 0; q < P; ++q) {
        const long long v = 4 * ((q + r) % 3);
        some[r] = some[r] || v != 0;
        every[r] = every[r] && v != 0;
        ored[r] |= v;
      }
    for (std::size_t i = 0; i < n; ++i) {
      CHECK_MSG(any[i] == (some[i % 3] ? 1 : 0), "logical_or n={} i={}", n, i);
      CHECK_MSG(all[i] == (every[i % 3] ? 1 : 0), "logical_and n={} i={}", n, i);
      CHECK_MSG(bits[i] == ored[i % 3], "bit_or n={} i={}", n, i);
    }
  }
}

int main(int argc, char** argv) {
  splitc::init(argc, argv);
  P = splitc::procs();
  // argv[1]: how many collectives run back to back in check_pipelining (default 2000).
  const int pipelined = argc > 1 ? std::atoi(argv[1]) : 2000;
  CHECK(pipelined > 0);
  check_arithmetic<int>("int");
  check_arithmetic<unsigned>("unsigned");
  check_arithmetic<long long>("long long");
  check_arithmetic<float>("float");
  check_arithmetic<double>("double");
  check_order();
  // The operators' state is a matter of the calls' plumbing, not of scale: checked up to P = 64
  // (every backend's matrix), not in the sim's runs at hundreds of processors, where they made
  // the program at P = 1024 up to 40 % slower (docs/running.md, 2026-12-06).
  if (P <= 64) check_stateful_operators();
  check_bitwise_and_logical();
  check_broadcast();
  check_deferred_root_checks();
  check_pipelining(pipelined);
  splitc::barrier();
  return harness::pass("collectives");
}
